"""The test worker's start-up watchdog (tests/workers.py): a worker that never starts ends
the test process with its stacks printed; one that started runs as long as its test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import contextlib, sys, time
from tests import workers

@contextlib.contextmanager
def starting(app, **options):
    time.sleep(float(sys.argv[1]))  # the worker's start-up
    yield "worker"

workers.start_worker = starting
workers.START_SECONDS = 1
with workers.running_worker(None) as worker:
    time.sleep(float(sys.argv[2]))  # the test's body
print("done", worker)
"""


def _run(start: float, body: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, str(start), str(body)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_worker_that_never_starts_ends_the_process_with_its_stacks() -> None:
    done = _run(start=60, body=0)
    assert done.returncode != 0
    assert "Timeout" in done.stderr and "starting" in done.stderr
    assert "done" not in done.stdout


def test_a_worker_that_started_runs_as_long_as_its_test() -> None:
    done = _run(start=0, body=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done worker"
