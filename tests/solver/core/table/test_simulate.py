"""simulate(): deals, determinism, the face-up budget, the 2-player sets and the interval."""

from __future__ import annotations

import numpy as np
import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.layout import Move
from rules.seats import parse_colours
from solver.core.table.agents import rank_moves
from solver.core.table.plans import baseline_plan, h_plan
from solver.core.table.simulate import deal_of, draw_values, play_reference, simulate, wilson
from solver.core.table.table_rules import compiled_engine_models
from solver.core.table.view import View

CLOCK = Clock("2-1", 2, 1)
THREE = parse_colours("SSMM/SMSM/MMSS")
TWO = parse_colours("SSMM+SM/SMMM+SS")


def test_deals_have_the_seats_colours_and_distinct_cards() -> None:
    values = draw_values(TWO, 200, seed=1)
    for row in values:
        assert deal_of(TWO, row).seats == TWO  # Deal validates distinct cards itself


def test_deals_are_spread_over_all_values() -> None:
    values = draw_values(THREE, 4000, seed=2)
    counts = np.bincount(values[:, 0], minlength=13)[1:]
    assert counts.min() > 4000 / 12 * 0.8


def test_the_same_seed_gives_the_same_result_and_another_seed_other_deals() -> None:
    plan = h_plan(CLOCK, THREE)
    first = simulate(CLOCK, THREE, plan, 3, games=2000, seed=7)
    assert simulate(CLOCK, THREE, plan, 3, games=2000, seed=7) == first
    assert not np.array_equal(draw_values(THREE, 50, 7), draw_values(THREE, 50, 8))


def test_the_reference_engine_gives_the_compiled_rate() -> None:
    plan = baseline_plan(CLOCK, THREE, 3)
    compiled = simulate(CLOCK, THREE, plan, 3, games=120, seed=4, engine="compiled")
    reference = simulate(CLOCK, THREE, plan, 3, games=120, seed=4, engine="reference")
    assert compiled == reference


def test_the_face_up_budget_is_never_exceeded() -> None:
    plan = h_plan(CLOCK, THREE).with_(face_up_threshold=0.0)  # would flip every card
    for row in draw_values(THREE, 20, seed=3):
        record = play_reference(CLOCK, THREE, plan, 2, deal_of(THREE, row))
        assert sum(m.face_up for m in record.moves) == 2


def test_two_players_pick_up_their_sets_of_two_after_placing_two_cards_each() -> None:
    hands: list[int] = []

    def spy(view: View) -> list[Move]:
        hands.append(len(view.hand))
        return rank_moves(view)

    deal = deal_of(TWO, draw_values(TWO, 1, seed=9)[0])
    record = play_reference(CLOCK, TWO, h_plan(CLOCK, TWO), 2, deal, player=spy)
    assert hands == [4, 4, 3, 3, 4, 4, 3, 3, 2, 2, 1, 1]
    extras = set(deal.extras[0] + deal.extras[1])
    assert not extras & {m.card for m in record.moves[:4]}


def test_face_up_outside_the_budget_range_is_refused() -> None:
    with pytest.raises(ValueError, match="face_up"):
        simulate(CLOCK, THREE, h_plan(CLOCK, THREE), 7, games=10, seed=0)


def test_wilson_interval_contains_the_rate_and_stays_in_0_1() -> None:
    assert wilson(0, 100)[0] == 0.0
    assert wilson(100, 100)[1] == 1.0
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    assert high - low == pytest.approx(0.19, abs=0.01)


def test_a_better_plan_passes_more_often_than_no_plan_at_all() -> None:
    # Falling targets and no care for the order fail almost always: the simulator really
    # resolves the clock.
    hopeless = h_plan(CLOCK, THREE).with_(targets=(24, 20, 16, 12, 8, 4), order_weight=0.0)
    assert simulate(CLOCK, THREE, hopeless, 3, games=300, seed=1).pass_rate < 0.2
    assert simulate(CLOCK, THREE, h_plan(CLOCK, THREE), 3, 300, seed=1).pass_rate > 0.3


def test_a_rule_kind_unknown_to_the_compiled_engine_is_played_by_the_reference(
    no_twelve_clock: Clock,
) -> None:
    plan = h_plan(no_twelve_clock, THREE)
    auto = simulate(no_twelve_clock, THREE, plan, 3, games=60, seed=2)
    assert auto == simulate(no_twelve_clock, THREE, plan, 3, games=60, seed=2, engine="reference")
    free = simulate(CLOCK, THREE, plan, 3, games=60, seed=2, engine="reference")
    assert auto.pass_rate < free.pass_rate  # the rule is really checked at resolution
    with pytest.raises(ValueError, match="compiled engine"):
        simulate(no_twelve_clock, THREE, plan, 3, games=60, seed=2, engine="compiled")


def test_the_compiled_engine_declines_a_clock_with_a_rule_kind_it_does_not_model(
    no_twelve_clock: Clock,
) -> None:
    assert compiled_engine_models(CLOCK)
    assert compiled_engine_models(get_clock("1-1"))  # special rules of kinds it knows
    for kinds in (
        {"kind": "forbidden_values", "segment": 2, "values": [5]},
        {"kind": "single_colour", "segment": 3},
    ):
        assert compiled_engine_models(Clock.from_json({"id": "4-1", "rules": [kinds]}))
    for whole_clock in (
        {"kind": "strictly_rising"},
        {"kind": "equal_neighbours", "segments": [2, 3]},
    ):
        assert compiled_engine_models(Clock.from_json({"id": "4-1", "rules": [whole_clock]}))
    assert not compiled_engine_models(no_twelve_clock)
