"""Template filters of the campaign pages."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def ago(moment: datetime | None) -> str:
    """ "just now" within the first minute (timesince would say "0 minutes"), else
    "5 minutes ago", in the reader's language."""
    if moment is None:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return _("just now")
    return _("%(time)s ago") % {"time": timesince(moment)}


@register.filter
def letter(number: int) -> str:
    """1 → "A", 2 → "B"…: other tables' definitions of a clock are told apart by a letter
    (their own versions are numbered), never by a hash."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[number - 1] if 0 < number <= len(letters) else str(number)


@register.filter
def clocks(clock_ids: str) -> list[str]:
    """The clocks of an event: one, or several put back from the Sleeve ("1-1,2-3")."""
    return [c for c in clock_ids.split(",") if c]


@register.filter
def unbroken(clock_id: str) -> str:
    """A clock's number with a non-breaking hyphen: a narrow button wraps before "(2-4)",
    never inside it ("(2-⏎4)" in Dutch table mode)."""
    return str(clock_id).replace("-", "\u2011")


@register.filter
def json_attr(value: object) -> str:
    """``value`` as JSON for a data- attribute (the template escapes it as any text): what
    the page's own scripts read, since the Content-Security-Policy allows no inline script."""
    return json.dumps(value, separators=(",", ":"))
