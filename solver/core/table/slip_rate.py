"""A hint's pass curve: how likely its plan passes at every slip rate from 0 to 0.5.

Every hint assumes a table that slips on ``SLIP_RATE`` of its decisions. A table that asked
for hints and then played shows how often it really slips: each hinted attempt passed or
failed, and the hint's plan, replayed at every rate of ``GRID`` (:func:`pass_curve`), says
how likely a pass was at each rate. ``campaigns.statistics.table_rate`` weighs the stored
curves against the outcomes (the statistics page reads it, and cannot import the solver).
"""

from __future__ import annotations

from rules.clock import Clock
from rules.seats import Seats

from .agents import MOST_SLIP_RATE
from .plans import Plan
from .simulate import draw_slips, draw_values, play_compiled
from .table_rules import rules_for

# The rates a pass curve is measured at: every 0.02 from 0 to 0.5 (26 rates; the curve is
# smooth, and the estimate interpolates between them).
GRID: tuple[float, ...] = tuple(round(i / 50, 2) for i in range(int(MOST_SLIP_RATE * 50) + 1))
CURVE_GAMES = 1000  # deals per rate; the same deals and slip numbers at every rate
CURVE_SEED = 48


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
