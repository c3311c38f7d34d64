"""A table's own slip rate, learned from what its hinted clocks did.

Every hint assumes a table that slips on ``SLIP_RATE`` of its decisions. A table that asked
for hints and then played shows how often it really slips: each hinted attempt passed or
failed, and the hint's plan, replayed at every rate of ``GRID``, says how likely a pass was
at each rate (its *pass curve*, :func:`pass_curve`). :func:`estimate` weighs the curves
against the outcomes.

The estimate is Bayesian on a grid over 0–0.5. The prior is ``Beta(PRIOR)`` = Beta(1, 13.5),
centred on the default: its median is 0.05, so a table with few attempts stays near the
rate every hint assumed. It is weak on purpose (as sure as about 14 observed decisions, its
density falling from 0 like an exponential, a tenth of its mass above 0.15): 0.05 was a
guess, not a measurement, and a slip costs a plan only a few points of pass rate, so forty
hinted clocks carry little information and a stronger prior would hide a table that slips
on one decision in eight (the simulation test: ``tests/solver/core/table/test_slip_rate.py``).
A proper prior also keeps the answer finite where the likelihood alone is flat (a table
that passed every clock says little about how rarely it slips). The estimate is the
posterior mean, the interval the central 90% of the posterior.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rules.clock import Clock
from rules.seats import Seats

from .agents import MOST_SLIP_RATE
from .plans import Plan
from .simulate import draw_slips, draw_values, play_compiled
from .table_rules import rules_for

# The rates a pass curve is measured at: every 0.02 from 0 to 0.5 (26 rates; the curve is
# smooth, and the posterior interpolates between them).
GRID: tuple[float, ...] = tuple(round(i / 50, 2) for i in range(int(MOST_SLIP_RATE * 50) + 1))
CURVE_GAMES = 1000  # deals per rate; the same deals and slip numbers at every rate
CURVE_SEED = 48
PRIOR = (1.0, 13.5)  # Beta(a, b) on the rate; median 1 - 0.5 ** (1 / 13.5) = 0.05
LEAST_ATTEMPTS = 8  # below this, no estimate: the prior stands
CREDIBLE = 0.90
# A curve's chance is kept inside [FLOOR, 1 - FLOOR]: a real table can pass a plan the
# simulated one never passes (or fail one it always passes); that must not end the estimate.
FLOOR = 0.01
# Rates a hint plans at when it uses the table's (so that tables with similar rates share
# plan-book entries): the estimate goes to the nearest.
STEPS: tuple[float, ...] = (0.02, 0.05, 0.08, 0.12, 0.18)
# Where the posterior is evaluated: the midpoints of 500 equal steps over 0–0.5 (a Beta
# density may be infinite at 0 itself).
_FINE = (np.arange(500) + 0.5) * (MOST_SLIP_RATE / 500)


@dataclass(frozen=True)
class TableRate:
    """What a table's hinted attempts say about its slip rate. ``slip_rate`` and
    ``interval`` are None below LEAST_ATTEMPTS; ``needed`` is how many more attempts that
    takes (0 once there is an estimate)."""

    slip_rate: float | None
    interval: tuple[float, float] | None
    hinted_attempts: int
    needed: int

    def to_json(self) -> dict[str, object]:
        return {
            "slip_rate": None if self.slip_rate is None else round(self.slip_rate, 4),
            "interval": None if self.interval is None else [round(x, 4) for x in self.interval],
            "hinted_attempts": self.hinted_attempts,
            "needed": self.needed,
        }


def pass_curve(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    face_up: int,
    games: int = CURVE_GAMES,
    seed: int = CURVE_SEED,
) -> list[float] | None:
    """The share of ``games`` deals of these colours that ``plan`` passes at each rate of
    GRID, compiled engine; None for a clock the compiled engine does not model (the
    reference engine would take minutes). The same deals and slip numbers at every rate,
    so the curve falls smoothly as the rate rises rather than jumping with the draw."""
    rules = rules_for(clock, seats, plan)
    if not rules.compiled_ok:
        return None
    values = draw_values(seats, games, seed)
    slips = draw_slips(games, seed)
    return [
        round(float(play_compiled(rules, seats, values, face_up, rate, slips).passed.mean()), 4)
        for rate in GRID
    ]


def estimate(
    curves: Sequence[Sequence[float]] | npt.NDArray[np.float64],
    passed: Sequence[bool] | npt.NDArray[np.bool_],
) -> TableRate:
    """The table's slip rate from its hinted attempts: ``curves[i]`` is attempt i's pass
    curve (on GRID), ``passed[i]`` whether its clock passed."""
    if len(curves) != len(passed):
        raise ValueError("one outcome per curve")
    count = len(curves)
    if count < LEAST_ATTEMPTS:
        return TableRate(None, None, count, LEAST_ATTEMPTS - count)
    posterior = _posterior(np.asarray(curves, dtype=np.float64), np.asarray(passed, dtype=bool))
    mean = float((posterior * _FINE).sum())
    cumulative = np.cumsum(posterior)
    tail = (1 - CREDIBLE) / 2
    low = float(np.interp(tail, cumulative, _FINE))
    high = float(np.interp(1 - tail, cumulative, _FINE))
    return TableRate(mean, (low, high), count, 0)


def _posterior(curves: npt.NDArray[np.float64], passed: npt.NDArray[np.bool_]) -> npt.NDArray:
    """The posterior's mass at each point of _FINE (summing to 1)."""
    grid = np.asarray(GRID)
    chance = np.stack([np.interp(_FINE, grid, curve) for curve in curves])
    chance = np.clip(chance, FLOOR, 1 - FLOOR)
    log_like = np.where(passed[:, None], np.log(chance), np.log1p(-chance)).sum(axis=0)
    a, b = PRIOR
    log_prior = (a - 1) * np.log(_FINE) + (b - 1) * np.log1p(-_FINE)  # Beta, up to a constant
    log_post = log_like + log_prior
    weights = np.exp(log_post - log_post.max())
    return weights / weights.sum()


def rate_step(rate: float) -> float:
    """The step of STEPS nearest to ``rate``: what a hint plans at for this table."""
    return min(STEPS, key=lambda step: abs(step - rate))
