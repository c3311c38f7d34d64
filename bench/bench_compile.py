"""``python -m bench.bench_compile``: what the solver's numba kernels cost to build and load.

Each figure comes from a fresh interpreter, so nothing this process compiled or loaded
counts:

1. **cold**: an EMPTY temporary ``NUMBA_CACHE_DIR``; ``solver.core.warm.warm_up()`` compiles
   every kernel (what a fresh install pays once, at ``make install``);
2. **warm**: the same directory, now full; ``warm_up()`` only loads (what the worker pays at
   every start);
3. **odds**: ``manage.py odds`` on a 4-player colour clock, from that full cache (what
   someone asking for odds on a fresh process waits).

For each it prints the CPU seconds (user + system) and the wall seconds, with the 1-minute
load average: the machine may be shared, and then the wall seconds say little. For the cold
run it also prints the signatures numba compiled (``len(f.signatures)`` summed over every
dispatcher in the solver's modules) and the ten kernels that cost the most CPU, each with its
own compile time (the time of the kernels it calls, compiled for it, not counted twice).

The figures are also written to ``docs/solver-figures.md`` (``--no-write`` leaves it
alone), with the commit, the date and the load. It never asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "solver-figures.md"
ODDS = ["manage.py", "odds", "1-1", "--colours", "SSM/MMS/SMS/MSM", "--json"]
TOP = 10
SECTION = "Kernels: compile and load"
HEADER = (
    "# The solver's figures\n\n"
    "Written by `make bench`, each section by its benchmark; they go stale with every "
    "version, so no prose quotes them. CPU seconds are given beside wall seconds, with the "
    "load average: the machine may be shared.\n"
)

# Run in the child interpreter: warm_up() with numba's compile events recorded. A compile
# event also wraps a load from the cache; the dispatchers' cache counters tell them apart.
_CHILD = """
import json, sys, time, resource
from collections import defaultdict
from numba.core import event
from numba.core.registry import CPUDispatcher

own = defaultdict(float)  # kernel -> CPU seconds of its own compiles (callees left out)
stack = []

class Compiles(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func, time.process_time(), 0.0])

    def on_end(self, ev):
        func, started, inner = stack.pop()
        spent = time.process_time() - started
        own[f"{func.__module__}.{func.__qualname__}"] += spent - inner
        if stack:
            stack[-1][2] += spent

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

wall, started = time.perf_counter(), cpu()
from solver.core import warm
event.register("numba:compile", Compiles())
warm.warm_up()
cpu_seconds, seconds = cpu() - started, time.perf_counter() - wall
dispatchers = {
    id(value): value
    for name, module in list(sys.modules.items())
    if name.startswith("solver.")
    for value in list(vars(module).values())
    if isinstance(value, CPUDispatcher)
}.values()
kernels = {}
for d in dispatchers:
    key = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
    kernels[key] = {
        "signatures": len(d.signatures),
        "compiled": sum(d.stats.cache_misses.values()),
        "loaded": sum(d.stats.cache_hits.values()),
        "seconds": own.get(key, 0.0),
    }
print(json.dumps({"cpu": cpu_seconds, "wall": seconds, "kernels": kernels}))
"""


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], cache: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run ``python args`` in ROOT with this numba cache: (result, wall s, CPU s)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600
    )
    return done, time.perf_counter() - wall, _children_cpu() - cpu


def _warm(cache: str) -> dict[str, Any]:
    load = _load()
    done, _, _ = _run(["-c", _CHILD], cache)
    if done.returncode != 0:
        raise SystemExit(f"warm_up failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["load"] = load
    return result


def _commit() -> str:
    done = subprocess.run(
        ["git", "log", "-1", "--format=%h %s"], cwd=ROOT, capture_output=True, text=True
    )
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True)
    return done.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def _totals(run: dict[str, Any]) -> tuple[int, int, int]:
    kernels = run["kernels"].values()
    return (
        sum(k["signatures"] for k in kernels),
        sum(k["compiled"] for k in kernels),
        sum(k["loaded"] for k in kernels),
    )


def report() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        cold = _warm(cache)
        signatures, compiled, _ = _totals(cold)
        lines += [
            f"- cold (empty cache), warm_up(): {cold['cpu']:.1f} s CPU, {cold['wall']:.1f} s "
            f"wall ({cold['load']}); {signatures} signatures, {compiled} compiled "
            "(target: ≤ 15 s CPU)",
            "",
            f"  | kernel (top {TOP} by own compile CPU) | signatures | CPU s |",
            "  |---|---:|---:|",
        ]
        ranked = sorted(cold["kernels"].items(), key=lambda kv: -kv[1]["seconds"])
        lines += [
            f"  | `{name.removeprefix('solver.core.')}` | {k['signatures']} | {k['seconds']:.1f} |"
            for name, k in ranked[:TOP]
        ]
        warm = _warm(cache)
        _, compiled, loaded = _totals(warm)
        lines += [
            "",
            f"- warm (full cache), warm_up(): {warm['cpu']:.1f} s CPU, {warm['wall']:.1f} s "
            f"wall ({warm['load']}); {compiled} compiled, {loaded} loaded",
        ]
        load = _load()
        done, wall, cpu = _run(ODDS, cache)
        answer = done.stdout.strip() if done.returncode == 0 else f"failed: {done.stderr}"
        lines.append(
            f"- cold `{' '.join(ODDS[1:])}` (fresh process, full cache): {cpu:.1f} s CPU, "
            f"{wall:.1f} s wall ({load}) (target: ≤ 1 s); {answer[:60]}"
        )
    return lines


def _write(title: str, body: list[str]) -> None:
    """Replace this benchmark's section of FIGURES (other benchmarks may own other ones)."""
    text = FIGURES.read_text(encoding="utf-8") if FIGURES.exists() else HEADER
    section = f"## {title}\n\n" + "\n".join(body) + "\n"
    start = text.find(f"## {title}\n")
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + 1)
        text = text[:start] + section + ("\n" + text[end + 1 :] if end >= 0 else "")
    FIGURES.write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = report()
    print("\n".join(lines))
    if not args.no_write:
        _write(SECTION, [f"Commit {_commit()}, {started}.", "", *lines])
        print(f"written to {FIGURES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
