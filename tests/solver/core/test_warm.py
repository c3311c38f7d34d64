"""The warm-up (solver.core.warm): after it, a whole hint compiles and loads no kernel, and
with the threading layer it picks, processes forked after it run the kernels.

Each check runs in a fresh interpreter: this test process may have run kernels already,
with other argument types or another threading layer.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow

_SIGNATURES = """
import json
from numba.core.registry import CPUDispatcher
from solver.core.table import agents_fast
from solver.core.oracle import compiled_kernel

def signatures():
    return {
        f"{module.__name__}.{name}": sorted(str(sig) for sig in value.signatures)
        for module in (agents_fast, compiled_kernel)
        for name, value in vars(module).items()
        if isinstance(value, CPUDispatcher)
    }
"""

_HINT_AFTER_WARM_UP = (
    _SIGNATURES
    + """
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core import warm
from solver.core.oracle.odds import odds
from solver.core.oracle.oracle import Oracle
from solver.core.search.search import recommend
from solver.core.table.simulate import deal_of, draw_values

warm.warm_up()
after_warm_up = signatures()
# A clock with colour rules (exact odds by colour), and one played by the base rules only
# (colour-blind: exact odds per multiset of values); three and two players.
for clock_id, colours, face_up in (("1-1", "SSMM/MMSS/SMSM", 3), ("2-3", "SSMM+SM/MMSS+MS", 2)):
    clock, seats = get_clock(clock_id), parse_colours(colours)
    # Exact odds, as a hint asks by default, then sampled odds.
    recommend(clock, seats, face_up, effort=0.05, base_rules=True)
    recommend(clock, seats, face_up, effort=0.05, base_rules=True, odds_samples=50)
    if clock.transcribed:
        Oracle(clock).solve(seats, deal_of(seats, draw_values(seats, 1, seed=3)[0]))
print(json.dumps({"warm": after_warm_up, "hint": signatures()}))
"""
)


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_a_hint_after_the_warm_up_needs_no_kernel_it_did_not_load() -> None:
    done = _python(_HINT_AFTER_WARM_UP)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    # The kernels the hint job calls from Python were loaded by the warm-up…
    for name in (
        "table.agents_fast.play_many",
        "oracle.compiled_kernel._value_set_rows",
        "oracle.compiled_kernel._multiset_rows",
        "oracle.compiled_kernel._decide_rows",
        "oracle.compiled_kernel.decide",
        "oracle.compiled_kernel.choice",
    ):
        assert seen["warm"][f"solver.core.{name}"], f"{name} was not loaded by the warm-up"
    # …with the argument types the hint uses: two hints (exact and sampled odds, two table
    # sizes) and the oracle compiled or loaded nothing more.
    assert seen["hint"] == seen["warm"]


_WARM_UP_COMPILES = """
import json, sys
from numba.core.registry import CPUDispatcher
from solver.core import warm

warm.warm_up()
dispatchers = {
    id(value): value
    for name, module in list(sys.modules.items())
    if name.startswith("solver.")
    for value in list(vars(module).values())
    if isinstance(value, CPUDispatcher)
}.values()
print(json.dumps({
    "compiled": sum(sum(d.stats.cache_misses.values()) for d in dispatchers),
    "loaded": sum(sum(d.stats.cache_hits.values()) for d in dispatchers),
}))
"""


def test_make_install_leaves_kernels_a_fresh_process_only_loads(tmp_path: Path) -> None:
    # What `make install` would run from scratch (-B: as if nothing were built; -n: only
    # print it), with an empty cache of its own.
    plan = subprocess.run(
        ["make", "-n", "-B", "install"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    steps = [line for line in plan.stdout.splitlines() if "solver.core.warm" in line]
    assert steps, "make install does not build the solver's kernels"
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    for step in steps:
        done = subprocess.run(
            step, shell=True, cwd=ROOT, env={**os.environ, **cache}, capture_output=True,
            text=True, timeout=3600,  # compiles every kernel: minutes on a loaded machine
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    done = _python(_WARM_UP_COMPILES, **cache)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["compiled"] == 0
    assert seen["loaded"] > 0


_FORK_AFTER_WARM_UP = """
import os, sys
import numba
from solver.core import warm
safe = warm.use_fork_safe_threads()
warm.warm_up()
print(numba.threading_layer(), safe, flush=True)
if not safe:
    sys.exit(0)
pid = os.fork()
if pid == 0:
    warm.warm_up()  # runs the parallel kernels again, in the child
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), flush=True)
"""


def test_processes_forked_after_the_warm_up_run_the_parallel_kernels() -> None:
    done = _python(_FORK_AFTER_WARM_UP)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["workqueue", "True", "0"], done.stderr


def test_a_threading_layer_chosen_by_the_environment_is_kept() -> None:
    done = _python(_FORK_AFTER_WARM_UP, NUMBA_THREADING_LAYER="omp")
    assert done.returncode == 0, done.stderr
    # GNU OpenMP: not fork-safe, so the worker warms each pool process instead.
    assert done.stdout.split() == ["omp", "False"], done.stderr


def test_make_run_leaves_the_warm_up_to_the_worker_and_the_module_still_runs() -> None:
    # The web must not wait for the kernels: the worker warms up before it takes jobs.
    run = runpy.run_path(str(ROOT / "scripts" / "run.py"), run_name="run_script")
    steps = [step[1:] for step in run["prepare_steps"]()]
    assert ["-m", "solver.core.warm"] not in steps
    # The Docker build still fills the cache with it.
    done = subprocess.run(
        [sys.executable, "-m", "solver.core.warm"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert "Solver kernels ready in" in done.stderr


def test_the_warm_up_reports_each_step_and_the_seconds_left_at_its_rate() -> None:
    code = (
        "import json\nfrom solver.core import warm\nheard = []\nwarm.warm_up(heard.append)\n"
        "print(json.dumps([[p.done, p.total, p.elapsed, p.seconds_left] for p in heard]))"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    heard = json.loads(done.stdout)
    total = heard[0][1]
    assert [step[:2] for step in heard] == [[n, total] for n in range(1, total + 1)]
    assert total >= 5  # the players, three kinds of odds, the oracle
    for n, _, elapsed, left in heard:
        assert left == pytest.approx(elapsed / n * (total - n))
    assert heard[-1][3] == 0


def test_the_seconds_left_come_from_the_rate_so_far() -> None:
    from solver.core.warm import WarmProgress

    assert WarmProgress(done=0, total=5, elapsed=3.0).seconds_left is None  # no rate yet
    assert WarmProgress(done=2, total=5, elapsed=8.0).seconds_left == 12.0
    assert WarmProgress(done=5, total=5, elapsed=20.0).seconds_left == 0
