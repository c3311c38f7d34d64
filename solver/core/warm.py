"""Warm-up: have every numba kernel of the solver ready before the first job needs it.

The kernels are compiled with ``cache=True``: the first process on a machine compiles them
and writes the machine code to numba's cache directory (``__pycache__`` beside the sources,
or ``NUMBA_CACHE_DIR``); every later process loads it from there (a fraction of a second per
kernel) — but only when it first calls the kernel, with the argument types of that call.
:func:`warm_up` makes those first calls, through the same public functions the hint job uses
and with the same argument types, on tiny inputs:

* ``python -m solver.core.warm`` compiles (or checks) the cache ahead of time: ``make
  install`` runs it (so ``make run``, ``make serve`` and their worker only load), the Docker
  image while it is built; ``python -m bench.bench_compile`` measures both;
* the Celery worker calls :func:`warm_up` once before it forks its pool processes
  (``solver.tasks``), so every pool process — also one started later to replace a lost
  one — inherits the kernels loaded and its first hint loads nothing.

Forking after the kernels ran needs a fork-safe threading layer for numba's parallel
kernels: GNU OpenMP, the default on Linux when TBB is absent, makes a forked child abort in
its first parallel kernel ("fork() called from a process already using GNU OpenMP"). The
worker therefore asks for numba's own ``workqueue`` layer (:func:`use_fork_safe_threads`),
which is fork-safe but must not be entered by two threads of one process at once — true
of a prefork pool process, which runs one job at a time. Web processes keep the default.

It plays a few dozen games and decides a few deals: no result is kept, nothing is faked.
``tests/solver/core/test_warm.py`` checks that a full hint after :func:`warm_up` compiles nothing
new, so a kernel (or an argument type) added to the solver without a call here is caught.
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba

from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.oracle.compiled import base_rules_clock
from solver.core.oracle.odds import odds
from solver.core.oracle.oracle import Oracle
from solver.core.table.plans import baseline_plan
from solver.core.table.simulate import deal_of, draw_values, pass_count

WARM_CLOCK = "1-1"  # any transcribed clock: a clock is data to the kernels, not code
WARM_COLOURS = "SSMM/MMSS/SMSM"
# No Suns at all: exact odds then weigh a single value set, through the same kernel.
NO_SUNS = "MMMM/MMMM/MMMM"


@dataclass(frozen=True)
class Warmth:
    """How long :func:`warm_up` took: wall-clock and CPU seconds of this process."""

    seconds: float
    cpu_seconds: float


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class WarmProgress:
    """How far :func:`warm_up` is: ``done`` of its ``total`` steps (each step loads, or
    compiles, the kernels of one public solver function), ``elapsed`` seconds in."""

    done: int
    total: int
    elapsed: float

    @property
    def seconds_left(self) -> float | None:
        """An estimate from the rate so far: the steps left at the mean time of the steps
        done. None before the first step is done (no rate yet)."""
        if self.done <= 0:
            return None
        return self.elapsed / self.done * max(0, self.total - self.done)


Progress = Callable[[WarmProgress], None]


def _steps() -> list[Callable[[], object]]:
    """The calls :func:`warm_up` makes, in order: every kernel of the solver, once."""
    clock = get_clock(WARM_CLOCK)
    seats = parse_colours(WARM_COLOURS)
    values = draw_values(seats, 32, seed=0)
    return [
        # The search: the compiled players (agents_fast.play_many).
        lambda: pass_count(
            clock, seats, baseline_plan(clock, seats, 0), 0, values, engine="compiled"
        ),
        # Exact odds on one value set — by colour (compiled_kernel.colour_multisets) for
        # this clock, per multiset (decide_value_sets) under the base rules — then sampled
        # odds (decide_many) on a few deals.
        lambda: odds(clock, parse_colours(NO_SUNS)),
        lambda: odds(base_rules_clock(clock), parse_colours(NO_SUNS)),
        lambda: odds(clock, seats, samples=8, seed=0),
        # The oracle on one deal, with its witness (decide, choice).
        lambda: Oracle(clock).solve(seats, deal_of(seats, values[0])),
    ]


def warm_up(progress: Progress | None = None) -> Warmth:
    """Call every kernel once, as the solver does: the plan-following players (the search),
    exact and sampled odds, and the oracle with its witness. Compiles whatever is missing
    from numba's cache, loads the rest. ``progress`` hears how far it is after each step
    (the worker's heartbeat tells the hint page how long is left)."""
    started, cpu = time.perf_counter(), _cpu()
    steps = _steps()
    for done, step in enumerate(steps, start=1):
        step()
        if progress is not None:
            progress(WarmProgress(done, len(steps), time.perf_counter() - started))
    return Warmth(time.perf_counter() - started, _cpu() - cpu)


FORK_SAFE_LAYERS = ("workqueue", "tbb", "forksafe", "safe")


def use_fork_safe_threads() -> bool:
    """Choose numba's ``workqueue`` threading layer unless one was chosen already
    (``NUMBA_THREADING_LAYER``, or a parallel kernel already ran). True when the layer in
    use — or to be used — lets this process fork after running a parallel kernel."""
    try:
        return str(numba.threading_layer()) in FORK_SAFE_LAYERS  # already running
    except ValueError:  # no parallel kernel ran yet: the layer can still be chosen
        pass
    config: Any = numba.config  # its settings are set at import, untyped
    if str(config.THREADING_LAYER).lower() == "default":
        config.THREADING_LAYER = "workqueue"
    return str(config.THREADING_LAYER).lower() in FORK_SAFE_LAYERS


def main() -> int:
    print(
        "Loading the solver's kernels (the first time, numba compiles them: seconds of CPU)",
        file=sys.stderr,
        flush=True,
    )
    warmth = warm_up()
    print(
        f"Solver kernels ready in {warmth.seconds:.1f} s ({warmth.cpu_seconds:.1f} s CPU)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
