"""``python -m bench.bench_solver``: the solver's numbers on this machine.

Prints, without asserting anything about time:
- the oracle's deals per second per core on three clocks and the exact odds time for a
  6 Sun / 6 Moon table, with and without colour rules (``bench.bench_oracle``);
- simulated silent games per second (compiled engine, all cores and one core);
- hint time, pass rate (95% interval), baseline rate and odds for 2, 3 and 4 players on a
  clock without special rules, face-up cards = players;
- slips: on that clock at face-up = players and slip rate 0.05, the plan a clean search
  chooses (slip rate 0: today's clean-optimised plan) against the plan the search chooses on
  slips, both played on the same fresh deals with the same slips: clean rate, rate with
  slips, and what slips cost, as the strength table (per player count, both searches side
  by side, with the figures before this round and the targets), and what the recommended
  plan loses to each kind of slip alone (misreads, random moves), with the games random
  moves spoil and the part of those beyond repair (past the first random move, no placement
  of the cards left passes, even with every card visible). The load average is printed
  with every timing: the machine may be shared;
- the seed spread: the search on slips at ``--seeds`` seeds (5), each plan's rate with slips
  on the same 100,000 fresh deals (``bench_panel.EVALUATION_GAMES``: on fewer, the luck of
  the deals alone spreads equally good plans), and their max - min (the target is at most
  0.01).

``--quick`` runs a smaller version (for a smoke test); ``--effort`` scales the hints.
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
import numpy.typing as npt

from bench import bench_oracle
from bench.bench_panel import EVALUATION_GAMES
from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver.core.table.plans import Plan

BASE = Clock("2-1", 2, 1)  # base rules only: start 1, cap 24, no special rule
TABLES = {2: "SSMM+SM/SMMM+SS", 3: "SSMM/SMSM/MMSS", 4: "SSM/MMS/SMS/MSM"}


def _oracle_numbers(quick: bool) -> None:
    for bench in bench_oracle.oracle_benchmarks(deals=2_000 if quick else 20_000):
        print(
            f"oracle, one core, {bench.clock}: {bench.deals_per_second:,.0f} deals/s "
            f"({bench.passable:.1%} of random deals can pass)"
        )
    for result in bench_oracle.odds_benchmarks(repeats=1 if quick else 2):
        print(
            f"exact odds, {result.colours} (6 Suns / 6 Moons, {result.deals:,} value sets), "
            f"{result.clock}: cold {result.seconds:.3f} s, warm {result.warm_seconds:.3f} s "
            f"(clock seen at 7 Suns / 5 Moons before), odds {result.odds:.4f}, {_load()}"
        )
    if not quick:
        before = bench_oracle.per_value_set_seconds(repeats=2)
    for result in bench_oracle.colour_benchmarks(repeats=1 if quick else 2):
        was = "" if quick else f", every value set on its own {before[result.clock]:.3f} s"
        print(
            f"exact odds with colour rules, {result.colours}, {result.clock}: "
            f"cold {result.seconds:.3f} s, warm {result.warm_seconds:.3f} s (after 7/5){was}, "
            f"odds {result.odds:.4f}, {_load()}"
        )


def _simulation_numbers(quick: bool) -> None:
    from solver.core.table.plans import h_plan
    from solver.core.table.simulate import draw_values, play_compiled
    from solver.core.table.table_rules import rules_for

    games = 20_000 if quick else 200_000
    for players, colours in TABLES.items():
        seats = parse_colours(colours)
        rules = rules_for(BASE, seats, h_plan(BASE, seats))
        values = draw_values(seats, games, seed=1)
        play_compiled(rules, seats, values[:100], players)  # compile / load the cache
        threads = numba.get_num_threads()
        rates = []
        for n in (threads, 1):
            numba.set_num_threads(n)
            started = time.perf_counter()
            play_compiled(rules, seats, values, players)
            rates.append(games / (time.perf_counter() - started))
        numba.set_num_threads(threads)
        print(
            f"simulation, {players} players: {rates[0]:,.0f} games/s on {threads} threads, "
            f"{rates[1]:,.0f} games/s on 1"
        )


def _hint_numbers(effort: float) -> None:
    from solver.core.search.search import recommend

    for players, colours in TABLES.items():
        seats = parse_colours(colours)
        started = time.perf_counter()
        hint = recommend(BASE, seats, players, seed=0, effort=effort)
        elapsed = time.perf_counter() - started
        low, high = hint.interval
        odds = "unknown" if hint.odds is None else f"{hint.odds:.3f}"
        print(
            f"hint, {players} players ({colours}, face-up {players}, effort {effort}): "
            f"{elapsed:.1f} s; pass rate {hint.pass_rate:.3f} (95% {low:.3f}-{high:.3f}, "
            f"{hint.games} fresh games); baseline {hint.baseline_rate:.3f}; odds {odds}"
        )
        print(f"  plan: {hint.plan.to_json()}")


def _load() -> str:
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:
        return "load unknown"


# The figures for the base clock (face-up = players, slip rate 0.05), as
# (clean, with slips) of the search on slips: where we started this round, and the targets.
BEFORE = {2: (0.70, 0.63), 3: (0.64, 0.58), 4: (0.58, 0.525)}
TARGETS = {2: 0.75, 3: 0.68, 4: 0.62}  # clean, losing at most 0.04 to slips


def _slips_numbers(effort: float, games: int, rate: float = 0.05) -> None:
    """The strength table: per player count, the plan of the clean search and of the search
    on slips, both on the same fresh deals and slips: clean, with slips, lost to slips."""
    from solver.core.search.search import recommend
    from solver.core.table.simulate import draw_slips, draw_values, pass_count

    rows = []
    kinds = []
    for players, colours in TABLES.items():
        seats = parse_colours(colours)
        values = draw_values(seats, games, seed=424_242)
        slips = draw_slips(games, seed=424_242)
        row = []
        for label, slip_rate in (("clean search", 0.0), ("search on slips", rate)):
            started = time.perf_counter()
            hint = recommend(
                BASE, seats, players, seed=0, effort=effort, compute_odds=False, slip_rate=slip_rate
            )
            elapsed = time.perf_counter() - started
            clean = pass_count(BASE, seats, hint.plan, players, values) / games
            slipped = (
                pass_count(BASE, seats, hint.plan, players, values, "auto", rate, slips) / games
            )
            row.append((clean, slipped))
            if slip_rate:
                kinds.append((players, _lost_by_kind(BASE, seats, hint.plan, values, slips, rate)))
            print(
                f"slips, {players} players: {label} (effort {effort}) {elapsed:.1f} s, {_load()}; "
                f"offers {', '.join('/'.join(a.kinds) for a in hint.alternatives)}; "
                f"plan {hint.plan.to_json()}"
            )
        rows.append((players, row))
    print(
        f"strength, base clock, face-up = players, {games:,} fresh deals, slip rate {rate}:\n"
        f"{'players':>7} | {'clean search':^20} | {'search on slips':^20} | "
        f"{'before (clean/slips)':^20} | target clean"
    )
    print(
        f"{'':>7} | {'clean':>6} {'slips':>6} {'lost':>6} | {'clean':>6} {'slips':>6} {'lost':>6} |"
    )
    for players, row in rows:
        cells = " | ".join(f"{c:6.3f} {s:6.3f} {c - s:6.3f}" for c, s in row)
        before = BEFORE[players]
        print(
            f"{players:>7} | {cells} | {before[0]:>9.3f}/{before[1]:<10.3f} | "
            f"{TARGETS[players]:.2f}, lost <= 0.04"
        )
    print("lost to each kind of slip alone, as often as in the mix (search on slips):")
    for players, (misread, random, spoiled, beyond) in kinds:
        print(
            f"{players:>7} players: misreads {misread:.3f}, random moves {random:.3f} "
            f"(games they spoil {spoiled:.3f}, of which beyond repair {beyond:.3f}: past the "
            "first random move, no placement of the cards left passes)"
        )


def _lost_by_kind(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    values: npt.NDArray[np.int64],
    slips: npt.NDArray[np.float64],
    rate: float,
) -> tuple[float, float, float, float]:
    """What ``plan`` loses to misreads alone and to random moves alone, each slipping as
    often as it does in the mix at ``rate`` (``simulate.slips_of_kind``): where the loss to
    slips comes from; then the random moves' :func:`spoiled_shares`."""
    from solver.core.table.agents import MISREAD_SHARE
    from solver.core.table.simulate import pass_count, slips_of_kind

    games, face_up = values.shape[0], seats.players
    clean = pass_count(clock, seats, plan, face_up, values)
    misread = slips_of_kind(slips, "misread")
    random = slips_of_kind(slips, "random")
    with_misreads = pass_count(
        clock, seats, plan, face_up, values, "auto", rate * MISREAD_SHARE, misread
    )
    with_random = pass_count(
        clock, seats, plan, face_up, values, "auto", rate * (1.0 - MISREAD_SHARE), random
    )
    spoiled, beyond = spoiled_shares(
        clock, seats, plan, values, random, rate * (1.0 - MISREAD_SHARE)
    )
    return (clean - with_misreads) / games, (clean - with_random) / games, spoiled, beyond


def spoiled_shares(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    values: npt.NDArray[np.int64],
    slips: npt.NDArray[np.float64],
    rate: float,
) -> tuple[float, float]:
    """The share of games ``plan`` passes clean and loses with ``slips`` (random moves
    alone), and of those, the share no placement of the cards left could still pass once
    the first random move is down (every card visible from there on): the part of the loss
    no plan played from that board could win back. For clocks without special rules."""
    from solver.core.oracle.completion import completable
    from solver.core.table.simulate import play_compiled
    from solver.core.table.table_rules import rules_for

    if clock.rules:
        raise ValueError("the completion check knows the base rules only")
    rules = rules_for(clock, seats, plan)
    clean = play_compiled(rules, seats, values, seats.players)
    slipped = play_compiled(rules, seats, values, seats.players, rate, slips)
    spoiled = beyond = 0
    for g in np.nonzero(clean.passed & ~slipped.passed)[0]:
        spoiled += 1
        first = int(np.nonzero(slips[g, :, 0] < rate)[0][0])
        totals, counts = [0] * 6, [0] * 6
        placed = set()
        for _, slot, position, _ in slipped.moves[g, : first + 1]:
            totals[position] += int(values[g, slot])
            counts[position] += 1
            placed.add(int(slot))
        left = [int(values[g, s]) for s in range(len(values[g])) if s not in placed]
        beyond += not completable(totals, counts, left, clock.cap or 12 * 12)
    return spoiled / len(values), beyond / len(values)


def _spread_numbers(effort: float, games: int, seeds: int, rate: float = 0.05) -> None:
    """The search on slips at ``seeds`` seeds, per player count: each plan's rate with slips
    on the same fresh deals and slips, and their spread (max - min; target at most 0.01)."""
    from solver.core.search.search import recommend
    from solver.core.table.simulate import draw_slips, draw_values, pass_count

    print(f"seed spread, base clock, search on slips (effort {effort}), {games:,} fresh deals:")
    for players, colours in TABLES.items():
        seats = parse_colours(colours)
        values = draw_values(seats, games, seed=424_242)
        slips = draw_slips(games, seed=424_242)
        rates = []
        for seed in range(seeds):
            plan = recommend(
                BASE, seats, players, seed=seed, effort=effort, compute_odds=False, slip_rate=rate
            ).plan
            passed = pass_count(BASE, seats, plan, players, values, "auto", rate, slips)
            rates.append(passed / games)
        print(
            f"{players:>7} players: spread {max(rates) - min(rates):.3f} over {seeds} seeds "
            f"(with slips {' '.join(f'{r:.3f}' for r in rates)})",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_solver", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller, faster run")
    parser.add_argument("--effort", type=float, default=1.0, help="hint search effort")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=["oracle", "simulation", "hint", "slips", "spread"],
    )
    parser.add_argument("--seeds", type=int, default=5, help="seeds for the spread")
    args = parser.parse_args(argv)
    print(f"numba threads: {numba.get_num_threads()}")
    if "oracle" not in args.skip:
        _oracle_numbers(args.quick)
    if "simulation" not in args.skip:
        _simulation_numbers(args.quick)
    if "hint" not in args.skip:
        _hint_numbers(0.1 if args.quick else args.effort)
    if "slips" not in args.skip:
        _slips_numbers(0.1 if args.quick else args.effort, 2_000 if args.quick else 20_000)
    if "spread" not in args.skip:
        _spread_numbers(
            0.1 if args.quick else args.effort,
            2_000 if args.quick else EVALUATION_GAMES,
            args.seeds,
        )


if __name__ == "__main__":
    main()
