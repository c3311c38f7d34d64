"""solver.tasks: the task names the jobs are sent by, the hard time limit's signal, and the
periodic tasks. A live worker runs them in test_tasks_on_a_worker.py."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from celery.exceptions import TimeLimitExceeded
from celery.signals import task_failure
from django.contrib.auth.models import User

from solver import jobs
from solver.models import HintRequest
from solver.tasks import reap_stale_hints, run_hint

Status = HintRequest.Status
ROOT = Path(__file__).resolve().parents[2]


def test_jobs_are_sent_by_the_name_of_the_task_that_runs_them() -> None:
    assert run_hint.name == jobs.RUN_HINT


@pytest.mark.django_db
def test_the_hard_limit_signal_fails_the_row(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    jobs.claim(hint.pk, "task-1")
    # What the worker's main process sends when the hard limit kills the job's process.
    task_failure.send(sender=reap_stale_hints, exception=TimeLimitExceeded(1), args=[hint.pk])
    assert HintRequest.objects.get(pk=hint.pk).status == Status.RUNNING  # another task's
    task_failure.send(sender=run_hint, exception=TimeLimitExceeded(180), args=[hint.pk])
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.TIME_LIMIT)
    assert "TimeLimitExceeded" in hint.error


def test_the_periodic_tasks_are_scheduled() -> None:
    from config.celery import app

    app.finalize(auto=True)
    names = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {
        "solver.reap_stale_hints",
        "solver.resend_queued_hints",
        "solver.clean_old_hints",
        "solver.prefill_plan_book",
    } <= names


# A pool process as Celery starts one: Django loaded, then worker_process_init sent.
POOL_PROCESS_STARTS = """
import os, django
django.setup()
from celery.signals import worker_process_init
import solver.tasks
before = os.nice(0)
worker_process_init.send(sender=None)
print(before, os.nice(0))
"""


@pytest.mark.parametrize("steps", [10, 0])
def test_a_pool_process_runs_the_solver_nicer_than_the_web(steps: int) -> None:
    """The pool processes (hints, the prefill) lower their CPU priority by SOLVER_NICE, so
    that the pages keep answering while a search takes the rest of the machine."""
    env = {**os.environ, "SOLVER_NICE": str(steps), "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", POOL_PROCESS_STARTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    before, after = map(int, done.stdout.split()[-2:])
    assert after == min(19, before + steps)
