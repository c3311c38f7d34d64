"""The clock pages: a clock's face, rules and attempts, and the clock editor, whose face is
redrawn as the user types (htmx swaps its ``editor`` partial).
"""

from __future__ import annotations

import json
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
from campaigns.definitions.editor import kinds_offered, param_inputs, rule_from_params
from campaigns.definitions.played import played_definition
from campaigns.forms import TranscriptionForm, add_service_error
from campaigns.models import Attempt
from campaigns.play.chapter_map import clock_state, state_labels
from campaigns.play.state import campaign_state
from config.errors import refusal_text
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from config.ids import parse_natural
from rules.clock import Clock
from rules.errors import RulesError
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


def _rules_text(rules: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(rule, ensure_ascii=False) for rule in rules)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def transcribe(  # noqa: C901 - one branch per button of the editor
    request: AuthenticatedHttpRequest, group_id: int, clock_id: str
) -> HttpResponse:
    """The clock editor: the clock hand, the 24 limit and the special rules, with the clock
    face redrawn after every change. Buttons say what a POST does: ``choose`` shows the
    inputs of the kind picked in ``new_kind``, ``add`` appends that rule, ``remove`` (its
    index) drops one, ``save`` stores a new version. htmx swaps the ``editor`` partial on
    every change; without JavaScript the same buttons re-render the page."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    clock_id = clock_or_404(clock_id)
    choice = played_definition(group, clock_id)
    clock, version = choice.clock, choice.version
    new_kind = request.POST.get("new_kind", "")
    new_rule_error = None
    if request.method == "POST":
        data = request.POST.copy()
        form = TranscriptionForm(data)
        if form.is_valid():
            rules = list(form.cleaned_data["rules"])
            if "remove" in request.POST:
                index = parse_natural(request.POST.get("remove", ""), len(rules) - 1)
                if index is not None:
                    rules.pop(index)
            elif "replace" in request.POST:  # a described rule by the kind staff marked
                index = parse_natural(request.POST.get("replace", ""), len(rules) - 1)
                if index is not None:
                    rules = described.replaced(rules, index)
            elif request.POST.get("action") == "add" or (
                # Save with a rule still in "Add a rule" saves it too, rather than drop it.
                request.POST.get("action") == "save" and new_kind in RULE_KINDS
            ):
                try:
                    rules.append(rule_from_params(new_kind, request.POST).to_json())
                    new_kind = ""
                except RulesError as error:
                    new_rule_error = refusal_text(error)
            data["rules"] = _rules_text(rules)
            form = TranscriptionForm(data)
    else:
        form = TranscriptionForm(
            initial={
                "start": clock.start,
                "cap_lifted": clock.cap is None,
                "rules": _rules_text([r.to_json() for r in clock.rules]),
            }
        )
    draft: Clock | None = clock
    if form.is_bound:
        draft = None
        if form.is_valid():
            try:
                draft = Clock.from_json(form.definition(clock_id))
            except RulesError as error:
                add_service_error(form, error)
    if (
        request.method == "POST"
        and request.POST.get("action") == "save"
        and draft is not None
        and new_rule_error is None
    ):
        if version and _sameclock_face(clock, draft):  # a double tap, or nothing changed
            messages.info(
                request, _("Nothing changed: still version %(version)d.") % {"version": version}
            )
        else:
            row = definitions_services.transcribe(group, clock_id, draft.to_json(), request.user)
            messages.success(request, _("Saved as version %(version)d.") % {"version": row.version})
        if request.htmx:
            return HttpResponseClientRedirect(reverse("campaigns:clock", args=[group.pk, clock_id]))
        return redirect("campaigns:clock", group.pk, clock_id)
    context: dict[str, Any] = {
        "group": group,
        "membership": membership,
        "clock_id": clock_id,
        "version": version,
        "form": form,
        "kinds": kinds_offered(),
        "new_kind": new_kind if new_kind in RULE_KINDS else "",
        "new_inputs": (
            [replace(p, value=request.POST.get(p.field, "")) for p in param_inputs(new_kind)]
            if new_kind in RULE_KINDS
            else []
        ),
        "new_rule_error": new_rule_error,
        "draft_rules": (
            [(i, r.describe(current_lang())) for i, r in enumerate(draft.rules)] if draft else []
        ),
        "preview": clock_face(draft) if draft else None,
        "offers": described.offers(draft, current_lang()),
        "segments": SEGMENTS,
    }
    status = 400 if form.errors or new_rule_error else 200
    if request.htmx:
        return render(request, "campaigns/transcribe.html#editor", context)
    # Other tables' definitions, compared with the version saved (not the draft).
    state = campaign_state(group.current_campaign())
    context.update(community_section(group, clock_id, clock, version, state))
    return render(request, "campaigns/transcribe.html", context, status=status)
