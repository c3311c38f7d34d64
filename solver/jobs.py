"""The hint job's life on its row: sent to the broker, claimed by one run, solved by the
core with progress written as it goes, finished (done, partial, failed), and kept honest by
periodic work (the reaper, the resender, the cleanup).

``solver.tasks`` wraps these functions in Celery tasks; nothing here imports the tasks: a
job is sent by its task's name, so the web processes need only the broker.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from functools import partial

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError as DatabaseOperationalError
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app
from ops.heartbeat import live_nodes, silent_after
from rules.errors import RulesError
from solver import clock_priors, pass_curves, plan_book
from solver.core.search.search import HintResult, Stage, recommend
from solver.models import ACTIVE_STATUSES, HintRequest
from solver.results import result_json, with_ignored_rules

log = logging.getLogger(__name__)

RUN_HINT = "solver.run_hint"  # the task that runs a job (solver.tasks.run_hint)
KEEP_FOR = timedelta(days=30)
MAX_RUNS = 3  # a job that lost its worker this often is failed, not retried again
PROGRESS_EVERY = 0.5  # seconds between progress writes to the row
RESEND_AFTER = timedelta(seconds=10)  # a queued row never handed to the broker
RESEND_LOST_AFTER = timedelta(minutes=10)  # a queued row whose message seems lost
DB_ATTEMPTS = 4  # bounded retries of the job's own statements on a transient DB error

Status = HintRequest.Status
Failure = HintRequest.Failure


# --- Sending --------------------------------------------------------------------------------


def send(hint_id: int) -> bool:
    """Hand the job to the broker. If the broker is down the row stays queued with no
    ``sent_at`` (the page says the solver is unavailable) and ``resend_queued`` sends it
    once the broker is back; the claim makes a duplicate message harmless.

    Callers inside a transaction send with ``transaction.on_commit``, so a worker never
    sees a row that is not committed."""
    task_id = str(uuid.uuid4())
    try:
        app.send_task(RUN_HINT, (hint_id,), task_id=task_id, retry_policy={"max_retries": 1})
    except (OperationalError, OSError) as error:
        log.warning("Broker unavailable; hint %s stays queued until it is back: %s", hint_id, error)
        return False
    HintRequest.objects.filter(pk=hint_id).update(sent_at=timezone.now())
    return True


# --- Claiming -------------------------------------------------------------------------------


def this_process(node: str = "") -> str:
    """Who claims a row: host and pid, so a later delivery can tell if the claimant died,
    then the worker node running it (``ops.heartbeat.node_id``), so the reaper can tell
    when that whole worker died: "host:pid node@host#start"."""
    process = f"{socket.gethostname()}:{os.getpid()}"
    return f"{process} {node}" if node else process


def claimed_node(claimed_by: str) -> str:
    """The worker node named in a row's ``claimed_by``; "" if it names none."""
    return claimed_by.partition(" ")[2]


def _claimant_is_gone(claimant: str) -> bool:
    """True only when the claimant was a process on this host that no longer exists
    (a pool process killed mid-job). Elsewhere we cannot tell: the reaper decides."""
    host, _, pid = claimant.partition(" ")[0].rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


def claim(hint_id: int, task_id: str, redelivered: bool = False, claimant: str = "") -> int | None:
    """Take the row for this run; the run's number (its fencing token), or None to do nothing.

    Only a queued row can be claimed. One exception: the *same* message (same task id)
    delivered again while the row is running, when its first run is known to be dead — the
    broker flags the delivery as a redelivery (Redis), or the claimant was a process on this
    host that no longer exists (any broker). acks_late + reject_on_worker_lost requeued the
    message, so this delivery takes over — at most MAX_RUNS times, then the hint fails.
    """
    now = timezone.now()
    start = {
        "started_at": now,
        "beat_at": now,
        "progress": 0,
        "stage": "",
        "stage_round": 0,
        "stage_of": 0,
        "runs": F("runs") + 1,
        "claimed_by": claimant[:255],
    }
    rows = HintRequest.objects.filter(pk=hint_id)
    claimed = rows.filter(status=Status.QUEUED).update(
        status=Status.RUNNING, task_id=task_id, **start
    )
    if not claimed:
        mine = rows.filter(status=Status.RUNNING, task_id=task_id)
        previous = mine.values("runs", "claimed_by").first()
        if previous and (redelivered or _claimant_is_gone(previous["claimed_by"])):
            same_run = mine.filter(runs=previous["runs"])  # nobody else took it meanwhile
            if previous["runs"] < MAX_RUNS:
                claimed = same_run.update(**start)
            elif same_run.update(
                status=Status.FAILED,
                failure=Failure.WORKER_LOST,
                error=f"The worker was lost {MAX_RUNS} times.",
                finished_at=now,
            ):
                log.error("Hint %s failed: its worker was lost %s times", hint_id, MAX_RUNS)
    if not claimed:
        return None
    return int(rows.values_list("runs", flat=True).get())


# --- Running --------------------------------------------------------------------------------


class _Abandoned(Exception):
    """The row is no longer this run's (cancelled, or taken over after a worker loss)."""


def run(hint_id: int, task_id: str, redelivered: bool = False, node: str = "") -> None:  # noqa: C901 - one branch per way a job ends
    """The task body: claim, solve with the core (``recommend``), store the result.
    ``node`` names the worker running it (``ops.heartbeat.node_id``), for the reaper.

    Progress goes to the row at most every PROGRESS_EVERY seconds. At the soft time limit
    the best plan so far is stored, marked partial; any other error fails the row with a
    reason. Every write is fenced by the run number, so a run that lost the row writes
    nothing.
    """
    number = _with_retries(
        lambda: claim(hint_id, task_id, redelivered, this_process(node)), f"hint {hint_id}: claim"
    )
    if number is None:
        log.info("Hint %s is not queued; message %s does nothing", hint_id, task_id)
        return
    hint = _with_retries(lambda: HintRequest.objects.get(pk=hint_id), f"hint {hint_id}: read")
    began = time.monotonic()
    mine = HintRequest.objects.filter(pk=hint_id, status=Status.RUNNING, runs=number)
    best: list[HintResult | None] = [None]
    last_write = [time.monotonic()]

    def progress(percent: int, stage: Stage, so_far: HintResult | None) -> None:
        if so_far is not None:
            best[0] = so_far
        now = time.monotonic()
        held = best[0] is not None and _held()
        if now - last_write[0] < PROGRESS_EVERY and not held:
            return
        last_write[0] = now
        try:
            updated = mine.update(
                progress=max(0, min(int(percent), 99)),
                stage=stage.stage[:100],
                stage_round=stage.round,
                stage_of=stage.of,
                beat_at=timezone.now(),
            )
        except DatabaseOperationalError as error:
            # Progress is for the eyes: a busy database skips one write, not the job.
            log.info("Hint %s: progress not written (%s)", hint_id, error)
            return
        if not updated:
            raise _Abandoned
        while held and _held():  # written first, so the row shows where it waits
            time.sleep(0.05)

    try:
        clock, seats = hint.clock(), hint.seats()
        result = recommend(
            clock.known_rules(),  # the table's own words (``described``) are not planned for
            seats,
            hint.face_up,
            seed=hint.seed,
            effort=hint.effort,
            progress=progress,
            base_rules=hint.base_rules,
            odds_samples=hint.odds_samples,
            names=hint.names or None,
            slip_rate=hint.slip_rate,
            prior=clock_priors.genes_of(hint.prior),
        )
    except SoftTimeLimitExceeded:
        # The signal may have interrupted a query: go on with a fresh connection (a worker
        # runs in autocommit; inside a transaction, closing is not ours to do).
        if not connection.in_atomic_block:
            connection.close()
        if best[0] is None:
            _fail(mine, Failure.TIME_LIMIT, "Soft time limit before any plan was found.")
            return
        result = replace(best[0], partial=True)
        log.warning("Hint %s hit the soft time limit; storing the best plan so far", hint_id)
    except _Abandoned:
        log.info("Hint %s was cancelled or taken over; run %s stops", hint_id, number)
        return
    except (RulesError, ValueError) as error:
        _fail(mine, Failure.BAD_INPUT, str(error))
        return
    except Exception as error:  # a solver bug must not leave the row running
        log.exception("Hint %s crashed", hint_id)
        _fail(mine, Failure.CRASHED, f"{type(error).__name__}: {error}")
        return
    data = with_ignored_rules(result_json(result, hint.lang), clock, hint.lang)

    def store() -> int:
        now = timezone.now()
        return mine.update(
            status=Status.DONE,
            progress=100,
            stage="done",
            stage_round=0,
            stage_of=0,
            result=data,
            partial=result.partial,
            finished_at=now,
            beat_at=now,
        )

    if not result.partial:
        # The book first: a table that sees this hint done finds its game in the book.
        took = time.monotonic() - began
        try:
            _with_retries(lambda: plan_book.record(hint, data, took), f"hint {hint_id}: plan book")
        except Exception:  # the hint is still answered; the book misses one entry, no more
            log.exception("Hint %s: not written to the plan book", hint_id)
    _with_retries(store, f"hint {hint_id}: result")
    try:
        # After the result: the table sees its hint first; its curve follows in a second.
        pass_curves.fill(hint_id)
    except Exception:  # beat fills it later (pass_curves.fill_missing)
        log.exception("Hint %s: no pass curve yet", hint_id)


def _held() -> bool:
    """True while the test-only hold file exists (settings.HINT_HOLD_FILE; empty in
    production, so never there): a job then waits at its next progress report."""
    hold_file = settings.HINT_HOLD_FILE
    return bool(hold_file) and os.path.exists(hold_file)


def _with_retries[T](func: Callable[[], T], what: str) -> T:
    """Run one statement, retrying a transient database error (a locked SQLite table, a
    dropped connection) a few times: a failed statement changed nothing, so it is safe."""
    for attempt in range(DB_ATTEMPTS):
        try:
            return func()
        except DatabaseOperationalError as error:
            if attempt == DB_ATTEMPTS - 1:
                raise
            log.warning("%s: database busy (%s); retrying", what, error)
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def _fail(rows: QuerySet[HintRequest], failure: str, error: str) -> int:
    return rows.update(
        status=Status.FAILED, failure=failure, error=error[:2000], finished_at=timezone.now()
    )


def fail(hint_id: int, failure: str, error: str) -> bool:
    """Fail a hint that is still queued or running (hard time limit, lost worker)."""
    rows = HintRequest.objects.filter(pk=hint_id, status__in=ACTIVE_STATUSES)
    return bool(_fail(rows, failure, error))


# --- Keeping the queue honest (periodic tasks) ------------------------------------------------


def stale_after() -> timedelta:
    """A running row silent for longer than the hard time limit has no live run: the
    limit would have killed it (a live run writes progress every second)."""
    return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 30)


def reap_stale() -> tuple[int, int]:
    """Requeue (or, after MAX_RUNS runs, fail) running rows whose run is dead:

    - the worker node that claimed the row has written no heartbeat for three periods
      (``ops.heartbeat``: that start of the node; 6 s by default) and the row itself has
      been silent as long: the whole worker died, main process and pool, so nobody will
      requeue its message. (A pool process killed alone is requeued by its worker.)
    - or the row has been silent for longer than the hard time limit, whatever its node.

    Both signals are needed for the first case: an orphaned pool process still writing
    progress keeps its row, and so does a live worker whose job is quiet for a while.
    Every change is conditioned on the row being unchanged since it was read.
    Returns (requeued, failed)."""
    now = timezone.now()
    quiet_since = now - silent_after()
    stale_since = now - stale_after()
    quiet = list(
        HintRequest.objects.filter(status=Status.RUNNING, beat_at__lt=quiet_since).values_list(
            "pk", "runs", "claimed_by", "beat_at"
        )
    )
    alive = live_nodes({claimed_node(claimed_by) for _, _, claimed_by, _ in quiet} - {""})
    requeued = failed = 0
    for hint_id, runs, claimed_by, beat_at in quiet:
        node = claimed_node(claimed_by)
        if beat_at is None or not (beat_at < stale_since or (node and node not in alive)):
            continue
        rows = HintRequest.objects.filter(
            pk=hint_id, status=Status.RUNNING, runs=runs, beat_at=beat_at
        )
        if runs >= MAX_RUNS:
            failed += _fail(rows, Failure.WORKER_LOST, f"The worker was lost {MAX_RUNS} times.")
            continue
        with transaction.atomic():
            if rows.update(
                status=Status.QUEUED, sent_at=None, progress=0, stage="", stage_round=0, stage_of=0
            ):
                requeued += 1
                transaction.on_commit(partial(send, hint_id))
    if requeued or failed:
        log.warning("Reaper: %s hints of dead workers requeued, %s failed", requeued, failed)
    return requeued, failed


def resend_queued() -> int:
    """Send queued rows the broker never got (it was down), and rows queued so long that
    their message must be lost. A duplicate message finds the row claimed and does nothing."""
    now = timezone.now()
    rows = HintRequest.objects.filter(status=Status.QUEUED).filter(
        Q(sent_at__isnull=True, queued_at__lt=now - RESEND_AFTER)
        | Q(sent_at__lt=now - RESEND_LOST_AFTER)
    )
    sent = sum(send(hint_id) for hint_id in rows.values_list("pk", flat=True)[:100])
    if sent:
        log.info("Resent %s queued hints", sent)
    return sent


def clean_old() -> int:
    """Delete finished hints older than KEEP_FOR (30 days) that belong to no campaign.

    A group's hints are part of its history: its calibration, its own slip rate, its
    evenings' recaps and its export read them, so they stay as long as their campaign does
    (a deleted group's hints lose their campaign, and go 30 days later)."""
    cutoff = timezone.now() - KEEP_FOR
    deleted, _ = (
        HintRequest.objects.filter(queued_at__lt=cutoff, campaign__isnull=True)
        .exclude(status__in=ACTIVE_STATUSES)
        .delete()
    )
    return deleted


__all__ = [
    "MAX_RUNS",
    "RUN_HINT",
    "claim",
    "claimed_node",
    "clean_old",
    "fail",
    "reap_stale",
    "resend_queued",
    "run",
    "send",
    "stale_after",
]
