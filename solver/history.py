"""The hints of a group's exported history (the section ``hints``, format version 3).

Each finished hint of the group goes out with what it asked (the clock's definition as
solved, the colours, the table, the budget, the solver's settings and slip rate), when it
was asked and finished, how it ended, its stored result as is (the JSON object the pages
read, ``solver.results``) and its pass curve (what the table's own slip rate is learned
from, ``solver.pass_curves``). It points at its campaign and at the attempt it was asked
for by position in the history, never by database id. Hints still queued or running are
not history: they are left out.

An import checks every hint before anything is written (a refusal names the hint and the
field) and restores them, for the new group and its owner, in the transaction that shows
the group (``campaigns.history.sections``). An imported hint is never handed to another
table as a known result: its ``input_hash`` is no input's, so only its own group reads it.
``solver.apps`` registers the section.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.errors import CampaignError
from campaigns.history.sections import Positions, Restored
from campaigns.models import Event, Group
from config.errors import refusal_text
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.i18n import LANGUAGES
from rules.seats import parse_colours
from solver.core.table.agents import MOST_SLIP_RATE
from solver.errors import HintError
from solver.hint_inputs import parse_names
from solver.models import HintRequest, HintStatus, SlipRateSource

SECTION = "hints"
# How a hint ended that makes it history (queued and running ones are not exported).
ENDED = (HintStatus.DONE, HintStatus.FAILED, HintStatus.CANCELLED)
# An imported hint's input hash: no input hashes to it (those are 64 hex digits), so the
# reuse of a known result (``solver.services``) never answers another table with it.
IMPORTED = "imported"
# Bounds no real group comes near: a few hundred hints, a result of three plans in three
# languages of about 10,000 characters, a definition of 40 rules, a curve of 26 rates.
MAX_HINTS = 20_000
MAX_RESULT_CHARS = 100_000
MAX_DEFINITION_CHARS = 50_000
MAX_PRIOR_CHARS = 20_000
MAX_CURVE_POINTS = 200
ATTEMPTS = (Event.Kind.PASSED, Event.Kind.FAILED)


def export_hints(group: Group, positions: Positions) -> list[dict[str, Any]]:
    """The group's ended hints, oldest first, as the history keeps them."""
    rows = HintRequest.objects.filter(group=group, status__in=ENDED).order_by("queued_at", "id")
    hints = []
    for hint in rows:
        campaign = positions.campaigns.get(hint.campaign_id) if hint.campaign_id else None
        where = positions.attempts.get(hint.attempt_id) if hint.attempt_id else None
        attempt = where[1] if where is not None and where[0] == campaign else None
        hints.append(
            {
                "campaign": campaign,
                "attempt": attempt,
                "clock": hint.clock_id,
                "definition": hint.clock_definition,
                "base_rules": hint.base_rules,
                "definition_source": hint.definition_source,
                "definition_fingerprint": hint.definition_fingerprint,
                "colours": hint.colours,
                "players": hint.players,
                "names": hint.names,
                "face_up": hint.face_up,
                "effort": hint.effort,
                "odds_samples": hint.odds_samples,
                "seed": hint.seed,
                "slip_rate": hint.slip_rate,
                "slip_rate_source": hint.slip_rate_source,
                "prior": hint.prior,
                "lang": hint.lang,
                "status": hint.status,
                "failure": hint.failure,
                "partial": hint.partial,
                "from_plan_book": hint.from_plan_book,
                "result": hint.result,
                "pass_curve": hint.pass_curve,
                "asked": hint.queued_at.isoformat(),
                "started": None if hint.started_at is None else hint.started_at.isoformat(),
                "finished": None if hint.finished_at is None else hint.finished_at.isoformat(),
            }
        )
    return hints


def _chars(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False))


def _too_large(what: str, most: int) -> str:
    """That the hint's ``what`` (definition, prior or result) is over ``most`` characters."""
    if what == "definition":
        return _("The definition is larger than %(n)d characters.") % {"n": most}
    if what == "prior":
        return _("The prior is larger than %(n)d characters.") % {"n": most}
    return _("The result is larger than %(n)d characters.") % {"n": most}


def _is_number(value: Any, low: float = 0.0, high: float = 1.0) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high


def _result_fault(result: dict[str, Any]) -> str | None:
    """What is wrong with a stored result in the keys the pages and statistics read (its
    other keys travel as they are), or None."""
    if _chars(result) > MAX_RESULT_CHARS:
        return _too_large("result", MAX_RESULT_CHARS)
    alternatives = result.get("alternatives") or []
    if not isinstance(alternatives, list):
        return _("This is not a result a hint stores.")
    plans = [result, *alternatives]
    if not all(isinstance(plan, dict) for plan in plans):
        return _("This is not a result a hint stores.")
    for plan in plans:
        for key in ("pass_rate", "pass_rate_with_slips"):
            if plan.get(key) is not None and not _is_number(plan[key]):
                return _("This is not a result a hint stores.")
        words = plan.get("words_all", {})
        if not isinstance(plan.get("plan", {}), dict) or not isinstance(words, dict):
            return _("This is not a result a hint stores.")
        if not isinstance(plan.get("words", ""), str) or not all(
            isinstance(text, str) for text in words.values()
        ):
            return _("This is not a result a hint stores.")
    return None


def _curve_fault(curve: dict[str, Any]) -> str | None:
    """What is wrong with a pass curve ({} or {"rates": [...], "passes": [...]}), or None."""
    if not curve:
        return None
    rates, passes = curve.get("rates"), curve.get("passes")
    if (
        set(curve) == {"rates", "passes"}
        and isinstance(rates, list)
        and isinstance(passes, list)
        and 0 < len(rates) == len(passes) <= MAX_CURVE_POINTS
        and all(_is_number(x) for x in rates + passes)
        and all(a < b for a, b in zip(rates, rates[1:], strict=False))
    ):
        return None
    return _("A pass curve is rates and passes, as many of each, from 0 to 1.")


class _Fault(Exception):
    """A field of a hint that is not valid: its name and what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


Checker = Callable[[Any], Any]


def _whole(low: int, high: int) -> Checker:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(
                _("Expected a whole number from %(low)d to %(high)d.") % {"low": low, "high": high}
            )
        return value

    return check


def _number(low: float, high: float) -> Checker:
    def check(value: Any) -> float:
        if not _is_number(value, low, high):
            raise ValueError(
                _("Expected a number from %(low)s to %(high)s.") % {"low": low, "high": high}
            )
        return value

    return check


def _text(most: int) -> Checker:
    def check(value: Any) -> str:
        if not isinstance(value, str) or len(value) > most:
            raise ValueError(_("Expected text of at most %(n)d characters.") % {"n": most})
        return value

    return check


def _choice(*choices: str) -> Checker:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(_("Expected one of: %(choices)s.") % {"choices": ", ".join(choices)})
        return value

    return check


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(_("Expected true or false."))
    return value


def _object(most: int, what: str) -> Checker:
    def check(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValueError(_("Expected a JSON object."))
        if _chars(value) > most:
            raise ValueError(_too_large(what, most))
        return value

    return check


def _moment(value: Any) -> datetime:
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        raise ValueError(_("Expected a date and time (ISO 8601)."))
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _definition(value: Any) -> dict[str, Any]:
    checked: dict[str, Any] = _object(MAX_DEFINITION_CHARS, "definition")(value)
    try:
        Clock.from_json(checked)
    except RulesError as error:
        raise ValueError(refusal_text(error)) from None
    return checked


def _colours(value: Any) -> str:
    colours: str = _text(40)(value)
    try:
        parse_colours(colours)
    except RulesError as error:
        reason = _("These colours are not a table: %(reason)s") % {"reason": refusal_text(error)}
        raise ValueError(reason) from None
    return colours


def _names(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ValueError(_("Give the names as a list of text, one per seat in play order."))
    return value


def _result(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(_("Expected a JSON object."))
    fault = _result_fault(value)
    if fault:
        raise ValueError(fault)
    return value


def _curve(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(_("Expected a JSON object."))
    fault = _curve_fault(value)
    if fault:
        raise ValueError(fault)
    return value


def _or_none(check: Checker) -> Checker:
    return lambda value: None if value is None else check(value)


REQUIRED = object()
INT_MAX = 2**31 - 1  # a PositiveIntegerField's bound on every database
# Each field of an exported hint: its default (REQUIRED: none) and its check.
FIELDS: dict[str, tuple[Any, Checker]] = {
    "campaign": (None, _or_none(_whole(0, INT_MAX))),
    "attempt": (None, _or_none(_whole(0, INT_MAX))),
    "clock": (REQUIRED, _text(16)),
    "definition": (REQUIRED, _definition),
    "base_rules": (False, _flag),
    "definition_source": ("", _text(10)),
    "definition_fingerprint": ("", _text(16)),
    "colours": (REQUIRED, _colours),
    "players": (REQUIRED, _whole(PLAYER_COUNTS[0], PLAYER_COUNTS[-1])),
    "names": ([], _names),
    "face_up": (REQUIRED, _whole(0, PLAYER_COUNTS[-1] + BONUS_TOKENS)),
    "effort": (1.0, _number(0, 1_000)),
    "odds_samples": (None, _or_none(_whole(1, INT_MAX))),
    "seed": (0, _whole(0, INT_MAX)),
    "slip_rate": (0.05, _number(0, MOST_SLIP_RATE)),
    "slip_rate_source": (SlipRateSource.DEFAULT.value, _choice(*SlipRateSource.values)),
    "prior": (None, _or_none(_object(MAX_PRIOR_CHARS, "prior"))),
    "lang": ("en", _choice(*LANGUAGES)),
    "status": (REQUIRED, _choice(*(status.value for status in ENDED))),
    "failure": ("", _choice("", *HintRequest.Failure.values)),
    "partial": (False, _flag),
    "from_plan_book": (False, _flag),
    "result": (None, _or_none(_result)),
    "pass_curve": (None, _or_none(_curve)),
    "asked": (REQUIRED, _moment),
    "started": (None, _or_none(_moment)),
    "finished": (None, _or_none(_moment)),
}


def _check_fields(raw: Any) -> dict[str, Any]:
    """One exported hint (``export_hints``), field by field; what may be left out has its
    default, and keys it does not know are ignored. _Fault for the first bad field."""
    if not isinstance(raw, dict):
        raise _Fault("", _("Expected a JSON object."))
    hint = {}
    for name, (default, check) in FIELDS.items():
        if name not in raw:
            if default is REQUIRED:
                raise _Fault(name, _("This field is required."))
            hint[name] = list(default) if isinstance(default, list) else default
            continue
        try:
            hint[name] = check(raw[name])
        except ValueError as error:
            raise _Fault(name, str(error)) from None
    _check_together(hint)
    return hint


def _check_together(hint: dict[str, Any]) -> None:
    """What one hint's fields must say together (the model's constraints among them)."""
    if parse_colours(hint["colours"]).players != hint["players"]:
        raise _Fault("colours", _("These colours are for another table size."))
    if hint["names"]:  # the words name every seat, or none (``parse_names``)
        try:
            parse_names(hint["names"], hint["players"])
        except HintError as error:
            raise _Fault("names", error.message) from None
    if hint["face_up"] > hint["players"] + BONUS_TOKENS:
        raise _Fault("face_up", _("At most the players plus 3 cards can be face up."))
    if hint["status"] == HintStatus.DONE and hint["result"] is None:
        raise _Fault("result", _("A finished hint has its result."))
    if hint["attempt"] is not None and hint["campaign"] is None:
        raise _Fault("attempt", _("An attempt is named within its campaign."))


def _check_position(hint: dict[str, Any], campaigns: list[dict[str, Any]]) -> None:
    """The hint's campaign and attempt are there in the history."""
    if hint["campaign"] is not None and hint["campaign"] >= len(campaigns):
        raise _Fault(
            "campaign",
            _("There is no campaign %(n)d in this history.") % {"n": hint["campaign"]},
        )
    if hint["attempt"] is None:
        return
    events = campaigns[hint["campaign"]]["history"]
    position = hint["attempt"]
    if position >= len(events) or events[position]["event"] not in ATTEMPTS:
        raise _Fault(
            "attempt",
            _("Event %(n)d of the hint's campaign is not an attempt.") % {"n": position},
        )


def check_hints(raw: Any, history: dict[str, Any]) -> list[dict[str, Any]]:
    """The section as uploaded, checked field by field and against the history's campaigns
    and attempts; CampaignError (field ``history``) naming the first fault, as
    ``hints[3].attempt: …``."""
    if not isinstance(raw, list):
        raise CampaignError(f"{SECTION}: {_('Expected a list.')}", "history")
    if len(raw) > MAX_HINTS:
        reason = _("At most %(n)d hints.") % {"n": MAX_HINTS}
        raise CampaignError(f"{SECTION}: {reason}", "history")
    hints = []
    for index, item in enumerate(raw):
        try:
            hint = _check_fields(item)
            _check_position(hint, history["campaigns"])
        except _Fault as fault:
            where = f"{SECTION}[{index}]" + (f".{fault.field}" if fault.field else "")
            raise CampaignError(f"{where}: {fault.message}", "history") from None
        hints.append(hint)
    return hints


def write_hints(group: Group, user: User, hints: list[dict[str, Any]], restored: Restored) -> None:
    """The checked hints, for the new group and its owner, linked to the new attempts."""
    rows = []
    for hint in hints:
        campaign = hint["campaign"]
        attempt = hint["attempt"]
        rows.append(
            HintRequest(
                user=user,
                group=group,
                campaign=None if campaign is None else restored.campaigns[campaign],
                attempt=None if attempt is None else restored.attempts[campaign, attempt],
                clock_id=hint["clock"],
                clock_definition=hint["definition"],
                base_rules=hint["base_rules"],
                definition_source=hint["definition_source"],
                definition_fingerprint=hint["definition_fingerprint"],
                colours=hint["colours"],
                players=hint["players"],
                names=hint["names"],
                face_up=hint["face_up"],
                effort=hint["effort"],
                odds_samples=hint["odds_samples"],
                seed=hint["seed"],
                slip_rate=hint["slip_rate"],
                slip_rate_source=hint["slip_rate_source"],
                prior=hint["prior"],
                lang=hint["lang"],
                input_hash=IMPORTED,
                status=hint["status"],
                progress=100 if hint["status"] == HintStatus.DONE else 0,
                failure=hint["failure"],
                partial=hint["partial"],
                from_plan_book=hint["from_plan_book"],
                result=hint["result"],
                pass_curve=hint["pass_curve"],
                queued_at=hint["asked"],
                started_at=hint["started"],
                finished_at=hint["finished"],
            )
        )
    HintRequest.objects.bulk_create(rows, batch_size=500)
