"""Was it winnable? — for the attempts a group recorded.

The question is the solver's (``solver.core.oracle.postmortem``: could the 12 cards of a layout
have passed the clock, and one arrangement that would have), and campaigns may not import
the solver (docs/architecture.md). So the solver registers its judge here when Django loads
(``solver.apps``), and ``services.record_attempt`` asks it for every failed attempt recorded
with a layout, outside the lock. The answer is stored with the attempt (``Attempt.postmortem``,
the public object of ``manage.py postmortem --json``): the pages draw it and the statistics
count "failed, but the cards were winnable" from it without running the solver again.

Without a registered judge (a process that did not load the solver app) nothing is stored,
and the pages and statistics simply have nothing to show for that attempt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from campaigns.definitions.played import recorded_definitions
from campaigns.models import Attempt, Group
from config.i18n import current_lang
from rules.clock import Clock
from rules.errors import RulesError
from rules.layout import SEGMENTS, parse_layout
from rules.svg import clock_svg

# (the clock judged by, the layout as typed, the table size) -> the public answer
Judge = Callable[[Clock, str, int], dict[str, Any]]

_judges: list[Judge] = []


def register(judge: Judge) -> None:
    """Make ``judge`` the one that answers (the solver calls this once, on start)."""
    _judges[:] = [judge]


def judge_failure(clock: Clock, layout: str, players: int) -> dict[str, Any] | None:
    """The answer for a failed attempt's ``layout`` (already checked: 12 cards), or None when
    no judge is registered or it cannot judge this clock."""
    if not layout or not _judges:
        return None
    try:
        return _judges[0](clock, layout, players)
    except RulesError:
        return None


def definition_judged_by(group: Group, clock_id: str, version: int) -> Clock:
    """The definition an attempt was judged by (``played.recorded_definitions``)."""
    return recorded_definitions(group, [(clock_id, version)])[(clock_id, version)]


def judge_recorded() -> tuple[int, int]:
    """Judge every failed attempt recorded with a layout but without an answer (recorded
    before the question was asked, or by a process that had not loaded the solver).
    Returns (judged, left without an answer)."""
    pending = (
        Attempt.objects.filter(outcome=Attempt.Outcome.FAILED, postmortem__isnull=True)
        .exclude(layout="")
        .select_related("campaign__group")
        .order_by("id")
    )
    judged = left = 0
    for attempt in pending.iterator():
        clock = definition_judged_by(
            attempt.campaign.group, attempt.clock_id, attempt.clock_version
        )
        answer = judge_failure(clock, attempt.layout, attempt.players)
        if answer is None:
            left += 1
            continue
        # Conditional: an answer written meanwhile (by a recording) is kept as it is.
        Attempt.objects.filter(pk=attempt.pk, postmortem__isnull=True).update(postmortem=answer)
        judged += 1
    return judged, left


def winnable_but_unknown_rules() -> Q:
    """Failed attempts that look winnable by the rules known of an untranscribed clock: shown
    on the pages ("Yes", with a note) but not counted, since its special rules may forbid it."""
    return Q(
        outcome=Attempt.Outcome.FAILED,
        postmortem__winnable=True,
        postmortem__special_rules_known=False,
    )


def winnable_failures() -> Q:
    """The failed attempts whose cards could have passed, by every rule of the clock known:
    what the statistics count as "failed, but the cards were winnable"."""
    return Q(
        outcome=Attempt.Outcome.FAILED,
        postmortem__winnable=True,
        postmortem__special_rules_known=True,
    )


@dataclass(frozen=True)
class Shown:
    """What a page shows under a failed attempt: the answer, and the two clock faces."""

    winnable: bool
    placement_checked: bool
    special_rules_known: bool
    # The clock has placement rules the layout could not show (segment form): say so.
    placement_unjudged: bool
    witness: str | None
    # The words of the clock's rules Timekeeper cannot judge: winnable as far as it knows.
    unchecked: tuple[str, ...]
    played_face: str  # SVG, escaped by rules.svg (templates print it with |safe)
    witness_face: str | None
    # (segment, its cards as played, its cards laid out to pass): the faces' card labels
    # are too small to read on a phone, so the page lists them as text too.
    segments: tuple[tuple[int, str, str], ...] = ()


def attach(group: Group, attempts: Iterable[Attempt | None]) -> None:
    """Give each failed attempt with a stored answer a ``shown`` attribute (``Shown``), its
    faces drawn with the definition the attempt was judged by. At most two queries, only
    when there is something to show (the group's versions and the promoted definitions of
    those clocks)."""
    judged = [
        a
        for a in attempts
        if a is not None and a.outcome == Attempt.Outcome.FAILED and a.postmortem
    ]
    if not judged:
        return
    clocks = recorded_definitions(group, [(a.clock_id, a.clock_version) for a in judged])
    lang = current_lang()
    for attempt in judged:
        clock = clocks[(attempt.clock_id, attempt.clock_version)]
        answer = attempt.postmortem or {}
        try:
            played = parse_layout(attempt.layout)
            witness = answer.get("witness")
            witness_layout = parse_layout(witness) if witness else None
        except RulesError:  # pragma: no cover - both were written by the engine
            continue
        attempt.shown = Shown(  # type: ignore[attr-defined]
            winnable=bool(answer.get("winnable")),
            placement_checked=bool(answer.get("placement_checked")),
            special_rules_known=bool(answer.get("special_rules_known", True)),
            placement_unjudged=not answer.get("placement_checked")
            and any(rule.restricts_placement for rule in clock.rules),
            witness=witness,
            unchecked=tuple(str(text) for text in answer.get("unchecked", [])),
            played_face=clock_svg(clock, played, lang=lang),
            witness_face=None
            if witness_layout is None
            else clock_svg(clock, witness_layout, lang=lang),
            segments=tuple(
                (
                    number,
                    _cards(played.segments[number - 1]),
                    "" if witness_layout is None else _cards(witness_layout.segments[number - 1]),
                )
                for number in SEGMENTS
            ),
        )


def _cards(cards: Iterable[Any]) -> str:
    return " ".join(str(card) for card in cards) or "—"
