"""Worker heartbeats: how /healthz knows how many Celery workers are alive."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from ops.models import WorkerHeartbeat


def beat(hostname: str) -> None:
    """Record that `hostname` is alive now. Runs in the worker's timer thread."""
    close_old_connections()
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname, defaults={"last_seen": timezone.now()}
    )


def forget(hostname: str) -> None:
    """A worker shutting down cleanly stops counting at once."""
    close_old_connections()
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def live_workers() -> int:
    """Workers whose last heartbeat is at most three periods old."""
    since = timezone.now() - timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)
    return WorkerHeartbeat.objects.filter(last_seen__gte=since).count()
