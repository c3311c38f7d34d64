"""Worker heartbeats: how /healthz knows how many Celery workers are alive.

Each worker runs the ``Heartbeat`` bootstep, which ``OpsConfig.ready`` adds to the Celery
app: a worker loads Django (and so this app) before it builds its bootsteps.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import bootsteps
from django.conf import settings
from django.db import connection
from django.utils import timezone

from ops.models import WorkerHeartbeat


def beat(hostname: str) -> None:
    """Record that `hostname` is alive now."""
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"last_seen": timezone.now()}
    )


def forget(hostname: str) -> None:
    """A worker shutting down cleanly stops counting at once."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def live_workers() -> int:
    """Workers whose last heartbeat is at most three periods old."""
    since = timezone.now() - timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)
    return WorkerHeartbeat.objects.filter(last_seen__gte=since).count()


def worker_beat(hostname: str) -> None:
    """beat() from a worker's timer thread, which has a database connection of its own:
    close it after each beat so it neither times out between beats nor outlives the worker."""
    try:
        beat(hostname)
    finally:
        connection.close()


def worker_forget(hostname: str) -> None:
    try:
        forget(hostname)
    finally:
        connection.close()


class Heartbeat(bootsteps.StartStopStep):
    """Writes this worker's heartbeat to the database every WORKER_HEARTBEAT_SECONDS.

    /healthz counts live workers from these rows: the embedded filesystem broker has no
    remote control to ping workers with, and a row works the same on Redis.
    """

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        worker_beat(worker.hostname)
        self.tref = worker.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, worker_beat, (worker.hostname,), priority=10
        )

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        worker_forget(worker.hostname)
