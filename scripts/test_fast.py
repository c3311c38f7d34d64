"""``make test-fast``: the tests a change needs first, on every core of the machine.

No browser, no live worker or broker, no PostgreSQL: the tests marked ``e2e``,
``integration`` or ``slow`` are left out, SQLite and the filesystem broker stand in. One
pytest-xdist worker per core (two at least, four at most), each with a var folder of its own
under var/test-fast (tests/per_worker.py); a worker that finishes early takes tests from the
others, so no list of file times is needed to share them out. ``make test`` runs everything.

Usage: .venv/bin/python scripts/test_fast.py [pytest options...]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKERS = "not e2e and not integration and not slow"
# PYTHONDONTWRITEBYTECODE is dropped too: with it, every run compiles the project's modules
# and rewrites every test module's asserts again (a third of the collection).
DROPPED = ("DATABASE_URL", "CELERY_BROKER_URL", "PYTHONDONTWRITEBYTECODE")


def workers() -> int:
    """One per core, two at least (a 1-core machine still checks that workers share nothing),
    four at most (more start more Django processes than the suite keeps busy)."""
    return min(4, max(2, os.cpu_count() or 2))


def command(count: int, argv: list[str]) -> list[str]:
    return [
        *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
        *("-n", str(count), "--dist", "load", "-m", MARKERS),
        *argv,
    ]


def environment(environ: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in environ.items() if k not in DROPPED}
    env["TIMEKEEPER_VAR_DIR"] = str(ROOT / "var" / "test-fast")
    return env


def main(argv: list[str]) -> int:
    count = workers()
    started = time.monotonic()
    status = subprocess.call(command(count, argv), cwd=ROOT, env=environment(os.environ))
    print(f"test-fast: {time.monotonic() - started:.0f} s on {count} workers")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
