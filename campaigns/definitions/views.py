"""The clock pages: a clock's face, rules and attempts, and the clock editor, whose face is
redrawn as the user types (htmx swaps its ``editor`` partial).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from campaigns import winnable
from campaigns.access import clock_or_404, get_group_for_user
from campaigns.definitions import described
from campaigns.definitions import services as definitions_services
from campaigns.definitions.community_views import community_section
from campaigns.definitions.editor import (
    EditorStep,
    edit,
    kinds_offered,
    param_inputs,
    start_editing,
)
from campaigns.definitions.played import played_definition
from campaigns.models import Attempt
from campaigns.play.chapter_map import clock_state, state_labels
from campaigns.play.state import campaign_state
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from rules.clock import Clock
from rules.kinds import RULE_KINDS
from rules.layout import SEGMENTS
from rules.svg import clock_svg


def clock_face(clock: Clock, layout: Any = None) -> str:
    """The SVG face of ``clock`` (with ``layout`` drawn on it), in the reader's language."""
    return clock_svg(clock, layout, lang=current_lang())


# --- clocks -------------------------------------------------------------------------------


@login_required
@require_GET
def clock_page(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """A clock's face, rules and every attempt of the campaign. Clocks of chapters not
    opened stay hidden unless ``?spoilers=1``."""
    group, membership = get_group_for_user(request.user, group_id)
    clock_id = clock_or_404(clock_id)
    campaign = group.current_campaign()
    state = campaign_state(campaign)
    opened = state.clock_open(clock_id)
    if clock_id in state.by_id:
        kind = clock_state(state, clock_id)
    else:  # the Rebirth clock, outside a Rebirth campaign
        kind = "upcoming" if opened else "locked"
    hidden = not opened and request.GET.get("spoilers") != "1"
    choice = played_definition(group, clock_id)
    clock, version = choice.clock, choice.version
    shared = {} if hidden else community_section(group, clock_id, clock, version, state)
    # Every attempt of the group's history at this clock: a new campaign does not erase what
    # the table already tried here (earlier campaigns' rows are marked).
    attempts = list(
        Attempt.objects.filter(campaign__group=group, clock_id=clock_id)
        .select_related("opener", "session")
        .order_by("id")
    )
    if not hidden:  # was each failure winnable? (a spoiler too, for a chapter not opened)
        winnable.attach(group, attempts)
    return render(
        request,
        "campaigns/clock.html",
        {
            "group": group,
            "membership": membership,
            "clock": clock,
            "clock_id": clock_id,
            "version": version,
            "hidden": hidden,
            "face": None if hidden else clock_face(clock),
            "rules_text": [] if hidden else clock.describe(current_lang()),
            "state_label": state_labels().get(kind, ""),
            "attempts": attempts,
            "campaign": campaign,
            "versions": group.transcriptions.filter(clock_id=clock_id),
            **shared,
        },
    )


def _sameclock_face(a: Clock, b: Clock) -> bool:
    """The same hand, limit and special rules (what a new version would change)."""
    return (a.start, a.cap, a.rules) == (b.start, b.cap, b.rules)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def transcribe(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """The clock editor: the clock hand, the 24 limit and the special rules, with the clock
    face redrawn after every change. Buttons say what a POST does (``editor.edit``):
    ``choose`` shows the inputs of the kind picked in ``new_kind``, ``add`` appends that
    rule, ``remove`` (its index) drops one, ``save`` stores a new version. htmx swaps the
    ``editor`` partial on every change; without JavaScript the same buttons re-render the
    page."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    clock_id = clock_or_404(clock_id)
    choice = played_definition(group, clock_id)
    clock, version = choice.clock, choice.version
    step = edit(clock_id, request.POST) if request.method == "POST" else start_editing(clock)
    if step.save and step.draft is not None:
        if version and _sameclock_face(clock, step.draft):  # a double tap, or nothing changed
            messages.info(
                request, _("Nothing changed: still version %(version)d.") % {"version": version}
            )
        else:
            draft = step.draft.to_json()
            row = definitions_services.transcribe(group, clock_id, draft, request.user)
            messages.success(request, _("Saved as version %(version)d.") % {"version": row.version})
        if request.htmx:
            return HttpResponseClientRedirect(reverse("campaigns:clock", args=[group.pk, clock_id]))
        return redirect("campaigns:clock", group.pk, clock_id)
    context = {"group": group, "membership": membership, "clock_id": clock_id, "version": version}
    context.update(_editor_context(request, step))
    if request.htmx:
        return render(request, "campaigns/transcribe.html#editor", context)
    # Other tables' definitions, compared with the version saved (not the draft).
    state = campaign_state(group.current_campaign())
    context.update(community_section(group, clock_id, clock, version, state))
    return render(request, "campaigns/transcribe.html", context, status=step.status)


def _editor_context(request: AuthenticatedHttpRequest, step: EditorStep) -> dict[str, Any]:
    """What the editor partial shows of a step, in the reader's language."""
    lang, draft, new_kind = current_lang(), step.draft, step.new_kind
    offered = new_kind in RULE_KINDS
    return {
        "form": step.form,
        "kinds": kinds_offered(),
        "new_kind": new_kind if offered else "",
        "new_inputs": (
            [replace(p, value=request.POST.get(p.field, "")) for p in param_inputs(new_kind)]
            if offered
            else []
        ),
        "new_rule_error": step.new_rule_error,
        "draft_rules": [(i, r.describe(lang)) for i, r in enumerate(draft.rules)] if draft else [],
        "preview": clock_face(draft) if draft else None,
        "offers": described.offers(draft, lang),
        "segments": SEGMENTS,
    }
