"""A real Celery worker in a thread of the test process, for the tests that need one.

Celery's ``start_worker`` waits for the worker's "ready" with no time limit: a worker that
cannot start (its thread died, its broker is unreachable) would hold the whole suite until
CI's own limit. ``running_worker`` gives it ``START_SECONDS``; past them the test process
prints every thread's stack and ends, and pytest-xdist reports the test as failed and goes
on with the others.
"""

from __future__ import annotations

import contextlib
import faulthandler
from collections.abc import Iterator
from typing import Any

from celery import Celery
from celery.contrib.testing.worker import start_worker

START_SECONDS = 300


@contextlib.contextmanager
def running_worker(app: Celery, **options: Any) -> Iterator[Any]:
    """``start_worker(app, pool="solo", concurrency=1, …)``, started within START_SECONDS."""
    settings = {"pool": "solo", "concurrency": 1, "perform_ping_check": False}
    faulthandler.dump_traceback_later(START_SECONDS, exit=True)
    try:
        with start_worker(app, **{**settings, "loglevel": "WARNING", **options}) as worker:
            faulthandler.cancel_dump_traceback_later()
            yield worker
    finally:
        faulthandler.cancel_dump_traceback_later()
