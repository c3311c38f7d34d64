"""The compiled engine plays exactly like the pure-Python reference engine.

Both engines play the same deals; every move (seat, card, segment, face up) and every
outcome must agree. The reference resolves with rules.validate and asks the referee for
every move, so agreement also checks the compiled engine's own resolution.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver.core.table.agents_fast import _exact_first_legal
from solver.core.table.exact import choose, convention_for
from solver.core.table.plans import Plan, baseline_plan, h_plan
from solver.core.table.simulate import (
    deal_of,
    draw_values,
    play_compiled,
    play_reference,
    slots_for,
)
from solver.core.table.table_rules import rules_for
from solver.core.table.view import PublicMove, View
from tests.solver.core.table.exact_priorities import by_the_priorities

BASE = Clock("2-1", 2, 1)
SPECIAL = Clock.from_json(
    {
        "id": "3-2",
        "start": 3,
        "cap": 24,
        "rules": [
            {"kind": "colours", "segment": 4, "sun": 1, "moon": 1},
            {"kind": "card_count", "segment": 2, "count": 3},
            {"kind": "value_range", "segment": 5, "min": 10, "max": 16},
            {"kind": "first_cards", "segments": [6, 3]},
            {"kind": "max_cards", "segment": 1, "count": 2},
        ],
    }
)
# A late segment that takes one card only: plans may put it alone (plans.Plan.lone).
LONE = Clock.from_json({"id": "5-1", "rules": [{"kind": "max_cards", "segment": 5, "count": 1}]})
LONE_SUN = Clock.from_json(
    {"id": "5-1", "start": 2, "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}]}
)
# Kinds the compiled engine plays since solver version 5: forbidden values, one colour (either,
# or a given one), with a moved start so positions and printed segments differ.
BARRED = Clock.from_json(
    {
        "id": "6-2",
        "start": 4,
        "rules": [
            {"kind": "forbidden_values", "segment": 4, "values": [1, 2, 3]},
            {"kind": "forbidden_values", "segment": 2, "values": [12]},
            {"kind": "single_colour", "segment": 6},
            {"kind": "single_colour", "segment": 1, "colour": "M"},
        ],
    }
)
# Whole-clock rules the compiled engine resolves: no ties, and equal neighbours (one pair
# read one after the other, one across the end of the reading order).
RISING = Clock.from_json({"id": "7-1", "start": 3, "rules": [{"kind": "strictly_rising"}]})
EQUAL = Clock.from_json(
    {
        "id": "7-2",
        "rules": [
            {"kind": "equal_neighbours", "segments": [2, 3]},
            {"kind": "equal_neighbours", "segments": [6, 1]},
        ],
    }
)
ONE_ONE = Clock.from_json(
    {
        "id": "1-1",
        "cap": None,
        "rules": [
            {"kind": "colours", "segment": 1, "sun": 1, "moon": 0},
            {"kind": "card_count", "segment": 6, "count": 3},
        ],
    }
)


def _assert_same_games(clock: Clock, colours: str, plan: Plan, face_up: int, games: int) -> None:
    seats = parse_colours(colours)
    values = draw_values(seats, games, seed=11)
    batch = play_compiled(rules_for(clock, seats, plan), seats, values, face_up)
    order = rules_for(clock, seats, plan).order
    to_deal_index = _slot_to_deal_index(seats)
    for g in range(games):
        deal = deal_of(seats, values[g])
        record = play_reference(clock, seats, plan, face_up, deal)
        compiled_moves = [
            (int(seat), str(deal.cards[to_deal_index[slot]]), order[position], bool(face))
            for seat, slot, position, face in batch.moves[g]
        ]
        reference_moves = [
            (s, str(m.card), m.segment, m.face_up)
            for s, m in zip(record.seats, record.moves, strict=True)
        ]
        assert compiled_moves == reference_moves, f"game {g}"
        assert bool(batch.passed[g]) == record.passed, f"game {g}"


def _slot_to_deal_index(seats: Seats) -> list[int]:
    """draw_values lists every seat's hand, then every seat's set of 2; Deal.cards goes seat
    by seat (hand, then set of 2). Map the first order onto the second."""
    slots = slots_for(seats)
    keys = [(int(slots.seat[i]), int(slots.extra[i]), i) for i in range(12)]
    in_deal_order = sorted(keys)
    return [in_deal_order.index(key) for key in keys]


@pytest.mark.parametrize("colours", ["SSMM/SMSM/MMSS", "SSMM+SM/SMMM+SS", "SSM/MMS/SMS/MSM"])
def test_engines_agree_game_for_game_on_a_base_clock(colours: str) -> None:
    seats = parse_colours(colours)
    _assert_same_games(BASE, colours, h_plan(BASE, seats), seats.players, games=150)


def test_engines_agree_on_special_rules_and_a_moved_start() -> None:
    seats = parse_colours("SSMS/MMSM/SMMS")
    plan = baseline_plan(SPECIAL, seats, 3).with_(
        owners={4: (2,)}, bands={5: (3, 9)}, face_up_threshold=2.0
    )
    _assert_same_games(SPECIAL, "SSMS/MMSM/SMMS", plan, face_up=4, games=150)


def test_engines_agree_on_chapter_one_clock_one() -> None:
    seats = parse_colours("SMMM+SS/MMSM+MS")
    _assert_same_games(ONE_ONE, "SMMM+SS/MMSM+MS", h_plan(ONE_ONE, seats), 0, games=100)


@pytest.mark.parametrize(
    ("clock", "colours", "lone"),
    [(LONE, "SSMM/SMMM/SSMM", {5: 10}), (LONE_SUN, "SSM/MMS/SMS/MSM", {6: 11})],
)
def test_engines_agree_on_a_lone_segment(clock: Clock, colours: str, lone: dict[int, int]) -> None:
    seats = parse_colours(colours)
    plan = h_plan(clock, seats).with_(lone=lone, owners={})
    _assert_same_games(clock, colours, plan, seats.players, games=150)
    # With the face-up budget spent early, the lone card is read like any face-down card.
    _assert_same_games(clock, colours, plan.with_(face_up_threshold=0.0), 1, games=100)


@pytest.mark.parametrize("colours", ["SSMM/SMSM/MMSS", "SSMM+SM/SMMM+SS", "SSM/MMS/SMS/MSM"])
def test_engines_agree_on_forbidden_values_and_single_colours(colours: str) -> None:
    seats = parse_colours(colours)
    assert rules_for(BARRED, seats, h_plan(BARRED, seats)).compiled_ok
    _assert_same_games(BARRED, colours, h_plan(BARRED, seats), seats.players, games=150)
    _assert_same_games(BARRED, colours, baseline_plan(BARRED, seats, 0), 0, games=100)


@pytest.mark.parametrize("clock", [RISING, EQUAL])
def test_engines_agree_on_strictly_rising_and_equal_neighbours(clock: Clock) -> None:
    for colours in ("SSMM/SMSM/MMSS", "SSM/MMS/SMS/MSM"):
        seats = parse_colours(colours)
        assert rules_for(clock, seats, h_plan(clock, seats)).compiled_ok
        _assert_same_games(clock, colours, h_plan(clock, seats), seats.players, games=150)


def test_cards_on_equal_neighbours_go_face_up_while_the_budget_lasts() -> None:
    seats = parse_colours("SSMM/SMSM/MMSS")
    equal = Clock.from_json(
        {"id": "7-2", "rules": [{"kind": "equal_neighbours", "segments": [2, 3]}]}
    )
    plan = h_plan(equal, seats).with_(face_up_threshold=12.0)  # no other card goes face up
    values = draw_values(seats, 40, seed=5)
    on_pair = face_up_on_pair = 0
    for row in values:
        record = play_reference(equal, seats, plan, 2, deal_of(seats, row))
        budget = 2
        for move in record.moves:
            if move.segment in (2, 3) and budget > 0:
                on_pair += 1
                face_up_on_pair += move.face_up
            budget -= move.face_up
            assert not move.face_up or move.segment in (2, 3)
    assert on_pair > 40 and face_up_on_pair == on_pair


# The exactly-twelve convention (Plan.exact) where the segment read last holds one card:
# of a given colour, of either after a moved start, and with first cards sent elsewhere.
EXACT_SUN = Clock.from_json(
    {"id": "5-1", "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}]}
)
EXACT_ANY = Clock.from_json(
    {"id": "5-2", "start": 3, "rules": [{"kind": "card_count", "segment": 2, "count": 1}]}
)
EXACT_FIRST = Clock.from_json(
    {
        "id": "5-3",
        "rules": [
            {"kind": "colours", "segment": 6, "sun": 0, "moon": 1},
            {"kind": "first_cards", "segments": [3, 1]},
        ],
    }
)


@pytest.mark.parametrize(
    ("clock", "colours"),
    [
        (EXACT_SUN, "SSM/MMS/SMS/MSM"),
        (EXACT_SUN, "SSMM/SMSM/MMSS"),
        (EXACT_ANY, "SSMM+SM/SMMM+SS"),
        (EXACT_ANY, "SSM/MMS/SMS/MSM"),
        (EXACT_FIRST, "SSMM/SMMM/SSMM"),
        (EXACT_FIRST, "SMMM+SS/MMSM+MS"),
    ],
)
def test_engines_agree_on_the_exactly_twelve_convention(clock: Clock, colours: str) -> None:
    seats = parse_colours(colours)
    plan = replace(h_plan(clock, seats), exact=True)
    rules = rules_for(clock, seats, plan)
    assert rules.compiled_ok and rules.exact_colour >= 0
    for face_up in (seats.players, 1, 0):
        _assert_same_games(clock, colours, plan, face_up, games=150)


def _in_hand(colours: str, placed: list[tuple[int, int, int, bool]], seat: int) -> list[int]:
    """The slots ``seat`` may play after ``placed``: its own, not placed yet, and its set of
    2 only once four cards are down (2 players)."""
    slots = slots_for(parse_colours(colours))
    done = {slot for _, slot, _, _ in placed}
    extras_in = len(placed) >= 4
    return [
        s
        for s in range(12)
        if slots.seat[s] == seat and s not in done and (not slots.extra[s] or extras_in)
    ]


def _decide_both(
    clock: Clock,
    colours: str,
    row: np.ndarray,
    placed: list[tuple[int, int, int, bool]],
    me: int,
    budget: int,
) -> tuple[tuple[str, int, bool], tuple[str, int, bool]]:
    """The next move by the compiled engine's ``agents_fast._exact_first_legal`` and by the
    tests' own statement of the priorities (``exact_priorities``), as (card, segment, face
    up), after ``placed`` (seat, slot, position, face up) of the deal ``row`` (values by
    slot); seat ``me`` decides with ``budget`` face-up cards left. The reference player's
    ``exact.choose`` must agree with the compiled one."""
    seats = parse_colours(colours)
    plan = replace(h_plan(clock, seats), exact=True)
    rules = rules_for(clock, seats, plan)
    slots = slots_for(seats)

    def card(slot: int) -> Card:
        return Card(Colour.SUN if slots.colour[slot] == 0 else Colour.MOON, int(row[slot]))

    free = _in_hand(colours, placed, me)
    board = tuple(
        PublicMove(seat, rules.order[p], card(slot).colour, up, card(slot).value if up else None)
        for seat, slot, p, up in placed
    )
    own = tuple(card(slot) if seat == me else None for seat, slot, _, _ in placed)
    view = View(me, clock, seats, plan, tuple(card(s) for s in free), board, own, budget)
    convention = convention_for(clock)
    assert convention is not None
    expected = by_the_priorities(view, convention)

    def column(i: int) -> np.ndarray:
        return np.array([int(move[i]) for move in placed], dtype=np.int64)

    slot, position, face = _exact_first_legal(
        me, np.array(free, dtype=np.int64), row.astype(np.int64), slots.colour,
        rules.exact_colour, column(2), column(0), column(3),
        np.array([row[slot] for _, slot, _, _ in placed], dtype=np.int64), budget, -1,
    )  # fmt: skip
    compiled = (str(card(slot)), rules.order[position], bool(face))
    reference = choose(view, convention)
    assert compiled == (str(reference.card), reference.segment, reference.face_up)
    return compiled, (str(expected.card), expected.segment, expected.face_up)


@pytest.mark.parametrize(
    ("clock", "colours"),
    [
        (EXACT_SUN, "SSM/MMS/SMS/MSM"),
        (EXACT_ANY, "SSMM/SMSM/MMSS"),
        (EXACT_FIRST, "SMMM+SS/MMSM+MS"),
    ],
)
def test_the_convention_chooses_by_its_priorities_on_any_board(clock: Clock, colours: str) -> None:
    # Boards the convention's own play seldom reaches (a card of the wrong kind on the lone
    # segment, a face-down card of another player on your segment, spent budgets): random
    # moves up to a random turn, then the convention and the tests' statement of its
    # priorities decide the next move.
    seats = parse_colours(colours)
    rng = random.Random(7)
    for row in draw_values(seats, 1500, 23):
        placed: list[tuple[int, int, int, bool]] = []
        budget = rng.choice((seats.players, seats.players, 0))
        for i in range(rng.randrange(12)):
            seat = i % seats.players
            up = budget > 0 and rng.random() < 0.3
            budget -= up
            placed.append((seat, rng.choice(_in_hand(colours, placed, seat)), rng.randrange(6), up))
        compiled, reference = _decide_both(
            clock, colours, row, placed, len(placed) % seats.players, budget
        )
        assert compiled == reference, placed


def test_a_card_that_finishes_another_segment_is_kept_for_both_of_your_own() -> None:
    # Ann (seat 1) opened segments 2 (M5, needs 7) and 3 (S4, needs 8); Bo's S3 is face up
    # on segment 4. Her M9 would finish segment 4, but M1 + S7 then make segment 3, and no
    # card is left for segment 2: she keeps it, and finishes segment 2 with S7 instead.
    row = np.array([5, 4, 9, 7, 3, 2, 6, 6, 1, 10, 8, 8])  # MSMS+MS/SMSM+SM, by slot
    placed = [(0, 0, 1, False), (1, 4, 3, True), (0, 1, 2, False), (1, 5, 0, True)]
    compiled, reference = _decide_both(EXACT_SUN, "MSMS+MS/SMSM+SM", row, placed, 0, 0)
    assert compiled == reference == ("S7", 2, False)
