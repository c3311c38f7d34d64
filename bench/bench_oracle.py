"""Benchmarks of the oracle and the odds; ``python -m bench.bench_oracle`` prints them.

``bench/bench_solver.py`` calls :func:`oracle_benchmarks`, :func:`odds_benchmarks` and
:func:`compile_seconds`. Timings are wall-clock on whatever else the machine is doing, so
the targets (oracle ≥ 20,000 deals/s per core, exact 6/6 odds ≤ 0.1 s warm, with or without
colour rules) are read from the best of a few repeats. Colour clocks are also timed the way
they were decided before odds by colour (every value set; ``value_set_hits``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import compile_clock
from solver.core.oracle.odds import forget_exact_odds, odds, value_set_hits

# The three clocks of the issue: the base clock with its cap, the first clock of the game,
# and a special rule that most deals cannot meet (so the oracle must prove failures).
BENCH_CLOCKS: dict[str, dict[str, Any]] = {
    "base (cap 24)": {"id": "2-1", "start": 1, "cap": 24, "rules": []},
    "1-1": {
        "id": "1-1",
        "start": 1,
        "cap": None,
        "rules": [
            {"kind": "colours", "segment": 1, "sun": 1, "moon": 0},
            {"kind": "card_count", "segment": 6, "count": 3},
        ],
    },
    "segment 6 holds 1 card": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "card_count", "segment": 6, "count": 1}],
    },
    "segment 1 holds 4 cards": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "card_count", "segment": 1, "count": 4}],
    },
}
# Clocks with colour rules on one segment (odds by colour, per multiset of values).
COLOUR_CLOCKS: dict[str, dict[str, Any]] = {
    "1 Sun on segment 6": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}],
    },
    "1 Sun on segment 1": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "colours", "segment": 1, "sun": 1, "moon": 0}],
    },
    "segment 4 one colour": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "single_colour", "segment": 4}],
    },
    "2 Moons on 2, range on 5": {
        "id": "2-1",
        "start": 1,
        "cap": 24,
        "rules": [
            {"kind": "colours", "segment": 2, "sun": 0, "moon": 2},
            {"kind": "value_range", "segment": 5, "min": 10, "max": 16},
        ],
    },
}
SIX_SIX = "SSMM/SMSM/MMSS"
# The split a worker saw the clock at before, for the warm timing: 7 Suns / 5 Moons.
SEVEN_FIVE = "SSSM/SSMM/SMMS"


@dataclass(frozen=True)
class OracleBench:
    clock: str
    deals: int
    seconds: float  # CPU seconds
    deals_per_second: float  # one core, compiled kernel, deals prepared in advance
    passable: float  # share of the deals that can pass


@dataclass(frozen=True)
class OddsBench:
    clock: str
    colours: str
    seconds: float  # cold: nothing known about the clock (kernels compiled)
    odds: float
    deals: int
    warm_seconds: float  # warm: the clock seen before at another split (SEVEN_FIVE)


def random_deals(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random 12-card deals for 3 players as kernel arrays (values, colours, hands)."""
    rng = random.Random(seed)
    values = np.zeros((count, 12), dtype=np.int64)
    colours = np.zeros((count, 12), dtype=np.int64)
    for row in range(count):
        cards = rng.sample(range(24), 12)
        values[row] = [card % 12 + 1 for card in cards]
        colours[row] = [card // 12 for card in cards]
    hands = np.tile(np.array([0xF, 0xF0, 0xF00], dtype=np.int64), (count, 1))
    return values, colours, hands


def oracle_benchmarks(deals: int = 20_000, repeats: int = 3, seed: int = 0) -> list[OracleBench]:
    """Deals decided per second on one core, for each clock of BENCH_CLOCKS."""
    values, colours, hands = random_deals(deals, seed)
    results = []
    for name, clock in BENCH_CLOCKS.items():
        compiled = compile_clock(clock)
        out = np.zeros(deals, dtype=np.uint8)
        best = float("inf")
        for _ in range(repeats):
            # CPU time of this (single-threaded) call: deals per second of one core, even
            # when other work shares the machine.
            started = time.process_time()
            kernel.decide_many_serial(
                values, colours, 12, hands, compiled.positions, compiled.globals, out
            )
            best = min(best, time.process_time() - started)
        results.append(OracleBench(name, deals, best, deals / best, float(out.mean())))
    return results


def odds_benchmarks(colours: str = SIX_SIX, repeats: int = 2) -> list[OddsBench]:
    """Wall-clock time of exact odds for the 6 Sun / 6 Moon table, on all cores.

    Cold: nothing remembered about the clock. Warm: the same worker answered the clock at
    7 Suns / 5 Moons before (its decisions per multiset are reused); the answer for the same
    split itself is never reused here.
    """
    names = ("base (cap 24)", "1-1", "segment 6 holds 1 card")
    return [_odds_bench(name, BENCH_CLOCKS[name], colours, repeats) for name in names]


def colour_benchmarks(colours: str = SIX_SIX, repeats: int = 2) -> list[OddsBench]:
    """:func:`odds_benchmarks` for the clocks of COLOUR_CLOCKS (odds by colour)."""
    return [_odds_bench(name, clock, colours, repeats) for name, clock in COLOUR_CLOCKS.items()]


def per_value_set_seconds(colours: str = SIX_SIX, repeats: int = 2) -> dict[str, float]:
    """The same colour clocks decided one value set at a time (``value_set_hits``, the path
    before odds by colour and still their reference): best wall-clock seconds."""
    from rules.seats import parse_colours

    suns = parse_colours(colours).suns
    timings = {}
    for name, clock in COLOUR_CLOCKS.items():
        compiled = compile_clock(clock)
        best = float("inf")
        for _ in range(repeats):
            started = time.perf_counter()
            value_set_hits(compiled, suns)
            best = min(best, time.perf_counter() - started)
        timings[name] = best
    return timings


def _odds_bench(name: str, clock: dict[str, Any], colours: str, repeats: int) -> OddsBench:
    """Best wall-clock seconds of exact odds at ``colours``, cold and warm (after 7/5)."""
    from rules.seats import parse_colours

    seats, before = parse_colours(colours), parse_colours(SEVEN_FIVE)
    cold = warm = float("inf")
    for _ in range(repeats):
        forget_exact_odds()
        started = time.perf_counter()
        result = odds(clock, seats)
        cold = min(cold, time.perf_counter() - started)
        forget_exact_odds()
        odds(clock, before)
        started = time.perf_counter()
        odds(clock, seats)
        warm = min(warm, time.perf_counter() - started)
    return OddsBench(name, colours, cold, result.odds, result.deals, warm)


_COMPILE_PROBE = """
import json, time
started = time.perf_counter()
from bench.bench_oracle import BENCH_CLOCKS, odds_benchmarks, oracle_benchmarks
oracle_benchmarks(deals=10, repeats=1)
odds_benchmarks(colours="SSSS/SSSS/SMMM", repeats=1)
print(json.dumps(time.perf_counter() - started))
"""


def compile_seconds() -> dict[str, float]:
    """Seconds to compile every kernel from scratch, and to load them from numba's cache.

    Runs fresh interpreters: one with an empty cache directory (compiles), then one reusing
    it (loads). Both include interpreter and numpy start-up, the same for each.
    """
    with tempfile.TemporaryDirectory() as cache_dir:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
        timings = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", _COMPILE_PROBE],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            timings.append(float(json.loads(done.stdout.strip().splitlines()[-1])))
    return {"compile_seconds": timings[0], "cached_load_seconds": timings[1]}


_PURE_PYTHON_PROBE = """
import json, time
from bench.bench_oracle import BENCH_CLOCKS, random_deals
from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import compile_clock
import numpy as np
values, colours, hands = random_deals(DEALS, 1)
rates = {}
for name, clock in BENCH_CLOCKS.items():
    compiled = compile_clock(clock)
    out = np.zeros(DEALS, dtype=np.uint8)
    started = time.process_time()
    kernel.decide_many_serial(values, colours, 12, hands, compiled.positions, compiled.globals, out)
    rates[name] = DEALS / (time.process_time() - started)
print(json.dumps(rates))
"""


def pure_python_rates(deals: int = 200) -> dict[str, float]:
    """The same kernel with numba's JIT turned off (NUMBA_DISABLE_JIT=1): deals/s per core."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _PURE_PYTHON_PROBE.replace("DEALS", str(deals))],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rates: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return rates


def print_colour_benchmarks(repeats: int = 2) -> None:
    """Odds by colour, cold / warm, against deciding every value set (the reference)."""
    print(
        "Exact odds with colour rules on one segment, 6 Suns / 6 Moons, all cores,"
        " cold / warm (warm: the clock seen at 7 Suns / 5 Moons before) | per value set:"
    )
    before = per_value_set_seconds(repeats=repeats)
    for result in colour_benchmarks(repeats=repeats):
        print(
            f"  {result.clock:<26} {result.seconds:>8.3f} s / {result.warm_seconds:.3f} s"
            f"   | {before[result.clock]:.3f} s   odds {result.odds:.6f}"
        )


def main() -> None:
    print("Oracle, one core, compiled (deals prepared in advance):")
    for bench in oracle_benchmarks():
        print(
            f"  {bench.clock:<26} {bench.deals_per_second:>10,.0f} deals/s"
            f"   ({bench.passable:.1%} of random deals can pass)"
        )
    print("Exact odds, 6 Suns / 6 Moons (853,776 value sets), all cores, cold / warm:")
    for result in odds_benchmarks():
        print(
            f"  {result.clock:<26} {result.seconds:>8.3f} s / {result.warm_seconds:.3f} s"
            f"   odds {result.odds:.6f}"
        )
    print_colour_benchmarks()
    print("Oracle without numba (NUMBA_DISABLE_JIT=1), one core:")
    for name, rate in pure_python_rates().items():
        print(f"  {name:<26} {rate:>10,.0f} deals/s")
    print("numba:", json.dumps(compile_seconds()))


if __name__ == "__main__":
    main()
