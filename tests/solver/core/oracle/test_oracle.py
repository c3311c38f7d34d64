"""The oracle's public face: witnesses the rules engine accepts, played in a legal order,
and clear refusals."""

from __future__ import annotations

import random

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.deals import Deal, deal
from rules.referee import check_move
from rules.validate import validate
from solver.core.oracle.compiled import base_rules_clock, compile_clock
from solver.core.oracle.oracle import Oracle, Witness, solve

CLOCKS = {
    "1-1": get_clock("1-1").to_json(),
    "base, start 4": {"id": "2-1", "start": 4, "cap": 24, "rules": []},
    "placement and colours": {
        "id": "3-2",
        "start": 3,
        "cap": 24,
        "rules": [
            {"kind": "first_cards", "segments": [5, 3]},
            {"kind": "single_colour", "segment": 5},
            {"kind": "max_cards", "segment": 3, "count": 2},
            {"kind": "forbidden_values", "segment": 4, "values": [1, 2, 3]},
        ],
    },
    "equal and strict": {
        "id": "4-1",
        "start": 1,
        "cap": 24,
        "rules": [
            {"kind": "equal_neighbours", "segments": [2, 3]},
            {"kind": "min_cards", "segment": 6, "count": 3},
            {"kind": "colours", "segment": 1, "sun": 1, "moon": 1},
        ],
    },
}


def _play_is_legal(clock: Clock, witness: Witness, the_deal: Deal) -> None:
    moves = list(witness.moves)
    for index, move in enumerate(moves):
        seat = (witness.opener + index) % the_deal.players
        reason = check_move(clock, the_deal, moves[:index], move, seat, opener=witness.opener)
        assert reason is None, (index, move, reason)


@pytest.mark.parametrize("name", sorted(CLOCKS))
def test_every_witness_passes_the_rules_engine_in_a_legal_play_order(name: str) -> None:
    clock = Clock.from_json(CLOCKS[name])
    oracle = Oracle(clock)
    rng = random.Random(name)
    found = 0
    for players in (2, 3, 4) * 20:
        the_deal = deal(players, rng)
        witness = oracle.solve(the_deal.seats, the_deal)
        if witness is None:
            continue
        found += 1
        verdict = validate(clock, witness.layout)
        assert verdict.passed, (the_deal, witness.layout.format_moves(), verdict.to_json())
        assert witness.layout.moves == witness.moves
        _play_is_legal(clock, witness, the_deal)
    assert found >= 10


def test_solve_answers_none_when_no_game_passes() -> None:
    clock = {"id": "2-1", "start": 1, "cap": 24, "rules": [
        {"kind": "value_range", "segment": 6, "min": 0, "max": 2},
    ]}  # fmt: skip
    the_deal = deal(3, random.Random(1))
    assert solve(clock, the_deal.seats, the_deal) is None


def test_seats_that_are_not_the_deals_colours_are_a_mistake() -> None:
    the_deal = deal(4, random.Random(2))
    other = deal(2, random.Random(3))
    with pytest.raises(ValueError, match="colours"):
        solve(get_clock("1-1"), other.seats, the_deal)


def test_an_untranscribed_clock_is_refused_and_base_rules_are_offered() -> None:
    clock = get_clock("2-1")
    with pytest.raises(ValueError, match="not transcribed"):
        compile_clock(clock)
    base = base_rules_clock(clock)
    assert base["rules"] == [] and base["cap"] == clock.cap
    the_deal = deal(3, random.Random(4))
    assert solve(base, the_deal.seats, the_deal) is not None


def test_an_unknown_rule_kind_is_named() -> None:
    clock = {"id": "2-1", "start": 1, "cap": 24, "rules": [{"kind": "nearest_value"}]}
    with pytest.raises(ValueError, match="'nearest_value'"):
        compile_clock(clock)


def test_equal_neighbours_across_the_start_segment_make_all_values_equal() -> None:
    clock = {"id": "4-1", "start": 1, "cap": None, "rules": [
        {"kind": "equal_neighbours", "segments": [6, 1]},
    ]}  # fmt: skip
    rng = random.Random(5)
    for _ in range(200):
        the_deal = deal(4, rng)
        witness = solve(clock, the_deal.seats, the_deal)
        if witness is not None:
            assert len(set(witness.layout.sums)) == 1
            assert validate(Clock.from_json(clock), witness.layout).passed
            return
    pytest.fail("no deal of 200 splits into six equal values")
