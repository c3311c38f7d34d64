"""``python -m bench.bench_postmortem``: how long "was it winnable?" takes per layout.

Prints, without asserting anything about time, for a few clocks and both layout forms:
milliseconds per layout on one core (mean, median, 99th percentile, slowest) over played
layouts of random deals (each card at a random segment, as a failed table might leave
them), and the share that was winnable. Then, in a fresh interpreter, the time to import
the module and answer the first layout (numba loading the kernel from its on-disk cache):
what the first failure recorded by a fresh web process pays once.

The whole call is timed, parsing left out: compiling the clock (cached), building the
arrays, the search and the witness layout. The target is ≤ 50 ms per layout, so that it can
run inline when a failure is recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from bench.bench_oracle import BENCH_CLOCKS
from bench.stats import percentile
from rules.clock import Clock
from rules.deals import deal
from rules.layout import Layout, Move
from solver.core.oracle.postmortem import postmortem

# The oracle benchmark's clocks (the base clock with its cap, the first clock of the game, a
# rule most cards cannot meet, so the search must prove failures), and one with placement
# rules, which the move form judges too.
CLOCKS: dict[str, dict[str, Any]] = {
    "2-1 (base rules, cap 24)": BENCH_CLOCKS["base (cap 24)"],
    "1-1": BENCH_CLOCKS["1-1"],
    "placement + colours (3-2 style)": {
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
    "segment 1 holds 4 cards": BENCH_CLOCKS["segment 1 holds 4 cards"],
}


def _played(players: int, rng: random.Random) -> Layout:
    the_deal = deal(players, rng)
    queues = [list(the_deal.seat_cards(seat)) for seat in range(players)]
    order = [queues[i % players][i // players] for i in range(12)]
    return Layout.from_moves(Move(card, rng.randint(1, 6)) for card in order)


def measure(clock: Clock, layouts: int, move_form: bool, seed: int = 1) -> dict[str, float]:
    """Milliseconds per layout (and the share winnable) over ``layouts`` random layouts:
    the thread's CPU time (what one core spends, whatever else the machine runs) and the
    wall-clock mean."""
    rng = random.Random(seed)
    cases: list[tuple[Layout, int | None]] = []
    for index in range(layouts):
        table = 2 + index % 3
        played = _played(table, rng)
        layout = played if move_form else Layout(played.segments)
        cases.append((layout, table if move_form else None))
    postmortem(clock, cases[0][0], cases[0][1])  # the kernel loaded, the clock compiled
    times = []
    winnable = 0
    wall = time.perf_counter()
    for layout, players in cases:
        start = time.thread_time_ns()
        answer = postmortem(clock, layout, players)
        times.append((time.thread_time_ns() - start) / 1e6)
        winnable += answer.winnable
    wall_ms = (time.perf_counter() - wall) * 1000 / layouts
    times.sort()
    return {
        "wall_mean_ms": wall_ms,
        "mean_ms": statistics.fmean(times),
        "median_ms": percentile(times, 50),
        "p99_ms": percentile(times, 99),
        "max_ms": times[-1],
        "winnable": winnable / layouts,
    }


_COLD = """
import time
start = time.perf_counter()
from rules.catalogue import get_clock
from rules.layout import parse_layout
from bench.bench_oracle import BENCH_CLOCKS
from solver.core.oracle.postmortem import postmortem
imported = time.perf_counter()
postmortem(get_clock("1-1"), parse_layout("S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"))
first = time.perf_counter()
postmortem(get_clock("1-1"), parse_layout("S1 | S3 M5 | S2 | M3 M9 | S6 S8 M2 | M12 S9 M1"))
second = time.perf_counter()
print(imported - start, first - imported, second - first)
"""


def cold_start() -> tuple[float, float, float]:
    """Seconds, in a fresh interpreter: importing the module, the first answer (numba loads
    the kernel from its cache, compiling it if the cache is empty), the second answer."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _COLD], capture_output=True, text=True, check=True, env=env
    ).stdout
    imported, first, second = (float(x) for x in out.split())
    return imported, first, second


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=3000, help="layouts per clock and form")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    results = []
    for name, definition in CLOCKS.items():
        clock = Clock.from_json(definition)
        for move_form in (False, True):
            numbers = measure(clock, args.layouts, move_form)
            results.append({"clock": name, "form": "move" if move_form else "segment", **numbers})
    imported, first, second = cold_start()
    if args.json:
        print(json.dumps({"layouts": results, "cold": [imported, first, second]}))
        return
    print(
        f"postmortem, one core, {args.layouts:,} random played layouts per line "
        "(CPU ms per layout; wall-clock mean in brackets):"
    )
    for row in results:
        print(
            f"  {row['clock']}, {row['form']} form: {row['mean_ms']:.3f} ms per layout "
            f"(median {row['median_ms']:.3f}, p99 {row['p99_ms']:.3f}, slowest "
            f"{row['max_ms']:.2f}; wall {row['wall_mean_ms']:.3f}), "
            f"{row['winnable']:.1%} winnable"
        )
    print(
        f"  fresh interpreter: import {imported:.2f} s, first answer {first:.2f} s "
        f"(kernel loaded from numba's cache), second {second * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
