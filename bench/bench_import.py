"""``python -m bench.bench_import``: how long a large history import makes other writers
wait, on the embedded SQLite database (WAL, the settings' busy timeout).

Imports a history of ATTEMPTS attempts (9,000 by default) into a fresh database in a file of
its own, while a second process records a small write (a worker heartbeat) every 20 ms and
times each one. Prints the import's duration and the writes' waits (median, 99th percentile,
longest) and how many failed. ``--batch N`` overrides the events per transaction
(``--batch 0``: the whole import in one transaction, as before batching).

Prints numbers only; it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import percentile

WRITE_EVERY = 0.02  # seconds between the other writer's writes


def _history(attempts: int) -> dict[str, Any]:
    from campaigns.history import exports

    event = {"event": "failed", "clock": "1-1", "players": 3, "session": 0, "duration_min": 9}
    return {
        "format": exports.FORMAT,
        "version": exports.VERSION,
        "name": "Nine thousand attempts",
        "players": ["Ann", "Ben", "Cleo"],
        "campaigns": [
            {
                "kind": "normal",
                "sessions": [{"date": "2026-11-30", "players": ["Ann", "Ben", "Cleo"]}],
                "history": [event] * attempts,
            }
        ],
    }


def _other_writer(stop: Any, waits: Any, failures: Any) -> None:
    """Another process writing while the import runs: one heartbeat row, every 20 ms. The
    row's model is looked up by name: campaigns imports nothing of ops, which reads groups."""
    from django.apps import apps
    from django.db import OperationalError, connection
    from django.utils import timezone

    heartbeat = apps.get_model("ops", "WorkerHeartbeat")
    connection.close()  # never share the parent's connection across fork
    while not stop.is_set():
        started = time.perf_counter()
        try:
            heartbeat.objects.update_or_create(
                hostname="bench@writer", defaults={"last_seen": timezone.now()}
            )
        except OperationalError:
            failures.value += 1
        waits.append(time.perf_counter() - started)
        time.sleep(WRITE_EVERY)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=9_000)
    parser.add_argument("--batch", type=int, default=None, help="events per transaction")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="tk-bench-import-"))
    os.environ["TIMEKEEPER_VAR_DIR"] = str(folder)
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from campaigns.history import imports

    call_command("migrate", verbosity=0)
    if args.batch == 0:  # the whole import in one transaction, as before batching
        imports.IMPORT_BATCH, imports.BATCH_SECONDS, imports.BATCH_PAUSE = 10**9, 1e9, 0
    elif args.batch is not None:
        imports.IMPORT_BATCH = args.batch
    user = User.objects.create_user("bench")
    history = _history(args.attempts)
    connection.close()

    manager = multiprocessing.Manager()
    waits = manager.list()
    failures = manager.Value("i", 0)
    stop = manager.Event()
    writer = multiprocessing.get_context("fork").Process(
        target=_other_writer, args=(stop, waits, failures)
    )
    writer.start()
    time.sleep(0.5)  # the writer's first writes, before the import starts
    started = time.perf_counter()
    group = imports.import_history(user, history)
    took = time.perf_counter() - started
    time.sleep(0.5)
    stop.set()
    writer.join()

    during = sorted(waits)
    attempts = group.current_campaign().attempts.count()
    print(
        f"import of {attempts:,} attempts, {imports.IMPORT_BATCH:,} events per transaction: "
        f"{took:.1f} s"
    )
    print(
        f"other writes meanwhile: {len(during)}, waited median "
        f"{percentile(during, 50) * 1000:.0f} ms, p99 "
        f"{percentile(during, 99) * 1000:.0f} ms, longest {during[-1] * 1000:.0f} ms; "
        f"failed: {failures.value}"
    )


if __name__ == "__main__":
    main()
