"""The plan book: every complete hint result, kept per class of colour patterns that are the
same game, so that a table asking again — the same pattern, or one the same up to hand
order, seat rotation or (on a clock whose rules treat both colours alike) the Sun/Moon swap,
on any clock that is the same game — is answered at once, worded for its own table.

Entries are written by every complete hint job (``solver.jobs``) and by the prefill
(``manage.py prefill_plans``, the beat task ``solver.prefill_plan_book``: see
``solver.prefill``). The key holds the game the solver plays (``game``: start, cap and
rules as solved), the class of patterns, the face-up budget, the solver's settings and its
engine version (``solver.core.version.ENGINE_VERSION``), so a new transcription or a new
engine finds none of the old entries. The search version is kept on the entry instead: after
a change to the search alone an entry still answers at once, and it is :func:`stale` until
the prefill has searched its class again (most asked first: :func:`asked`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import F

from rules.clock import Clock
from rules.hint_result import HintResultJson
from rules.i18n import LANGUAGES
from rules.seats import Seats, parse_colours
from solver.core import version
from solver.core.search.symmetry import canonical, colour_symmetric, find_mapping, rotate_plan
from solver.core.table.plans import Plan
from solver.core.words import plan_speech
from solver.models import HintRequest, PlanBookEntry
from solver.results import in_language


@dataclass(frozen=True)
class BookKey:
    key: str
    pattern: str  # the class's name (symmetry.canonical)
    symmetric: bool  # the Sun/Moon swap is a symmetry of this clock


def solved_clock(clock: Clock, base_rules: bool) -> Clock:
    """The clock a job solves for this input (``HintRequest.clock``)."""
    return clock.base_rules_only() if base_rules and not clock.transcribed else clock


def game(solved: Clock) -> dict[str, Any]:
    """What the solver reads of a clock: its start, cap and rules — not its name. The 40
    shipped clocks whose special rules are unknown are played by the base rules, so they
    share three games (start 1; cap 24 or none; and clock 1-1's own rules)."""
    data = solved.to_json()
    return {"start": data["start"], "cap": data["cap"], "rules": data["rules"]}


def book_key(
    clock: Clock,
    base_rules: bool,
    seats: Seats,
    face_up: int,
    *,
    effort: float,
    seed: int,
    odds_samples: int | None,
    slip_rate: float,
    prior: dict[str, Any] | None = None,
) -> BookKey:
    solved = solved_clock(clock, base_rules)
    symmetric = colour_symmetric(solved)
    pattern = canonical(seats, symmetric)
    data = {
        "game": game(solved),
        "pattern": pattern,
        "face_up": face_up,
        "effort": effort,
        "seed": seed,
        "odds_samples": odds_samples,
        "slip_rate": slip_rate,
        "prior": prior,  # the clock's prior the search started from (solver.clock_priors)
        # The engine's version, under the name the single version had until version 26:
        # entries stored then hashed 26 here, and they keep their keys (solver.core.version).
        "solver": version.ENGINE_VERSION,
    }
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return BookKey(hashlib.sha256(blob.encode()).hexdigest(), pattern, symmetric)


def key_of(hint: HintRequest) -> BookKey:
    return book_key(
        Clock.from_json(hint.clock_definition),
        hint.base_rules,
        hint.seats(),
        hint.face_up,
        effort=hint.effort,
        seed=hint.seed,
        odds_samples=hint.odds_samples,
        slip_rate=hint.slip_rate,
        prior=hint.prior,
    )


def record(hint: HintRequest, result: HintResultJson, seconds: float) -> None:
    """A complete hint's result goes into the book, unless its class has an entry already."""
    if result.get("partial"):
        return
    key = key_of(hint)
    PlanBookEntry.objects.get_or_create(
        key=key.key,
        defaults={
            "engine_version": version.ENGINE_VERSION,
            "search_version": version.SEARCH_VERSION,
            "clock_id": hint.clock_id,
            "clock_definition": hint.clock_definition,
            "base_rules": hint.base_rules,
            "colours": hint.colours,
            "pattern": key.pattern,
            "players": hint.players,
            "face_up": hint.face_up,
            "effort": hint.effort,
            "seed": hint.seed,
            "odds_samples": hint.odds_samples,
            "slip_rate": hint.slip_rate,
            "result": result,
            "source": PlanBookEntry.Source.HINT,
            "hint": hint,
            "seconds": seconds,
        },
    )


def stale(entry: PlanBookEntry) -> bool:
    """Found by an older search: it still answers (its rates are the engine's), and the
    prefill searches its class again (``solver.prefill.refresh``)."""
    return entry.search_version < version.SEARCH_VERSION


def asked(entry: PlanBookEntry) -> None:
    """One more table took this entry: the prefill refreshes the most asked first."""
    PlanBookEntry.objects.filter(pk=entry.pk).update(asked=F("asked") + 1)


def answer(
    entry: PlanBookEntry,
    key: BookKey,
    clock: Clock,
    base_rules: bool,
    seats: Seats,
    face_up: int,
    names: tuple[str, ...] | list[str],
    lang: str,
) -> HintResultJson | None:
    """The entry's result for the asking table: its plans' seats renumbered onto this
    table's and their words written for it (its colours, its names), in ``lang``. None when
    the patterns turn out not to be the same game (never, for a matching key)."""
    mapping = find_mapping(parse_colours(entry.colours), seats, key.symmetric)
    if mapping is None:
        return None
    players = seats.players
    solved = solved_clock(clock, base_rules)

    def moved(plan: Any) -> Any:
        return rotate_plan(plan, mapping, players) if isinstance(plan, dict) else plan

    def words_all(plan: Any) -> dict[str, str]:
        try:
            parsed = Plan.from_json(plan, players)
        except (ValueError, TypeError):
            return {}
        return {
            code: plan_speech(parsed, solved, seats, face_up, code, list(names) or None).said()
            for code in LANGUAGES
        }

    result = dict(entry.result)
    result["plan"] = moved(result.get("plan"))
    worded = words_all(result["plan"])
    if worded:
        result["words_all"] = worded
    alternatives = []
    for other in result.get("alternatives", []):
        plan = moved(other.get("plan"))
        alternatives.append(
            {**other, "plan": plan, "words_all": words_all(plan) or other.get("words_all", {})}
        )
    result["alternatives"] = alternatives
    return in_language(result, lang)
