"""Worker heartbeats: how /healthz knows how many Celery workers are alive."""

from __future__ import annotations

from datetime import timedelta

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
