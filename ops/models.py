from django.db import models


class WorkerHeartbeat(models.Model):
    """The last sign of life of one Celery worker, written by ops.heartbeat.Heartbeat."""

    hostname = models.CharField(max_length=255, unique=True)
    # Which start of that worker wrote the row: a worker restarted under the same name (a
    # supervisor, a container restart) writes a new one, so the jobs the dead start had
    # claimed no longer have a live node (solver.jobs.reap_stale).
    incarnation = models.CharField(max_length=32, blank=True, default="")
    last_seen = models.DateTimeField()
    # False while the worker loads the solver's kernels, before it takes jobs (about a
    # minute the first time on a machine): a hint page then says the solver is starting.
    ready = models.BooleanField(default=True)
    # While not ready: how far the warm-up is (steps done of total) and when, at the rate so
    # far, it expects to be done (None before its first step): the hint page says how long
    # is left.
    warm_done = models.PositiveSmallIntegerField(default=0)
    warm_total = models.PositiveSmallIntegerField(default=0)
    ready_by = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # /healthz: count workers seen since a moment.
            models.Index(fields=["last_seen"], name="ops_heartbeat_last_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.hostname} @ {self.last_seen:%Y-%m-%d %H:%M:%S}"
