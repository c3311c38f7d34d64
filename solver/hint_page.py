"""The hint page's context: what /hints/<id>/ shows of a hint (the figures, the plans offered,
the clock face, the What if form), worded for the reader's language.

The views in ``solver.views`` check access, read the input, and render what ``hint_context``
returns; ``percent`` is how every hint page writes a rate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from campaigns.access import may_write
from campaigns.statistics.table_rate import one_in
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from ops.heartbeat import solver_starting
from rules.hint_result import AlternativeJson
from rules.hint_result import read as read_result
from rules.svg import clock_svg
from solver.core.table import exact
from solver.core.table.plans import Plan
from solver.core.words import spoken_number
from solver.forms import WhatIfForm
from solver.models import HintRequest
from solver.results import claims, kind_label, moves_per_slip, offered, pick


def percent(x: float | None, digits: int = 0) -> str:
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


def at_most(rate: str) -> str:
    """A rate computed without a rule the table plays (a rule in its own words): the true
    rate can only be lower, and every figure says so, on the hint as in What if."""
    return _("at most %(rate)s") % {"rate": rate}


def hint_context(
    request: AuthenticatedHttpRequest, hint: HintRequest, **extra: Any
) -> dict[str, Any]:
    """What /hints/<id>/ shows of ``hint`` to ``request.user``: its status and speech, and
    once done its figures, the plans offered, the clock face and the What if form
    (``extra`` may bring a What if's form and outcome)."""
    lang = current_lang()
    context: dict[str, Any] = {
        "hint": hint,
        "speech": hint.speech(lang),
        "is_owner": hint.user_id == request.user.pk,
        # Viewers of the hint's group read it, but neither retry it nor ask for the group.
        "may_ask_for_group": hint.group_id is None or may_write(request.user, hint.group_id),
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
    bound = at_most if ignored else str
    outcome = extra.get("what_if")
    if outcome is not None:
        context["what_if_numbers"] = _what_if_numbers(hint, outcome, shown, bound)
    if hint.status == HintRequest.Status.DONE and hint.result:
        result = read_result(hint.result)
        slip_rate = result["slip_rate"]
        context["numbers"] = _numbers(hint, shown, bound, slip_rate)
        context["ignored_rules"] = ignored
        context["shown_index"] = index
        context["plans"] = _plans(result, bound, slip_rate)
        if index:
            context["speech"] = hint.speech(lang, shown.get("plan"))
        plan = hint.read_plan(shown.get("plan"))
        context["has_plan"] = plan is not None
        targets = [spoken_number(t) for t in shown.get("plan", {}).get("targets", [])]
        context.update(_face(hint, plan, targets, lang))
        if "what_if_form" not in context:
            context["what_if_form"] = WhatIfForm(
                players=hint.players,
                targets=targets,
                names=hint.names or (),
                initial={"opener": shown.get("plan", {}).get("opener", 1), "plan": index},
            )
    return context


Bound = Callable[[str], str]


def _what_if_numbers(
    hint: HintRequest, outcome: Any, shown: AlternativeJson, bound: Bound
) -> dict[str, Any]:
    return {
        "mine": bound(percent(outcome.mine.pass_rate)),
        "theirs": bound(percent(outcome.suggested.pass_rate)),
        "pass_rate": percent(outcome.mine.pass_rate),
        "low": percent(outcome.mine.interval[0], 1),
        "high": percent(outcome.mine.interval[1], 1),
        "games": outcome.mine.games,
        "suggested": percent(outcome.suggested.pass_rate),
        # The headline figure of the plan varied, when What if measured it otherwise.
        "headline": ""
        if percent(outcome.suggested.pass_rate) == percent(shown.get("pass_rate"))
        else percent(shown.get("pass_rate")),
        "headline_games": read_result(hint.result)["games"],
    }


def _numbers(
    hint: HintRequest, shown: AlternativeJson, bound: Bound, slip_rate: float
) -> dict[str, Any]:
    result = read_result(hint.result)
    interval = shown["interval"]
    with_slips = shown["pass_rate_with_slips"]
    return {
        "pass_rate": percent(shown.get("pass_rate")),
        "low": percent(interval[0], 1),
        "high": percent(interval[1], 1),
        "baseline": bound(percent(result["baseline_rate"])),
        "clean": bound(percent(shown.get("pass_rate"))),
        "odds": percent(result["odds"]),
        "with_slips": bound(percent(with_slips)) if with_slips is not None and slip_rate else "",
        "every": moves_per_slip(slip_rate),
        # The table's own rate (hint_inputs.table_slip_rate): say so, as 1 card in N.
        "table_every": one_in(hint.slip_rate)
        if hint.slip_rate_source == HintRequest.SlipRateSource.TABLE
        else 0,
    }


def _plans(result: Mapping[str, Any], bound: Bound, slip_rate: float) -> list[dict[str, Any]]:
    """The plans offered, as the tabs show them."""
    plans = offered(result)
    said = claims(plans, slips=bool(slip_rate))
    return [
        {
            "index": i,
            "labels": [kind_label(kind) for kind in other.get("kinds", [])],
            "helps": said[i],
            "pass_rate": bound(percent(other.get("pass_rate"))),
            "with_slips": bound(percent(other.get("pass_rate_with_slips")))
            if slip_rate and other.get("pass_rate_with_slips") is not None
            else "",
            "sentences": other.get("sentences"),
        }
        for i, other in enumerate(plans)
    ]


def _face(
    hint: HintRequest, plan: Plan | None, targets: Sequence[float], lang: str
) -> dict[str, Any]:
    """The clock face with what each segment should end at."""
    context: dict[str, Any] = {}
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
    return context
