"""The pages of shared transcriptions: the "Other tables transcribed this clock" section of
the clock page and the clock editor (``community_section``), and its buttons: use a
definition, report one; and the group's sharing switch on the settings page.

Access as everywhere: 404 for outsiders, 403 for viewers on writes (owners only for the
sharing switch); a clock of a chapter not opened shows nothing and its buttons answer 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import clock_or_404, get_group_for_user
from campaigns.definitions import community
from campaigns.errors import CampaignError
from campaigns.models import Group
from campaigns.play.state import CampaignState
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from rules.canonical import differences
from rules.clock import Clock
from rules.svg import clock_svg

SHOWN = 10  # definitions drawn on the page, most tables first; the API lists them all


def community_section(
    group: Group, clock_id: str, ours: Clock, version: int, state: CampaignState
) -> dict[str, Any]:
    """Template context for ``campaigns/_community.html``: ``community`` is None when the
    chapter is not opened (nothing may show), else whether the group shares and each
    definition other tables typed, drawn with what differs from the group's ``ours``
    (its own version, or rules that are known: a clock with none compares to nothing)."""
    if not state.clock_open(clock_id):
        return {"community": None}
    if not group.share_with_community:
        return {"community": {"sharing": False, "items": []}}
    lang = current_lang()
    compare_to = ours if version or ours.transcribed else None
    items = []
    every = community.shared_definitions(group, clock_id, state)
    for shared in every[:SHOWN]:
        found = differences(shared.clock, compare_to)
        items.append(
            {
                "shared": shared,
                "face": clock_svg(shared.clock, lang=lang, differences=found),
                # Each rule's sentence, and whether the group's own rules lack it.
                "rules": [(r.describe(lang), found.highlights(r)) for r in shared.clock.rules],
                "differs": bool(found),
                "missing": [rule.describe(lang) for rule in found.missing],
                "start_differs": found.start,
                "cap_differs": found.cap,
            }
        )
    return {"community": {"sharing": True, "items": items, "more": len(every[SHOWN:])}}


@login_required
@require_POST
def adopt(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """The Use this button: the definition becomes the group's new version, recorded as
    adopted."""
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    clock_id = clock_or_404(clock_id)
    try:
        row = community.adopt(group, clock_id, request.POST.get("fingerprint", ""), request.user)
    except CampaignError as error:  # the per-user limit
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Clock %(clock)s now uses these rules: version %(version)d.")
            % {"clock": clock_id, "version": row.version},
        )
    return redirect("campaigns:clock", group.pk, clock_id)


@login_required
@require_POST
def report(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """A member reports a definition to the staff, with a reason (400 with the reason's
    error when it is missing or too long)."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    clock_id = clock_or_404(clock_id)
    fingerprint = request.POST.get("fingerprint", "")
    reason = request.POST.get("reason", "")
    try:
        community.report(group, clock_id, fingerprint, request.user, reason)
    except CampaignError as error:
        context = {
            "group": group,
            "membership": membership,
            "clock_id": clock_id,
            "fingerprint": fingerprint,
            "reason": reason,
            "error": error.message,
            "max_reason": community.REASON_LENGTH,
        }
        return render(request, "campaigns/community_report.html", context, status=400)
    messages.success(request, _("Thank you: the site's staff will look at these rules."))
    return redirect("campaigns:clock", group.pk, clock_id)


@login_required
@require_POST
def sharing(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """The owners' switch: share transcriptions and figures with other tables (and see
    theirs), or neither."""
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    group.share_with_community = request.POST.get("share") == "on"
    group.save(update_fields=["share_with_community"])
    if group.share_with_community:
        messages.success(request, _("Your group shares with other tables again."))
    else:
        messages.success(request, _("Your group no longer shares with other tables."))
    return redirect("campaigns:settings", group.pk)
