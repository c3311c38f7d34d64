"""The hint pages: ask (/hints/new/), watch and read (/hints/<id>/), my hints (/hints/).

Every page works as plain HTML: the progress page refreshes itself with a meta refresh;
with htmx it polls its ``status`` partial every second instead, and the poll is stopped
with HttpResponseStopPolling once the job has ended (the final partial is the result).
Access: a hint is visible to its asker and to members of its group; everyone else gets
404 (``solver.access.get_hint_for_user``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from campaigns.access import get_group_for_user
from campaigns.definitions.played import played_definition
from campaigns.models import Attempt, Group
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from config.ids import parse_id
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import PLAYER_COUNTS
from rules.hint_result import read as read_result
from solver import services
from solver.access import get_hint_for_user
from solver.errors import HintError, HintLimitReached
from solver.forms import HintForm, WhatIfForm, slots_from_colours
from solver.hint_inputs import group_defaults
from solver.hint_page import hint_context, percent
from solver.models import HintRequest
from solver.seating import suggested_names
from solver.what_if import what_if


def _group(request: AuthenticatedHttpRequest, raw: object) -> Group | None:
    """The group a hint is asked for: 404 for outsiders, 403 for its viewers (who may read
    the group's hints but not add to them)."""
    if raw in (None, ""):
        return None
    group_id = parse_id(raw)
    if group_id is None:  # no group can have this id
        raise Http404
    return get_group_for_user(request.user, group_id, write=True)[0]


# --- Asking ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def hint_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The request form. GET ?group=ID starts from the group's next clock and face-up
    budget; GET ?players=N (the "show seats" button, or htmx on change) redraws the seats."""
    source = request.POST if request.method == "POST" else request.GET
    group = _group(request, source.get("group"))
    if request.method == "POST":
        form = HintForm(request.POST, group=group)
        if form.is_valid() and form.hint_input is not None:
            try:
                hint, _created = services.request_hint(
                    request.user,
                    form.hint_input,
                    group=group,
                    campaign=group.current_campaign() if group else None,
                    lang=current_lang(),
                )
            except HintLimitReached as error:
                form.add_error(None, error.message)
                response = _render_new(request, form, group)
                response.status_code = 429
                return response
            return redirect("solver:detail", hint.pk)
        return _render_new(request, form, group, status=400)
    form = HintForm(initial=_initial(request, group), group=group)
    if request.htmx and request.GET.get("partial") == "seats":
        return render(request, "solver/hint_new.html#seats", {"form": form, "group": group})
    return _render_new(request, form, group)


def _initial(request: AuthenticatedHttpRequest, group: Group | None) -> dict[str, Any]:
    """Start values: the group's next clock, budget, table size and seating, or what the
    GET asks."""
    default = 3
    if group is not None and (listed := group.players.count()) in PLAYER_COUNTS:
        default = listed  # the group's own table
    players = request.GET.get("players")
    try:
        count = int(players) if players else default
    except ValueError:
        count = default
    count = count if count in PLAYER_COUNTS else default
    initial: dict[str, Any] = {"players": count, "clock": "1-1", "face_up": count}
    moons: set[str] = set()
    colours = request.GET.get("colours", "")
    if colours:
        parsed = slots_from_colours(colours)
        if parsed is not None and parsed[0] == count:
            moons = parsed[1]
    initial["moon"] = sorted(moons)
    # Who sits where: what the form held before the redraw, then the group's last seating
    # and its players (solver.seating).
    typed = request.GET.getlist("names")
    if group is not None:
        initial["names"] = suggested_names(group, count, typed)
    else:
        initial["names"] = ([" ".join(name.split()) for name in typed] + [""] * count)[:count]
    if group is not None:
        next_clock, budget = group_defaults(group, count)
        initial["face_up"] = budget
        if next_clock:
            initial["clock"] = next_clock
    if request.GET.get("clock"):
        initial["clock"] = request.GET["clock"]
    return initial


def _render_new(
    request: AuthenticatedHttpRequest, form: HintForm, group: Group | None, status: int = 200
) -> HttpResponse:
    return render(request, "solver/hint_new.html", {"form": form, "group": group}, status=status)


# --- Watching and reading -----------------------------------------------------------------------


@login_required
@require_GET
@vary_on_headers("HX-Request")
def hint_detail(request: AuthenticatedHttpRequest, hint_id: int) -> HttpResponse:
    hint = get_hint_for_user(request.user, hint_id)
    if request.htmx and request.GET.get("partial") == "status":
        html = render_to_string(
            "solver/hint_detail.html#status", hint_context(request, hint), request=request
        )
        if hint.is_active:
            return HttpResponse(html)
        # The job has ended: swap in the result and tell htmx to stop polling.
        return HttpResponseStopPolling(html)
    return render(request, "solver/hint_detail.html", hint_context(request, hint))


@login_required
@require_POST
def hint_cancel(request: AuthenticatedHttpRequest, hint_id: int) -> HttpResponse:
    hint = get_hint_for_user(request.user, hint_id)
    if hint.user_id != request.user.pk:
        # Group members may look; only the asker stops the job.
        return HttpResponse(status=403)
    if services.cancel(hint):
        messages.info(request, _("The hint was cancelled."))
    return redirect("solver:detail", hint.pk)


@login_required
@require_POST
def hint_retry(request: AuthenticatedHttpRequest, hint_id: int) -> HttpResponse:
    hint = get_hint_for_user(request.user, hint_id)
    if not hint.can_retry:
        return redirect("solver:detail", hint.pk)
    try:
        new, _created = services.retry(hint, request.user)
    except HintLimitReached as error:
        messages.error(request, error.message)
        return redirect("solver:detail", hint.pk)
    return redirect("solver:detail", new.pk)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def hint_what_if(request: AuthenticatedHttpRequest, hint_id: int) -> HttpResponse:
    """Simulate the plan with the group's own targets, inline (see solver.what_if)."""
    hint = get_hint_for_user(request.user, hint_id)
    if hint.status != HintRequest.Status.DONE or not hint.result:
        return redirect("solver:detail", hint.pk)
    form = WhatIfForm(
        request.POST, players=hint.players, targets=hint.spoken_targets(), names=hint.names or ()
    )
    outcome = None
    status = 200
    if form.is_valid():
        try:
            outcome = what_if(
                hint,
                form.targets(),
                form.cleaned_data.get("opener"),
                request.user,
                offer=form.cleaned_data.get("plan") or 0,
            )
        except HintLimitReached as error:
            form.add_error(None, error.message)
            status = 429
        except HintError as error:
            form.add_error(None, error.message)
    if (not form.is_valid() or form.errors) and status != 429:
        status = 400
    context = hint_context(request, hint, what_if_form=form, what_if=outcome)
    if request.htmx:
        # 200 even for a refusal, as the board does: htmx swaps no 4xx answer in, so the
        # player would see nothing at all where the card should say what to change.
        return render(request, "solver/hint_detail.html#what_if", context)
    return render(request, "solver/hint_detail.html", context, status=status)


@login_required
@require_GET
def hint_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My hints, newest first (those I asked; group members see a group's hints on the hint)."""
    rows = HintRequest.objects.filter(user=request.user.pk).select_related("group")
    page = Paginator(rows, 25).get_page(request.GET.get("page"))
    for hint in page:
        # a percentage, as on every other page ("61%", not "0.61")
        hint.rate_shown = percent(read_result(hint.result)["pass_rate"]) if hint.result else ""  # type: ignore[attr-defined]
    return render(request, "solver/hint_list.html", {"page": page})


def plan_for_this_deal(group: Group, clock_id: str) -> HintRequest | None:
    """The group's latest finished hint for the deal on the table now, or None.

    A failure reshuffles the cards, and every attempt (at any clock) is a new deal: a hint
    counts only if it was asked after the campaign's last recorded attempt. And only for the
    rules in use: a hint asked before the clock was transcribed (or transcribed again) was
    solved for other rules."""
    campaign = group.current_campaign()
    last = (
        Attempt.objects.filter(campaign=campaign)
        .order_by("-created", "-id")
        .only("created")
        .first()
    )
    hints = HintRequest.objects.filter(
        group=group, clock_id=clock_id, status=HintRequest.Status.DONE
    ).order_by("-finished_at", "-id")
    if last is not None:
        hints = hints.filter(queued_at__gt=last.created)
    hint = hints.first()
    if hint is None:
        return None
    clock = played_definition(group, clock_id).clock
    try:
        asked_for = Clock.from_json(hint.clock_definition).to_json()
    except RulesError:
        return None
    return hint if asked_for == clock.to_json() else None


@login_required
@require_GET
def table_plan(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """The plan of the group's latest finished hint for a clock, as table mode shows it: the
    three lines said aloud (what Read aloud reads) and the fine print behind "Why / details".
    A fragment for htmx; without JavaScript the same words on a page of its own."""
    group, membership = get_group_for_user(request.user, group_id)
    hint = plan_for_this_deal(group, clock_id[:8])
    lang = current_lang()
    context = {
        "group": group,
        "membership": membership,
        "clock_id": clock_id,
        "hint": hint,
        "colours": hint.colours if hint else "",
        "speech": hint.speech(lang) if hint else None,
        "rate": percent(read_result(hint.result)["pass_rate"]) if hint and hint.result else "",
    }
    if request.htmx:
        return render(request, "solver/table_plan.html#plan", context)
    return render(request, "solver/table_plan.html", context)
