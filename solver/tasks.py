"""Celery tasks for hints: thin wrappers around ``solver.jobs``.

``run_hint`` takes the row's id; the row is claimed with a conditional UPDATE, so a message
delivered twice is harmless and ``acks_late`` is safe. The job is sent by this task's name
(``jobs.send``), after the asking transaction commits. The periodic tasks keep the queue
honest; they are registered here (``on_after_finalize``) so settings stay untouched, and
``make run`` runs beat inside its worker.
"""

from __future__ import annotations

from typing import Any

from billiard.exceptions import WorkerLostError
from celery import Celery
from celery.exceptions import TimeLimitExceeded
from celery.signals import task_failure

from config.celery import app
from solver import jobs
from solver.models import HintRequest

REAP_EVERY = 60.0  # seconds
RESEND_EVERY = 30.0
CLEAN_EVERY = 24 * 3600.0


@app.task(bind=True, name=jobs.RUN_HINT)
def run_hint(self: Any, hint_id: int) -> None:
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    jobs.run(hint_id, self.request.id, redelivered=redelivered)


@app.task(name="solver.reap_stale_hints")
def reap_stale_hints() -> list[int]:
    return list(jobs.reap_stale())


@app.task(name="solver.resend_queued_hints")
def resend_queued_hints() -> int:
    return jobs.resend_queued()


@app.task(name="solver.clean_old_hints")
def clean_old_hints() -> int:
    return jobs.clean_old()


@task_failure.connect
def _record_failure(
    sender: Any = None,
    task_id: str = "",
    exception: BaseException | None = None,
    args: Any = (),
    **kwargs: Any,
) -> None:
    """Failures the task body cannot catch — the hard time limit kills the process, a lost
    worker past its retries — are reported here, in the worker's main process."""
    # Connected for every task (a sender filter would evaluate the task proxy at import).
    if getattr(sender, "name", None) != run_hint.name or not args:
        return
    if isinstance(exception, TimeLimitExceeded):
        failure = HintRequest.Failure.TIME_LIMIT
    elif isinstance(exception, WorkerLostError):
        failure = HintRequest.Failure.WORKER_LOST
    else:
        failure = HintRequest.Failure.CRASHED
    jobs.fail(int(args[0]), failure, f"{type(exception).__name__}: {exception}")


def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    sender.add_periodic_task(REAP_EVERY, reap_stale_hints.s(), name="hints: reap stale rows")
    sender.add_periodic_task(RESEND_EVERY, resend_queued_hints.s(), name="hints: resend queued")
    sender.add_periodic_task(CLEAN_EVERY, clean_old_hints.s(), name="hints: clean old results")


app.on_after_finalize.connect(setup_periodic_tasks)
if app.finalized:  # type: ignore[attr-defined]
    # this module was imported (autodiscovery) after the app was finalized
    setup_periodic_tasks(app)
