"""Throttle counts shared by every process when there is no Redis: `make serve` runs two
gunicorn processes, and with DEBUG off and no CACHE_URL they count in the database
(config.cache.SharedDatabaseCache). Two real Django processes count on one SQLite file at
once; together they see each count exactly once, so a limit holds across them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
EACH = 120  # counts per process

# Both processes wait for each other before counting, so their counts interleave.
COUNT = f"""
import pathlib, sys, time
from accounts.throttle import count
here, other = (pathlib.Path(p) for p in sys.argv[1:3])
here.touch()
while not other.exists():
    time.sleep(0.01)
print(" ".join(str(count("throttle:anon:192.0.2.1", 3600)) for _ in range({EACH})))
"""


def test_two_processes_without_redis_share_one_count(tmp_path: Path) -> None:
    unset = {"DEBUG", "CACHE_URL", "DATABASE_URL", "ALLOWED_HOSTS", "DOMAIN", "SECRET_KEY"}
    env = {key: value for key, value in os.environ.items() if key not in unset}
    env.update(
        DEBUG="false",  # as make serve runs it
        SECRET_KEY="s" * 60,
        ALLOWED_HOSTS="testserver",
        TIMEKEEPER_VAR_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL="memory://",
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    marks = [tmp_path / "first-ready", tmp_path / "second-ready"]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", f"import django; django.setup()\n{COUNT}", str(a), str(b)],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
            stdout=subprocess.PIPE,
            text=True,
        )
        for a, b in (marks, marks[::-1])
    ]
    seen = []
    for process in processes:
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0
        seen += [int(word) for word in out.split()]
    # Each count answered once: a limit of N lets exactly N of these through.
    assert sorted(seen) == list(range(1, 2 * EACH + 1))
