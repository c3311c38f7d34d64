"""The table's own slip rate: pass curves (solver.core.table.slip_rate), the estimate
(campaigns.statistics.table_rate) and its honesty."""

from __future__ import annotations

import numpy as np
import pytest

from campaigns.statistics.table_rate import LEAST_ATTEMPTS, estimate, rate_step
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.table.plans import Plan, h_plan
from solver.core.table.simulate import draw_slips, draw_values, play_compiled
from solver.core.table.slip_rate import GRID, pass_curve
from solver.core.table.table_rules import rules_for

# Clocks, colour patterns and plans of every table size, whose pass curves differ.
TABLES = [
    ("1-3", "SSMM+SM/SMMM+SS", None),
    ("1-2", "SSS/MMM/SMS/MSM", None),
    ("1-1", "SSMM+SM/SMMM+SS", None),
    ("1-1", "SSS/MMM/SMS/MSM", (4, 8, 12, 16, 20, 24)),
    ("2-2", "SSMM/MMSS/SMSM", None),
    ("1-1", "SMSM+MS/MSMS+SM", None),
    ("1-3", "SSMM/MMSS/SMSM", None),
    ("1-2", "SSMM+SM/SMMM+SS", (4, 8, 12, 16, 20, 24)),
]
TRUE_RATES = (0.02, 0.05, 0.12)
Played = tuple[np.ndarray, np.ndarray]
GAMES = 2000  # games each table plays at each true rate; a group's attempts are drawn among them


@pytest.fixture(scope="module")
def curves_and_outcomes() -> Played:
    """Each table's pass curve, and its outcomes on other deals at each true rate."""
    curves, outcomes = [], []
    for clock_id, colours, targets in TABLES:
        clock, seats = get_clock(clock_id).known_rules(), parse_colours(colours)
        plan = Plan(targets=targets) if targets else h_plan(clock, seats)
        curve = pass_curve(clock, seats, plan, seats.players)
        assert curve is not None
        curves.append(curve)
        rules = rules_for(clock, seats, plan)
        values, slips = draw_values(seats, GAMES, 999), draw_slips(GAMES, 999)
        outcomes.append(
            [
                play_compiled(rules, seats, values, seats.players, rate, slips).passed
                for rate in TRUE_RATES
            ]
        )
    return np.array(curves), np.array(outcomes)


def test_a_curve_has_a_chance_per_rate_and_falls_as_the_rate_rises(
    curves_and_outcomes: Played,
) -> None:
    curves, _ = curves_and_outcomes
    assert curves.shape == (len(TABLES), len(GRID))
    for curve in curves:
        assert curve[0] > curve[-1] + 0.1
        # Common deals and slips: the curve rises nowhere by more than the noise of a few games.
        assert np.diff(curve).max() <= 0.02


@pytest.mark.parametrize("true_rate", TRUE_RATES)
def test_the_interval_holds_the_true_rate_for_85_of_100_groups(
    curves_and_outcomes: Played, true_rate: float
) -> None:
    curves, outcomes = curves_and_outcomes
    column = TRUE_RATES.index(true_rate)
    rng = np.random.default_rng(48)
    held = 0
    for _ in range(100):
        tables = rng.integers(len(TABLES), size=40)
        games = rng.integers(GAMES, size=40)
        rate = estimate([(GRID, curves[t]) for t in tables], list(outcomes[tables, column, games]))
        assert rate.interval is not None and rate.hinted_attempts == 40
        held += rate.interval[0] <= true_rate <= rate.interval[1]
    assert held >= 85


def test_below_eight_attempts_there_is_no_estimate_and_it_says_how_many_more() -> None:
    curve = [1 - rate for rate in GRID]
    rate = estimate([(GRID, curve)] * (LEAST_ATTEMPTS - 3), [True] * (LEAST_ATTEMPTS - 3))
    assert (rate.slip_rate, rate.interval, rate.hinted_attempts, rate.needed) == (
        None,
        None,
        LEAST_ATTEMPTS - 3,
        3,
    )
    assert estimate([(GRID, curve)] * LEAST_ATTEMPTS, [True] * LEAST_ATTEMPTS).slip_rate is not None


def test_failures_raise_the_estimate_and_passes_lower_it() -> None:
    curve = [0.8 * (1 - rate) ** 12 for rate in GRID]
    failing = estimate([(GRID, curve)] * 20, [False] * 20)
    passing = estimate([(GRID, curve)] * 20, [True] * 20)
    assert passing.slip_rate is not None and failing.slip_rate is not None
    assert passing.slip_rate < 0.05 < failing.slip_rate
    assert failing.interval is not None and failing.interval[0] < failing.slip_rate
    assert failing.slip_rate < failing.interval[1]


def test_a_curve_and_its_outcomes_must_pair_up() -> None:
    with pytest.raises(ValueError):
        estimate([(GRID, [0.5] * len(GRID))] * 9, [True] * 8)


def test_a_rate_goes_to_the_nearest_step() -> None:
    assert [rate_step(r) for r in (0.0, 0.04, 0.066, 0.095, 0.111, 0.4)] == [
        0.02,
        0.05,
        0.08,
        0.08,
        0.12,
        0.18,
    ]
