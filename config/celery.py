"""The Celery app. Configuration comes from Django settings (CELERY_* names)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("timekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
        from django.conf import settings

        from ops.heartbeat import worker_beat

        worker_beat(worker.hostname)
        self.tref = worker.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, worker_beat, (worker.hostname,), priority=10
        )

    def stop(self, worker: Any) -> None:
        from ops.heartbeat import worker_forget

        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        worker_forget(worker.hostname)


app.steps["worker"].add(Heartbeat)
