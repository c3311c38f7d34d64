"""Benchmark: a worker node killed mid-hint, and how long until that hint is done.

It starts the production topology's workers (scripts/topology.py: beat and the two worker
nodes, each ``--concurrency 2``, in compose's app environment) on this machine's PostgreSQL
and Redis, asks a hint (the production effort), waits until a node runs it with progress,
then SIGKILLs that node's whole process group (main process and pool, as the OOM killer or a
lost container does) and waits until the hint is done. Then it starts the node again and
does the next run. Per run it prints:

- detect: kill → the reaper requeued the row (the node stopped beating, the row went silent);
- claim: requeued → the other node claimed the new message;
- solve: claimed → done (the job searched again from scratch);
- kill → done: the sum, what a table waits beyond the hint's own time;
- the row's end (done, or partial when the soft time limit struck first) and its runs;
- load: the 1-minute load average just before the kill, and the number of cores.

Each run asks an input no earlier hint answered (a run-unique effort a millionth above the
production one), so no result is reused from the plan book. It never asserts.

Usage: DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… \
       .venv/bin/python bench/bench_killed_worker.py [--runs 3] [--effort 0.5]
It creates and deletes its own user (bench-killed-worker) and its hints.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
USERNAME = "bench-killed-worker"
SERVICES = ("beat", "worker1", "worker2")
TIMEOUT = 300.0


def _wait(predicate: Callable[[], object], timeout: float, what: str, every: float = 0.1) -> float:
    """Seconds until ``predicate`` held (monotonic clock); exits when it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return time.monotonic()
        time.sleep(every)
    raise SystemExit(f"bench_killed_worker: {what} did not happen within {timeout:.0f} s")


def _start(
    service: str, var: Path, env: dict[str, str], logs: IO[bytes]
) -> subprocess.Popen[bytes]:
    from scripts.topology import local

    return subprocess.Popen(
        local(service, 0, var),
        cwd=ROOT,
        env=env,
        stdout=logs,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _one_run(
    run: int, procs: dict[str, subprocess.Popen[bytes]], start: Any, effort: float
) -> dict[str, float]:
    from django.conf import settings
    from django.contrib.auth.models import User

    from ops.heartbeat import live_workers
    from solver import services
    from solver.hint_inputs import parse_input
    from solver.jobs import claimed_node
    from solver.models import HintRequest

    Status = HintRequest.Status
    _wait(lambda: live_workers() >= 2, 900, "both worker nodes beating", every=0.5)
    settings.HINT_EFFORT = effort + (run + 1 + time.time() % 1000) * 1e-6  # a fresh input
    user, _ = User.objects.get_or_create(username=USERNAME)
    HintRequest.objects.filter(user=user).delete()
    hint, _ = services.request_hint(user, parse_input("1-1", "SSMM/MMSS/SMSM", 3))
    rows = HintRequest.objects.filter(pk=hint.pk)

    def running() -> bool:
        row = rows.values("status", "progress").get()
        return row["status"] == Status.RUNNING and row["progress"] > 0

    _wait(running, TIMEOUT, "the hint running")
    node = claimed_node(rows.values_list("claimed_by", flat=True).get()).partition("@")[0]
    load = os.getloadavg()[0]
    _kill(procs[node])
    killed = time.monotonic()
    requeued = _wait(
        lambda: rows.exclude(status=Status.RUNNING, runs=1).exists(), TIMEOUT, "requeue"
    )
    claimed = _wait(lambda: rows.filter(runs__gte=2).exists(), TIMEOUT, "the second claim")
    done = _wait(
        lambda: not rows.filter(status__in=(Status.QUEUED, Status.RUNNING)).exists(),
        TIMEOUT,
        "done",
    )
    final = rows.values("status", "partial", "runs", "claimed_by").get()
    procs[node] = start(node)
    print(
        f"run {run + 1}: killed {node}; detect {requeued - killed:.1f} s, "
        f"claim {claimed - requeued:.1f} s, solve {done - claimed:.1f} s, "
        f"kill → done {done - killed:.1f} s ({final['status']}"
        f"{', partial' if final['partial'] else ''}, runs {final['runs']}, "
        f"by {claimed_node(final['claimed_by']).partition('@')[0]}); "
        f"load {load:.2f} on {os.cpu_count()} cores",
        flush=True,
    )
    return {"detect": requeued - killed, "solve": done - claimed, "total": done - killed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--effort",
        type=float,
        default=None,
        help="the hint's effort (default: the production HINT_EFFORT); a smaller one shortens "
        "the solve term on a busy machine, leaving the detection term as it is",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("bench_killed_worker: set DATABASE_URL to a PostgreSQL database", file=sys.stderr)
        return 2
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
        print("bench_killed_worker: set CELERY_BROKER_URL to a Redis database", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from scripts.topology import environment

    call_command("migrate", "--no-input", verbosity=0)
    var = Path(tempfile.mkdtemp(prefix="bench-killed-worker-"))
    environ = environment(var, 0, 0, 0)
    logs = open(var / "processes.log", "wb")  # noqa: SIM115
    print(
        f"logs: {var / 'processes.log'}; heartbeat every {settings.WORKER_HEARTBEAT_SECONDS} s; "
        f"effort {settings.HINT_EFFORT if args.effort is None else args.effort}",
        flush=True,
    )

    effort = settings.HINT_EFFORT if args.effort is None else args.effort

    def start(service: str) -> subprocess.Popen[bytes]:
        return _start(service, var, environ[service], logs)

    procs = {service: start(service) for service in SERVICES}
    results: list[dict[str, float]] = []
    try:
        for run in range(args.runs):
            results.append(_one_run(run, procs, start, effort))
    finally:
        for proc in procs.values():
            _kill(proc)
        logs.close()
        User.objects.filter(username=USERNAME).delete()
    for term in ("detect", "solve", "total"):
        values = [result[term] for result in results]
        print(
            f"{term}: median {statistics.median(values):.1f} s, "
            f"max {max(values):.1f} s over {len(values)} runs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
