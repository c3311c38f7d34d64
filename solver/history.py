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
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from rest_framework import serializers

from campaigns.errors import CampaignError, error_text
from campaigns.history.imports import first_error
from campaigns.history.sections import Positions, Restored
from campaigns.models import NAME_LENGTH, Event, Group
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.i18n import LANGUAGES
from rules.seats import parse_colours
from solver.core.table.agents import MOST_SLIP_RATE
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


def _is_number(value: Any, low: float = 0.0, high: float = 1.0) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high


def _result_fault(result: dict[str, Any]) -> str | None:
    """What is wrong with a stored result in the keys the pages and statistics read (its
    other keys travel as they are), or None."""
    if _chars(result) > MAX_RESULT_CHARS:
        return _("The result is larger than %(n)d characters.") % {"n": MAX_RESULT_CHARS}
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


class HintIn(serializers.Serializer):
    """One exported hint (``export_hints``); what may be left out has its default."""

    campaign = serializers.IntegerField(min_value=0, allow_null=True, default=None)
    attempt = serializers.IntegerField(min_value=0, allow_null=True, default=None)
    clock = serializers.CharField(max_length=16)
    definition = serializers.DictField()
    base_rules = serializers.BooleanField(default=False)
    definition_source = serializers.CharField(max_length=10, allow_blank=True, default="")
    definition_fingerprint = serializers.CharField(max_length=16, allow_blank=True, default="")
    colours = serializers.CharField(max_length=40)
    players = serializers.IntegerField(min_value=PLAYER_COUNTS[0], max_value=PLAYER_COUNTS[-1])
    names = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH),
        max_length=PLAYER_COUNTS[-1],
        default=list,
    )
    face_up = serializers.IntegerField(min_value=0, max_value=PLAYER_COUNTS[-1] + BONUS_TOKENS)
    effort = serializers.FloatField(min_value=0, max_value=1_000, default=1.0)
    odds_samples = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, allow_null=True, default=None
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)
    slip_rate = serializers.FloatField(min_value=0, max_value=MOST_SLIP_RATE, default=0.05)
    slip_rate_source = serializers.ChoiceField(
        choices=SlipRateSource.choices, default=SlipRateSource.DEFAULT
    )
    prior = serializers.DictField(allow_null=True, default=None)
    lang = serializers.ChoiceField(choices=LANGUAGES, default="en")
    status = serializers.ChoiceField(choices=[status.value for status in ENDED])
    failure = serializers.ChoiceField(
        choices=HintRequest.Failure.choices, allow_blank=True, default=""
    )
    # The serializer's metaclass takes the fields out of the class, so this is the key
    # "partial" of the input, not BaseSerializer's flag of the same name.
    partial = serializers.BooleanField(default=False)  # type: ignore[assignment]
    from_plan_book = serializers.BooleanField(default=False)
    result = serializers.DictField(allow_null=True, default=None)
    pass_curve = serializers.DictField(allow_null=True, default=None)
    asked = serializers.DateTimeField()
    started = serializers.DateTimeField(allow_null=True, default=None)
    finished = serializers.DateTimeField(allow_null=True, default=None)

    def validate_definition(self, value: dict[str, Any]) -> dict[str, Any]:
        if _chars(value) > MAX_DEFINITION_CHARS:
            raise serializers.ValidationError(
                _("The definition is larger than %(n)d characters.") % {"n": MAX_DEFINITION_CHARS}
            )
        try:
            Clock.from_json(value)
        except RulesError as error:
            raise serializers.ValidationError(error_text(error)) from None
        return value

    def validate_colours(self, value: str) -> str:
        try:
            parse_colours(value)
        except RulesError as error:
            raise serializers.ValidationError(
                _("These colours are not a table: %(reason)s") % {"reason": error_text(error)}
            ) from None
        return value

    def validate_prior(self, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None and _chars(value) > MAX_PRIOR_CHARS:
            raise serializers.ValidationError(
                _("The prior is larger than %(n)d characters.") % {"n": MAX_PRIOR_CHARS}
            )
        return value

    def validate_result(self, value: dict[str, Any] | None) -> dict[str, Any] | None:
        fault = None if value is None else _result_fault(value)
        if fault:
            raise serializers.ValidationError(fault)
        return value

    def validate_pass_curve(self, value: dict[str, Any] | None) -> dict[str, Any] | None:
        fault = None if value is None else _curve_fault(value)
        if fault:
            raise serializers.ValidationError(fault)
        return value

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if parse_colours(data["colours"]).players != data["players"]:
            raise serializers.ValidationError(
                {"colours": [_("These colours are for another table size.")]}
            )
        if data["face_up"] > data["players"] + BONUS_TOKENS:
            raise serializers.ValidationError(
                {"face_up": [_("At most the players plus 3 cards can be face up.")]}
            )
        if data["status"] == HintStatus.DONE and data["result"] is None:
            raise serializers.ValidationError({"result": [_("A finished hint has its result.")]})
        if data["attempt"] is not None and data["campaign"] is None:
            raise serializers.ValidationError(
                {"attempt": [_("An attempt is named within its campaign.")]}
            )
        return data


class _HintsIn(serializers.Serializer):
    hints = serializers.ListField(child=HintIn(), max_length=MAX_HINTS)


def check_hints(raw: Any, history: dict[str, Any]) -> list[dict[str, Any]]:
    """The section as uploaded, checked field by field and against the history's campaigns
    and attempts; CampaignError (field ``history``) naming the first fault."""
    shape = _HintsIn(data={SECTION: raw})
    if not shape.is_valid():
        raise CampaignError(first_error(shape.errors), "history")
    hints: list[dict[str, Any]] = shape.validated_data[SECTION]
    campaigns = history["campaigns"]
    for index, hint in enumerate(hints):
        where = f"{SECTION}[{index}]"
        if hint["campaign"] is not None and hint["campaign"] >= len(campaigns):
            reason = _("There is no campaign %(n)d in this history.") % {"n": hint["campaign"]}
            raise CampaignError(f"{where}.campaign: {reason}", "history")
        if hint["attempt"] is None:
            continue
        events = campaigns[hint["campaign"]]["history"]
        position = hint["attempt"]
        if position >= len(events) or events[position]["event"] not in (
            Event.Kind.PASSED,
            Event.Kind.FAILED,
        ):
            reason = _("Event %(n)d of the hint's campaign is not an attempt.") % {"n": position}
            raise CampaignError(f"{where}.attempt: {reason}", "history")
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
