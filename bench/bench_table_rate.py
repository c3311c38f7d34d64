"""``python -m bench.bench_table_rate``: do plans chosen at a table's learned slip rate pass
more often, at that table's true rate, than plans chosen at the default 0.05?

For each deal of :data:`DEALS` (the base clock and three clocks of ``bench_panel``'s panel,
at 2, 3 and 4 players, face-up cards = players) the solver's search (``recommend``, the
settings a hint uses: the web's effort unless ``--effort``, no odds) chooses one plan at the
default 0.05 and, for each true rate of :data:`TRUE_RATES`, one at ``rate_step(true)``, the
step a table whose estimate is right plans at (0.02 → 0.02, 0.12 → 0.12). Both plans are then
played at the true rate by the compiled engine on the same evaluation deals and slip numbers
(which no search saw): the difference of pass rates is paired game by game, so its standard
error is that of the mean of per-game differences.

The control, true rate 0.05, plans at the same step as the default but with another seed:
its difference shows what the search's own noise alone moves the figure by.

Prints per deal and overall ``pass(plan@learned, true) − pass(plan@0.05, true)`` with its
standard error (overall: the mean of the deals' differences, errors combined as
independent). Asserts nothing about time; the load average is printed at the end.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bench.bench_panel import PANEL, TABLES, Case
from campaigns.statistics.table_rate import rate_step
from rules.clock import Clock
from solver.core.search.search import SLIP_RATE, recommend
from solver.core.table.plans import Plan
from solver.core.table.simulate import draw_slips, draw_values, play_compiled
from solver.core.table.table_rules import rules_for

BASE = Clock("2-1", 2, 1)  # base rules only: start 1, cap 24, no special rule
TRUE_RATES = (0.02, 0.12, 0.05)  # 0.05 last: the control
PANEL_NAMES = ("card_count: 3 on 6", "max_cards: 1 on 5", "min_cards: 3 on 4")
EVALUATION_GAMES = 50_000
EVALUATION_SEED = 484_848  # no search draws from it
WEB_EFFORT = 0.5  # config.settings.HINT_EFFORT


@dataclass(frozen=True)
class Deal:
    name: str
    clock: Clock
    case: Case  # players and colours (bench_panel's tables)


def deals() -> list[Deal]:
    """The base clock at 2, 3 and 4 players, then three panel clocks (one per size)."""
    found = [Deal(f"base clock, {n} players", BASE, Case("base", n, ())) for n in sorted(TABLES)]
    panel = {case.name: case for case in PANEL}
    found += [Deal(name, panel[name].clock(), panel[name]) for name in PANEL_NAMES]
    return found


@dataclass(frozen=True)
class Difference:
    deal: str
    true_rate: float
    step: float
    learned: float  # pass rate at the true rate of the plan chosen at the step
    default: float  # … of the plan chosen at 0.05
    error: float  # standard error of learned − default (paired)

    @property
    def gain(self) -> float:
        return self.learned - self.default


def choose(deal: Deal, slip_rate: float, effort: float, seed: int) -> Plan:
    return recommend(
        deal.clock,
        deal.case.seats(),
        deal.case.players,
        seed=seed,
        effort=effort,
        compute_odds=False,
        slip_rate=slip_rate,
    ).plan


def passes(deal: Deal, plan: Plan, rate: float, games: int) -> np.ndarray:
    """Per evaluation game, did ``plan`` pass at ``rate`` (1 or 0)? The same deals and slip
    numbers for every plan and rate."""
    seats = deal.case.seats()
    values = draw_values(seats, games, EVALUATION_SEED)
    slips = draw_slips(games, EVALUATION_SEED)
    rules = rules_for(deal.clock, seats, plan)
    batch = play_compiled(rules, seats, values, deal.case.players, rate, slips)
    return np.asarray(batch.passed, dtype=np.float64)


def measure(deal: Deal, true_rates: Sequence[float], effort: float, games: int) -> list[Difference]:
    """One deal: the plan at 0.05 (seed 0), the plan at each true rate's step (seed 0, or
    seed 1 where the step is the default), both played at the true rate."""
    default_plan = choose(deal, SLIP_RATE, effort, 0)
    found = []
    for true in true_rates:
        step = rate_step(true)
        learned_plan = choose(deal, step, effort, 1 if step == SLIP_RATE else 0)
        learned = passes(deal, learned_plan, true, games)
        default = passes(deal, default_plan, true, games)
        diff = learned - default
        error = float(diff.std(ddof=1) / math.sqrt(games)) if games > 1 else math.nan
        found.append(
            Difference(deal.name, true, step, float(learned.mean()), float(default.mean()), error)
        )
    return found


def overall(found: Sequence[Difference], true_rate: float) -> tuple[float, float, int]:
    """Mean gain over the deals at ``true_rate``, its standard error, and the deal count."""
    rows = [d for d in found if d.true_rate == true_rate]
    if not rows:
        return math.nan, math.nan, 0
    mean = sum(d.gain for d in rows) / len(rows)
    error = math.sqrt(sum(d.error**2 for d in rows)) / len(rows)
    return mean, error, len(rows)


def line(d: Difference) -> str:
    return (
        f"{d.deal:<28} true {d.true_rate:.2f} (plans at {d.step:.2f}): "
        f"learned {d.learned:.4f}, at 0.05 {d.default:.4f}, "
        f"gain {d.gain:+.4f} ± {d.error:.4f}"
    )


def _load() -> str:
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:
        return "load unknown"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--effort", type=float, default=WEB_EFFORT)
    parser.add_argument("--games", type=int, default=EVALUATION_GAMES)
    parser.add_argument(
        "--deals", type=int, nargs="*", default=None, help="only these deals (0-based indices)"
    )
    parser.add_argument("--rates", type=float, nargs="*", default=list(TRUE_RATES))
    args = parser.parse_args(argv)
    found: list[Difference] = []
    started = time.perf_counter()
    every = deals()
    for deal in every if args.deals is None else [every[i] for i in args.deals]:
        rows = measure(deal, args.rates, args.effort, args.games)
        for row in rows:
            print(line(row), flush=True)
        found += rows
    for true in args.rates:
        mean, error, count = overall(found, true)
        control = " (control: same step, another seed)" if rate_step(true) == SLIP_RATE else ""
        print(
            f"overall, true {true:.2f}{control}: gain {mean:+.4f} ± {error:.4f} "
            f"over {count} deals, {args.games:,} games each"
        )
    print(f"effort {args.effort}, {time.perf_counter() - started:.0f} s, {_load()}")


if __name__ == "__main__":
    main()
