"""Celery tasks for hints: thin wrappers around ``solver.jobs``.

``run_hint`` takes the row's id; the row is claimed with a conditional UPDATE, so a message
delivered twice is harmless and ``acks_late`` is safe. The job is sent by this task's name
(``jobs.send``), after the asking transaction commits. The periodic tasks keep the queue
honest; they are registered here (``on_after_finalize``) so settings stay untouched, and
``make run`` runs beat inside its worker.

The reaper also runs in every worker's main process at each heartbeat period (the
``Reaper`` bootstep), so a dead worker's job is requeued within a minute even when the
queue is long: a periodic message would wait behind the hint jobs in it.

The worker loads the solver's numba kernels before it forks its pool processes
(``solver.core.warm``), so no hint pays for compiling or loading them.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any

from billiard.exceptions import WorkerLostError
from celery import Celery, bootsteps
from celery.concurrency.prefork import TaskPool as PreforkPool
from celery.exceptions import TimeLimitExceeded
from celery.signals import (
    celeryd_after_setup,
    task_failure,
    worker_init,
    worker_process_init,
    worker_shutting_down,
)
from django.conf import settings
from django.db import connection

from config.celery import app
from ops.heartbeat import Warming, node_id, worker_beat
from solver import jobs, pass_curves
from solver.core import warm
from solver.models import HintRequest

log = logging.getLogger(__name__)

REAP_EVERY = 30.0  # seconds (beat's backstop; workers reap at each heartbeat period)
RESEND_EVERY = 30.0
CLEAN_EVERY = 24 * 3600.0
PREFILL_EVERY = 120.0  # a slice of the plan book's prefill (solver.prefill.SLICE_SECONDS long)


@app.task(bind=True, name=jobs.RUN_HINT)
def run_hint(self: Any, hint_id: int) -> None:
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    node = node_id(self.request.hostname) if self.request.hostname else ""
    jobs.run(hint_id, self.request.id, redelivered=redelivered, node=node)


@app.task(name="solver.reap_stale_hints")
def reap_stale_hints() -> list[int]:
    return list(jobs.reap_stale())


@app.task(name="solver.resend_queued_hints")
def resend_queued_hints() -> int:
    return jobs.resend_queued()


@app.task(name="solver.fill_pass_curves")
def fill_pass_curves() -> int:
    return pass_curves.fill_missing()


@app.task(name="solver.clean_old_hints")
def clean_old_hints() -> int:
    return jobs.clean_old()


# A slice starts no pattern after SLICE_SECONDS, and one pattern may take a minute or two on a
# loaded machine: its own limits, well above the slice.
@app.task(name="solver.prefill_plan_book", soft_time_limit=270, time_limit=300)
def prefill_plan_book() -> dict[str, object]:
    """A slice of the plan book's prefill (``solver.prefill``): only while no hint waits or
    runs, on one core, for at most ``prefill.SLICE_SECONDS``, one slice at a time on this
    host (a slice still running makes the next one end at once); beat sends the next."""
    import fcntl

    from celery.exceptions import SoftTimeLimitExceeded

    from solver import prefill

    if not settings.PLAN_BOOK_PREFILL:
        return {"computed": 0, "stopped": "PLAN_BOOK_PREFILL is off"}
    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
    with open(settings.VAR_DIR / "plan-book-prefill.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return {"computed": 0, "stopped": "another slice is running"}
        try:
            return prefill.prefill_slice(stopping=worker_stopping)
        except SoftTimeLimitExceeded:  # a very slow pattern: done again later
            return {"computed": 0, "stopped": "time limit"}


# --- Stopping: a prefill slice ends with the worker -----------------------------------------
# A warm shutdown (SIGTERM from ``make run`` / ``make serve``, Ctrl-C) waits for the running
# tasks, and the pool processes never hear of it: they ignore SIGINT, and the main process
# sends them nothing. A prefill slice then went on for its whole slice, past the supervisor's
# 20 s, and was killed. The main process therefore leaves a flag file named after its pid,
# which the slice looks for at each progress report, as it looks for a waiting hint. A hint's
# job ignores it: a table is waiting for that one, and the warm shutdown is for it.


def _stopping_flag(pid: int) -> Path:
    return Path(settings.VAR_DIR) / f"worker-{pid}.stopping"


def worker_stopping() -> bool:
    """Is the worker this task runs in shutting down? (Its main process is this process
    with the solo or threads pool, the parent with prefork.)"""
    return any(_stopping_flag(pid).exists() for pid in {os.getpid(), os.getppid()})


@worker_shutting_down.connect
def _flag_stopping(**kwargs: Any) -> None:
    """In the worker's main process, as its shutdown begins (the signal handler)."""
    flag = _stopping_flag(os.getpid())
    flag.parent.mkdir(parents=True, exist_ok=True)
    flag.touch()


@worker_init.connect
def _clear_stopping(**kwargs: Any) -> None:
    """A flag left by an earlier process with this pid (killed before it could clear it)
    must not stop this worker's slices."""
    _stopping_flag(os.getpid()).unlink(missing_ok=True)


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


# --- Warm-up: the kernels are loaded before the first job ------------------------------------

_warm_in_pool_processes = False


@celeryd_after_setup.connect
def _warm_up_before_fork(sender: Any = None, instance: Any = None, **kwargs: Any) -> None:
    """In the worker's main process, after its set-up and before its pool forks: load (or,
    with an empty numba cache, compile) every kernel once; the pool processes inherit them.

    The worker takes no job meanwhile (its consumer has not started): a hint asked now
    waits in the queue. Meanwhile a heartbeat marked "not ready" says that the solver is
    starting (``ops.heartbeat.solver_starting``), which the hint page tells its reader.

    Only for the prefork pool. With a threading layer that is not fork-safe (see
    ``solver.core.warm``), each pool process loads them itself as it starts instead."""
    global _warm_in_pool_processes
    pool = getattr(instance, "pool_cls", None)
    if not (isinstance(pool, type) and issubclass(pool, PreforkPool)):
        return
    if warm.use_fork_safe_threads():
        hostname = str(getattr(instance, "hostname", "") or sender or "")
        starting = _Starting(hostname)
        beating = threading.Thread(target=starting.beat_until_done, name="solver-starting")
        if hostname:
            beating.start()
        try:
            _warm_up(starting.heard)
        finally:
            starting.finish()
            if beating.is_alive():
                beating.join()
    else:
        log.info("numba's threading layer is not fork-safe: each pool process warms up itself")
        _warm_in_pool_processes = True


@worker_process_init.connect
def _yield_to_the_web(**kwargs: Any) -> None:
    """A pool process runs the solver's batch work (hints, the prefill) at a lower CPU
    priority (``SOLVER_NICE``): on the two cores of a table's laptop or a small server, a
    search that takes every cycle it is given must not make the pages wait. A hint still
    gets all the CPU the web leaves. Only pool processes: the worker's main process keeps
    its priority for its heartbeats and the broker."""
    lower_priority(settings.SOLVER_NICE)


def lower_priority(steps: int) -> int:
    """Make this process ``steps`` nicer (capped by the system at 19); its new niceness."""
    return os.nice(steps) if steps > 0 else os.nice(0)


@worker_process_init.connect
def _warm_up_in_pool_process(**kwargs: Any) -> None:
    """A pool process whose parent could not warm up for it loads the kernels as it starts:
    in a thread, so that it reports itself up at once (Celery kills a pool process that
    takes more than a few seconds to start, and compiling takes half a minute). A job
    arriving meanwhile waits for the kernel it needs. (The layers that are not fork-safe
    are thread-safe.)"""
    if _warm_in_pool_processes:
        threading.Thread(target=_warm_up, name="solver-warm-up", daemon=True).start()


class _Starting:
    """This worker's heartbeat, marked not ready, while it warms up: written every heartbeat
    period and at once after each step of the warm-up, with its progress (the hint page
    says how long is left); the worker's Heartbeat step then writes it ready."""

    def __init__(self, hostname: str) -> None:
        self.hostname = hostname
        self.warming: Warming | None = None
        self.wake = threading.Event()
        self.done = False

    def heard(self, progress: warm.WarmProgress) -> None:
        self.warming = Warming.after(progress.done, progress.total, progress.seconds_left)
        self.wake.set()

    def finish(self) -> None:
        self.done = True
        self.wake.set()

    def beat_until_done(self) -> None:
        while not self.done:
            try:
                worker_beat(self.hostname, ready=False, warming=self.warming)
            except Exception:  # a database hiccup must not stop the warm-up
                log.warning("Could not write the starting heartbeat", exc_info=True)
            self.wake.wait(settings.WORKER_HEARTBEAT_SECONDS)
            self.wake.clear()


def _warm_up(progress: warm.Progress | None = None) -> None:
    try:
        warmth = warm.warm_up(progress)
    except Exception:  # then the first hint loads (or compiles) the kernels it needs itself
        log.exception("Solver warm-up failed")
        return
    log.info("Solver kernels ready in %.1f s (%.1f s CPU)", warmth.seconds, warmth.cpu_seconds)


def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    # A reap message not taken within its period is dropped: the next one does the work.
    sender.add_periodic_task(
        REAP_EVERY,
        reap_stale_hints.s(),
        name="hints: reap stale rows",
        options={"expires": REAP_EVERY},
    )
    sender.add_periodic_task(RESEND_EVERY, resend_queued_hints.s(), name="hints: resend queued")
    sender.add_periodic_task(CLEAN_EVERY, clean_old_hints.s(), name="hints: clean old results")
    sender.add_periodic_task(
        pass_curves.FILL_EVERY, fill_pass_curves.s(), name="hints: fill pass curves"
    )
    # One slice at a time: a message not taken within its period is dropped.
    sender.add_periodic_task(
        PREFILL_EVERY,
        prefill_plan_book.s(),
        name="plan book: prefill while idle",
        options={"expires": PREFILL_EVERY},
    )


app.on_after_finalize.connect(setup_periodic_tasks)
if app.finalized:  # type: ignore[attr-defined]
    # this module was imported (autodiscovery) after the app was finalized
    setup_periodic_tasks(app)


def reap_in_worker() -> None:
    """The reaper from a worker's timer thread: a failure is logged, never raised into the
    worker, and the thread's own database connection is closed after each round."""
    try:
        jobs.reap_stale()
    except Exception:
        log.exception("The reaper failed; it runs again at the next heartbeat period")
    finally:
        connection.close()


class Reaper(bootsteps.StartStopStep):
    """Runs the reaper in the worker's main process every WORKER_HEARTBEAT_SECONDS."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        self.tref = worker.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, reap_in_worker, priority=10
        )

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


# A worker imports its task modules before it builds its bootsteps.
app.steps["worker"].add(Reaper)
