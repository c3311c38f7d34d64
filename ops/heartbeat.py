"""Worker heartbeats: how /healthz knows how many Celery workers are alive.

Each worker runs the ``Heartbeat`` bootstep, which ``OpsConfig.ready`` adds to the Celery
app: a worker loads Django (and so this app) before it builds its bootsteps.

A row names the worker node (its ``-n`` name) and this start of it (``INCARNATION``), so the
hint reaper can tell that the node which claimed a job is dead even when a worker of the
same name has started again since.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import bootsteps
from django.conf import settings
from django.db import connection
from django.utils import timezone

from ops.models import WorkerHeartbeat

# This start of the process: made when Django loads in a worker's main process, before the
# pool forks, so the pool processes that run the jobs share it with the heartbeat.
INCARNATION = uuid.uuid4().hex[:12]


def node_id(hostname: str) -> str:
    """A worker node as its jobs name it: its node name and this start of it."""
    return f"{hostname}#{INCARNATION}"


@dataclass(frozen=True)
class Warming:
    """How far a worker's warm-up is (``solver.core.warm.WarmProgress``): steps ``done`` of
    ``total``, and when it expects to be done at the rate so far (None before the first
    step). A moment, not seconds left: the beats between two steps repeat it unchanged."""

    done: int
    total: int
    ready_by: datetime | None

    @classmethod
    def after(cls, done: int, total: int, seconds_left: float | None) -> Warming:
        """Progress heard now, ``seconds_left`` from now."""
        if seconds_left is None:
            return cls(done, total, None)
        return cls(done, total, timezone.now() + timedelta(seconds=seconds_left))


@dataclass(frozen=True)
class Starting:
    """No worker takes jobs, one is warming up: about ``seconds_left`` whole seconds until
    the first is ready, or None when it has no estimate (no step done yet, or past it)."""

    seconds_left: int | None


def beat(hostname: str, *, ready: bool = True, warming: Warming | None = None) -> None:
    """Record that `hostname` (this start of it) is alive now: taking jobs, or (``ready``
    false) still loading the solver before it takes any, ``warming`` saying how far."""
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname,
        defaults={
            "last_seen": timezone.now(),
            "incarnation": INCARNATION,
            "ready": ready,
            "warm_done": warming.done if warming is not None else 0,
            "warm_total": warming.total if warming is not None else 0,
            "ready_by": warming.ready_by if warming is not None else None,
        },
    )


def forget(hostname: str) -> None:
    """A worker shutting down cleanly stops counting at once."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def silent_after() -> timedelta:
    """A worker not heard from for three heartbeat periods is dead.

    With the default period (2 s) that is 6 s: the first term of a killed worker's hint
    waiting, before the reaper (every period, in each live worker) requeues it. Three
    periods, not one, so that a worker that is only slow (its main process starved of CPU
    for a moment, a heartbeat write waiting on the database) is not taken for dead: its
    next beat comes within them. ``python -m bench.bench_killed_worker`` measures the whole
    chain, kill → done."""
    return timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)


def live_workers() -> int:
    """Workers taking jobs whose last heartbeat is at most three periods old."""
    since = timezone.now() - silent_after()
    return WorkerHeartbeat.objects.filter(last_seen__gte=since, ready=True).count()


def starting_workers() -> int:
    """Live workers still warming the solver up, before they take jobs."""
    since = timezone.now() - silent_after()
    return WorkerHeartbeat.objects.filter(last_seen__gte=since, ready=False).count()


def solver_starting() -> Starting | None:
    """While no worker takes jobs but one is warming up (a hint asked now waits for it:
    about a minute the first time on a machine, while numba compiles the kernels): how long
    until the first of them expects to be ready, from its own progress. Else None."""
    if live_workers():
        return None
    since = timezone.now() - silent_after()
    rows = WorkerHeartbeat.objects.filter(last_seen__gte=since, ready=False)
    if not rows.exists():
        return None
    soonest = rows.exclude(ready_by=None).order_by("ready_by").first()
    if soonest is None or soonest.ready_by is None:
        return Starting(None)
    left = (soonest.ready_by - timezone.now()).total_seconds()
    # Past its estimate the worker is still loading: no figure rather than a wrong one.
    return Starting(math.ceil(left) if left > 0 else None)


def live_nodes(nodes: Iterable[str]) -> set[str]:
    """Which of these ``node_id``s are alive: the same start of the worker has written a
    heartbeat within three periods. A node restarted under its name is a new start."""
    wanted = set(nodes)
    hostnames = {node.rpartition("#")[0] for node in wanted}
    since = timezone.now() - silent_after()
    rows = WorkerHeartbeat.objects.filter(hostname__in=hostnames, last_seen__gte=since)
    alive = {f"{host}#{start}" for host, start in rows.values_list("hostname", "incarnation")}
    return alive & wanted


def worker_beat(hostname: str, *, ready: bool = True, warming: Warming | None = None) -> None:
    """beat() from a worker's timer thread, which has a database connection of its own:
    close it after each beat so it neither times out between beats nor outlives the worker."""
    try:
        beat(hostname, ready=ready, warming=warming)
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
