"""The hint pages: ask (/hints/new/), watch and read (/hints/<id>/), my hints (/hints/).

Every page works as plain HTML: the progress page refreshes itself with a meta refresh;
with htmx it polls its ``status`` partial every second instead, and the poll is stopped
with HttpResponseStopPolling once the job has ended (the final partial is the result).
Access: a hint is visible to its asker and to members of its group; everyone else gets
404 (``solver.access.get_hint_for_user``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from campaigns.access import get_group_for_user
from campaigns.definitions.played import played_definition
from campaigns.models import Attempt, Group, Membership
from campaigns.statistics.table_rate import one_in
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from config.ids import parse_id
from ops.heartbeat import solver_starting
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import PLAYER_COUNTS
from rules.hint_result import read as read_result
from rules.svg import clock_svg
from solver import services
from solver.access import get_hint_for_user
from solver.core.table import exact
from solver.core.words import spoken_number
from solver.errors import HintError, HintLimitReached
from solver.forms import HintForm, WhatIfForm, slots_from_colours
from solver.hint_inputs import group_defaults
from solver.models import HintRequest
from solver.results import claims, kind_label, moves_per_slip, offered, pick
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


def _pct(x: float | None, digits: int = 0) -> str:
    """0.7499 → "75%" (a table does not need more digits than that); interval ends get one
    decimal, or a tight interval would read "61%–61%". A rate under 10% gets one decimal too
    ("2.2%" clean, "1.8%" with slips: whole percents would read "2%" twice). A rate that is
    neither 0 nor 1 never reads "0%" or "100%": it gets a decimal ("0.2%", "99.6%"), and
    beyond that "<0.1%" or ">99.9%" — on a clock that silent play seldom passes, "0%" would
    say it never does. The decimal separator is the reader's language's ("0,2%" in Dutch)."""
    if x is None:
        return ""
    value = 100 * float(x)
    if 0 < value < 10:
        digits = max(digits, 1)
    prefix = ""
    if 0 < value < 100 and round(value, digits) in (0, 100):
        digits = max(digits, 1)
        if round(value, digits) == 0:
            prefix, value = "<", 10.0**-digits
        elif round(value, digits) == 100:
            prefix, value = ">", 100 - 10.0**-digits
    text = f"{value:.{digits}f}".replace(".", str(get_format("DECIMAL_SEPARATOR")))
    return f"{prefix}{text}%"


def _at_most(rate: str) -> str:
    """A rate computed without a rule the table plays (a rule in its own words): the true
    rate can only be lower, and every figure says so, on the hint as in What if."""
    return _("at most %(rate)s") % {"rate": rate}


# --- Watching and reading -----------------------------------------------------------------------


def _context(request: AuthenticatedHttpRequest, hint: HintRequest, **extra: Any) -> dict[str, Any]:
    lang = current_lang()
    context: dict[str, Any] = {
        "hint": hint,
        "speech": hint.speech(lang),
        "is_owner": hint.user_id == request.user.pk,
        # Viewers of the hint's group read it, but neither retry it nor ask for the group.
        "may_ask_for_group": hint.group_id is None
        or Membership.objects.filter(
            group_id=hint.group_id,
            user=request.user,
            role__in=(Membership.Role.OWNER, Membership.Role.MEMBER),
        ).exists(),
        # A queued hint while the only worker loads the solver's kernels (the first start on
        # a machine compiles them): the page says so instead of a silent 0 %.
        "solver_starting": hint.status == HintRequest.Status.QUEUED and solver_starting(),
        **extra,
    }
    # The plan shown: one of the plans offered (tabs), ?plan=N or the What if form's "plan".
    source = request.POST if request.method == "POST" else request.GET
    index, shown = pick(hint.result or {}, source.get("plan", 0))
    # Rules in the table's own words the plans do not know: every figure is at most itself.
    ignored = hint.ignored_rules(lang) if hint.result else []
    bound = _at_most if ignored else str
    outcome = extra.get("what_if")
    if outcome is not None:
        context["what_if_numbers"] = {
            "mine": bound(_pct(outcome.mine.pass_rate)),
            "theirs": bound(_pct(outcome.suggested.pass_rate)),
            "pass_rate": _pct(outcome.mine.pass_rate),
            "low": _pct(outcome.mine.interval[0], 1),
            "high": _pct(outcome.mine.interval[1], 1),
            "games": outcome.mine.games,
            "suggested": _pct(outcome.suggested.pass_rate),
            # The headline figure of the plan varied, when What if measured it otherwise.
            "headline": ""
            if _pct(outcome.suggested.pass_rate) == _pct(shown.get("pass_rate"))
            else _pct(shown.get("pass_rate")),
            "headline_games": read_result(hint.result)["games"],
        }
    if hint.status == HintRequest.Status.DONE and hint.result:
        result = read_result(hint.result)
        interval = shown["interval"]
        slip_rate = result["slip_rate"]
        with_slips = shown["pass_rate_with_slips"]
        context["numbers"] = {
            "pass_rate": _pct(shown.get("pass_rate")),
            "low": _pct(interval[0], 1),
            "high": _pct(interval[1], 1),
            "baseline": bound(_pct(result["baseline_rate"])),
            "clean": bound(_pct(shown.get("pass_rate"))),
            "odds": _pct(result["odds"]),
            "with_slips": bound(_pct(with_slips)) if with_slips is not None and slip_rate else "",
            "every": moves_per_slip(slip_rate),
            # The table's own rate (hint_inputs.table_slip_rate): say so, as 1 card in N.
            "table_every": one_in(hint.slip_rate)
            if hint.slip_rate_source == HintRequest.SlipRateSource.TABLE
            else 0,
        }
        context["ignored_rules"] = ignored
        plans = offered(result)
        said = claims(plans, slips=bool(slip_rate))
        context["shown_index"] = index
        context["plans"] = [
            {
                "index": i,
                "labels": [kind_label(kind) for kind in other.get("kinds", [])],
                "helps": said[i],
                "pass_rate": bound(_pct(other.get("pass_rate"))),
                "with_slips": bound(_pct(other.get("pass_rate_with_slips")))
                if slip_rate and other.get("pass_rate_with_slips") is not None
                else "",
                "sentences": other.get("sentences"),
            }
            for i, other in enumerate(plans)
        ]
        if index:
            context["speech"] = hint.speech(lang, shown.get("plan"))
        plan = hint.read_plan(shown.get("plan"))
        context["has_plan"] = plan is not None
        targets = [spoken_number(t) for t in shown.get("plan", {}).get("targets", [])]
        try:
            clock = hint.clock()
            # The exactly-twelve convention says what each segment ends at, whatever the
            # plan's targets: the face shows those, the What-if varies only who opens.
            convention = exact.followed(clock, plan) if plan is not None else None
            face: Sequence[float] | Mapping[int, float] = targets
            if convention is not None:
                context["exact_plan"] = True
                face = convention.ends()
            context["clock_face"] = clock_svg(clock, lang=lang, targets=face)
        except Exception:  # a face we cannot draw must not hide the plan
            context["clock_face"] = ""
        if "what_if_form" not in context:
            context["what_if_form"] = WhatIfForm(
                players=hint.players,
                targets=targets,
                names=hint.names or (),
                initial={"opener": shown.get("plan", {}).get("opener", 1), "plan": index},
            )
    return context


@login_required
@require_GET
@vary_on_headers("HX-Request")
def hint_detail(request: AuthenticatedHttpRequest, hint_id: int) -> HttpResponse:
    hint = get_hint_for_user(request.user, hint_id)
    if request.htmx and request.GET.get("partial") == "status":
        html = render_to_string(
            "solver/hint_detail.html#status", _context(request, hint), request=request
        )
        if hint.is_active:
            return HttpResponse(html)
        # The job has ended: swap in the result and tell htmx to stop polling.
        return HttpResponseStopPolling(html)
    return render(request, "solver/hint_detail.html", _context(request, hint))


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
    context = _context(request, hint, what_if_form=form, what_if=outcome)
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
        hint.rate_shown = _pct(read_result(hint.result)["pass_rate"]) if hint.result else ""  # type: ignore[attr-defined]
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
        "rate": _pct(read_result(hint.result)["pass_rate"]) if hint and hint.result else "",
    }
    if request.htmx:
        return render(request, "solver/table_plan.html#plan", context)
    return render(request, "solver/table_plan.html", context)
