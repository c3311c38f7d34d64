"""A table's own slip rate: what its hinted clocks say about how often it slips.

Each hinted attempt brings its hint's *pass curve* (the plan's pass chance at a row of slip
rates, ``solver.core.table.slip_rate.pass_curve``, stored on the hint's row) and whether
its clock passed. :func:`estimate` weighs the curves against the outcomes. Pure numpy, no
Django: the statistics page and API read it, and the solver plans with it.

The estimate is Bayesian on a grid over 0–0.5. The prior is ``Beta(PRIOR)`` = Beta(1, 13.5),
centred on the default: its median is 0.05, so a table with few attempts stays near the
rate every hint assumed. It is weak on purpose (as sure as about 14 observed decisions, its
density falling from 0 like an exponential, a tenth of its mass above 0.15): 0.05 was a
guess, not a measurement, and a slip costs a plan only about a point of pass rate per 0.01
of rate, so forty hinted clocks carry little information and a stronger prior would hide a
table that slips on one decision in eight (the simulation test,
``tests/solver/core/table/test_slip_rate.py``). A proper prior also keeps the answer finite
where the likelihood alone is flat (a table that passed every clock says little about how
rarely it slips). The estimate is the posterior median, the interval the central 90%: with
outcomes that say nothing, the median stays at the default 0.05, where this skewed prior's
mean (0.069) would already move every table to the next step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

MOST_RATE = 0.5  # the solver's highest slip rate
DEFAULT_RATE = 0.05  # what a hint assumes without a table's rate (the solver's SLIP_RATE)
PRIOR = (1.0, 13.5)  # Beta(a, b) on the rate; median 1 - 0.5 ** (1 / 13.5) = 0.05
LEAST_ATTEMPTS = 8  # below this, no estimate: the prior stands
CREDIBLE = 0.90
# A curve's chance is kept inside [FLOOR, 1 - FLOOR]: a real table can pass a plan the
# simulated one never passes (or fail one it always passes); that must not end the estimate.
FLOOR = 0.01
# The rates a hint plans at when it uses the table's, so that tables with similar rates share
# plan-book entries: the estimate goes to the nearest.
STEPS: tuple[float, ...] = (0.02, 0.05, 0.08, 0.12, 0.18)
# Where the posterior is evaluated: the midpoints of 500 equal steps over 0–0.5 (a Beta
# density may be infinite at 0 itself).
_FINE = (np.arange(500) + 0.5) * (MOST_RATE / 500)

# A pass curve: the rates it was measured at, and the pass chance at each.
Curve = tuple[Sequence[float], Sequence[float]]


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


def estimate(curves: Sequence[Curve], passed: Sequence[bool]) -> TableRate:
    """The table's slip rate from its hinted attempts: ``curves[i]`` is attempt i's pass
    curve, ``passed[i]`` whether its clock passed."""
    if len(curves) != len(passed):
        raise ValueError("one outcome per curve")
    count = len(curves)
    if count < LEAST_ATTEMPTS:
        return TableRate(None, None, count, LEAST_ATTEMPTS - count)
    posterior = _posterior(curves, np.asarray(passed, dtype=bool))
    cumulative = np.cumsum(posterior)
    tail = (1 - CREDIBLE) / 2
    low, median, high = (float(np.interp(q, cumulative, _FINE)) for q in (tail, 0.5, 1 - tail))
    return TableRate(median, (low, high), count, 0)


def _posterior(curves: Sequence[Curve], passed: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """The posterior's mass at each point of _FINE (summing to 1)."""
    chance = np.stack([np.interp(_FINE, rates, passes) for rates, passes in curves])
    chance = np.clip(chance, FLOOR, 1 - FLOOR)
    log_like = np.where(passed[:, None], np.log(chance), np.log1p(-chance)).sum(axis=0)
    a, b = PRIOR
    log_post = log_like + (a - 1) * np.log(_FINE) + (b - 1) * np.log1p(-_FINE)
    weights = np.exp(log_post - log_post.max())
    return np.asarray(weights / weights.sum(), dtype=np.float64)


def rate_step(rate: float) -> float:
    """The step of STEPS nearest to ``rate``: what a hint plans at for this table."""
    return min(STEPS, key=lambda step: abs(step - rate))


def one_in(rate: float) -> int:
    """``rate`` as "1 card in N" (0.11 → 9), at most 1 in 1000 for a rate near 0."""
    return min(1000, max(1, round(1 / rate))) if rate > 0 else 1000
