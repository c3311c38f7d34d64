"""solver.jobs: the claim, the run (with a stand-in for the solver core, so these run in
milliseconds), the reaper, the resender and the cleanup."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.utils import timezone

from campaigns.models import Campaign
from ops import heartbeat
from ops.models import WorkerHeartbeat
from solver import jobs, services
from solver.core.search.search import HintResult, Stage
from solver.models import HintRequest

pytestmark = pytest.mark.django_db

Status = HintRequest.Status


# --- the claim and the run --------------------------------------------------------------------


def test_only_a_queued_row_can_be_claimed(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    assert jobs.claim(hint.pk, "task-1") == 1
    assert jobs.claim(hint.pk, "task-2") is None  # a duplicate message
    hint.refresh_from_db()
    assert (hint.status, hint.task_id, hint.runs) == (Status.RUNNING, "task-1", 1)
    assert hint.started_at is not None


def test_a_redelivered_message_takes_over_its_own_lost_run(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    jobs.claim(hint.pk, "task-1")
    assert jobs.claim(hint.pk, "task-1", redelivered=False) is None
    assert jobs.claim(hint.pk, "other", redelivered=True) is None
    assert jobs.claim(hint.pk, "task-1", redelivered=True) == 2


def test_a_message_takes_over_when_its_claimant_process_on_this_host_is_dead(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    """The filesystem broker does not flag a requeued message as redelivered; a dead
    claimant process on this host says the same."""
    import os
    import socket
    import subprocess

    dead = subprocess.Popen(["true"])
    dead.wait()
    here = socket.gethostname()
    hint, _ = ask(alice)
    assert jobs.claim(hint.pk, "task-1", claimant=f"{here}:{os.getpid()}") == 1
    assert jobs.claim(hint.pk, "task-1") is None  # the claimant (this process) lives
    HintRequest.objects.filter(pk=hint.pk).update(claimed_by=f"elsewhere:{dead.pid}")
    assert jobs.claim(hint.pk, "task-1") is None  # another host: the reaper decides
    HintRequest.objects.filter(pk=hint.pk).update(claimed_by=f"{here}:{dead.pid}")
    assert jobs.claim(hint.pk, "task-2") is None  # another message never takes over
    assert jobs.claim(hint.pk, "task-1", claimant="me") == 2


def test_a_job_that_loses_its_worker_three_times_fails(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    jobs.claim(hint.pk, "task-1")
    jobs.claim(hint.pk, "task-1", redelivered=True)
    jobs.claim(hint.pk, "task-1", redelivered=True)
    assert jobs.claim(hint.pk, "task-1", redelivered=True) is None
    hint.refresh_from_db()
    assert hint.status == Status.FAILED
    assert hint.failure == HintRequest.Failure.WORKER_LOST
    assert hint.can_retry


def test_a_run_stores_the_result_and_progress(
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hint, _ = ask(alice)
    seen: list[tuple[int, str, int, int]] = []
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0.0)

    def fake_recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        for percent, stage in (
            (0, Stage("search")),
            (40, Stage("racing", 2, 4)),
            (97, Stage("odds")),
        ):
            progress(percent, stage, None)
            row = HintRequest.objects.get(pk=hint.pk)
            seen.append((row.progress, row.stage, row.stage_round, row.stage_of))
        return fake_result()

    monkeypatch.setattr(jobs, "recommend", fake_recommend)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert seen == [(0, "search", 0, 0), (40, "racing", 2, 4), (97, "odds", 0, 0)]
    assert hint.status == Status.DONE
    assert hint.progress == 100
    assert hint.finished_at is not None
    assert hint.result is not None
    assert hint.result["words"] == "Mik hoog."  # the asker's language …
    assert hint.result["words_all"]["ja"] == "高く。"  # … and all three
    # Pages word the stored plan when they read it (with the row's names, if any).
    assert hint.words("ja").startswith("目標はだいたい4、8、12、16、20、24。")
    assert hint.result["partial"] is False


def test_the_soft_time_limit_stores_the_best_plan_so_far_as_partial(
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hint, _ = ask(alice)

    def slow_recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(50, Stage("racing", 2, 4), fake_result(partial=True, rate=0.55))
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(jobs, "recommend", slow_recommend)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert hint.status == Status.DONE
    assert hint.partial
    assert hint.result is not None
    assert hint.result["partial"] is True
    assert hint.result["pass_rate"] == 0.55


def test_the_soft_time_limit_before_any_plan_fails_the_hint(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)

    def slow_recommend(*args: Any, **kwargs: Any) -> HintResult:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(jobs, "recommend", slow_recommend)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.TIME_LIMIT)


def test_a_solver_crash_fails_the_hint_with_a_reason(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)

    def broken(*args: Any, **kwargs: Any) -> HintResult:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(jobs, "recommend", broken)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.CRASHED)
    assert "ZeroDivisionError" in hint.error


def test_a_cancelled_run_stops_at_its_next_progress_write(
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0.0)
    reached: list[int] = []

    def recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(10, Stage("search"), None)
        services.cancel(HintRequest.objects.get(pk=hint.pk))
        progress(20, Stage("search"), None)
        reached.append(20)
        return fake_result()

    monkeypatch.setattr(jobs, "recommend", recommend)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert reached == []
    assert hint.status == Status.CANCELLED
    assert hint.result is None


@pytest.fixture
def flaky_updates(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[..., bool]], list[str]]:
    """flaky_updates(when) makes QuerySet.update raise 'database table is locked' once for
    the first call whose keyword arguments satisfy ``when``; returns a log of raises."""
    from django.db import OperationalError as DatabaseOperationalError
    from django.db.models.query import QuerySet

    def install(when: Callable[..., bool]) -> list[str]:
        raised: list[str] = []
        real_update = QuerySet.update

        def update(self: Any, **kwargs: Any) -> int:
            if not raised and when(**kwargs):
                raised.append("locked")
                raise DatabaseOperationalError("database table is locked")
            return real_update(self, **kwargs)

        monkeypatch.setattr(QuerySet, "update", update)
        monkeypatch.setattr(jobs.time, "sleep", lambda seconds: None)
        return raised

    return install


def test_a_busy_database_skips_a_progress_write_not_the_job(
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    flaky_updates: Callable[[Callable[..., bool]], list[str]],
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0.0)

    def recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(10, Stage("search"), None)
        progress(20, Stage("search"), None)
        return fake_result()

    monkeypatch.setattr(jobs, "recommend", recommend)
    raised = flaky_updates(lambda **kw: kw.get("progress") == 10)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert raised == ["locked"]
    assert hint.status == Status.DONE


def test_the_result_write_is_retried_when_the_database_is_busy(
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    flaky_updates: Callable[[Callable[..., bool]], list[str]],
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(jobs, "recommend", lambda *args, **kwargs: fake_result())
    raised = flaky_updates(lambda **kw: kw.get("status") == Status.DONE)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert raised == ["locked"]
    assert hint.status == Status.DONE
    assert hint.result is not None


# --- keeping the queue honest ------------------------------------------------------------------


def test_the_reaper_requeues_a_silent_running_row(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    sent: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    hint, _ = ask(alice)
    fresh, _ = ask(alice, face_up=5)
    jobs.claim(hint.pk, "task-1")
    jobs.claim(fresh.pk, "task-2")
    HintRequest.objects.filter(pk=hint.pk).update(
        beat_at=timezone.now() - jobs.stale_after() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.reap_stale() == (1, 0)
    hint.refresh_from_db()
    fresh.refresh_from_db()
    assert hint.status == Status.QUEUED
    assert fresh.status == Status.RUNNING
    assert sent[-1] == hint.pk


def _claimed_by_node(hint: HintRequest, node: str, silent_for: timedelta) -> None:
    """The row as a run on worker `node` left it, its last progress `silent_for` ago."""
    HintRequest.objects.filter(pk=hint.pk).update(
        claimed_by=jobs.this_process(node), beat_at=timezone.now() - silent_for
    )


def test_the_reaper_requeues_at_once_the_job_of_a_worker_node_that_stopped_beating(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    sent: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Silent for three heartbeat periods, not for the hard time limit plus 30 s: the node
    that claimed it wrote no heartbeat since."""
    quiet = heartbeat.silent_after() + timedelta(seconds=1)
    assert quiet < jobs.stale_after() / 5
    dead, _ = ask(alice)
    jobs.claim(dead.pk, "task-1")
    _claimed_by_node(dead, heartbeat.node_id("gone@host"), quiet)
    WorkerHeartbeat.objects.create(
        hostname="gone@host",
        incarnation=heartbeat.INCARNATION,
        last_seen=timezone.now() - quiet,
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.reap_stale() == (1, 0)
    dead.refresh_from_db()
    assert (dead.status, dead.progress, dead.sent_at is not None) == (Status.QUEUED, 0, True)
    assert sent[-1] == dead.pk


def test_the_reaper_leaves_the_job_of_a_live_node_and_a_job_still_writing(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    quiet = heartbeat.silent_after() + timedelta(seconds=1)
    on_live_node, _ = ask(alice)
    writing, _ = ask(alice, face_up=5)
    jobs.claim(on_live_node.pk, "task-1")
    jobs.claim(writing.pk, "task-2")
    heartbeat.beat("alive@host")
    # A live node's job may be quiet for a while (a long stage): the node vouches for it.
    _claimed_by_node(on_live_node, heartbeat.node_id("alive@host"), quiet)
    # A dead node's job that still writes progress (an orphaned pool process) runs on.
    _claimed_by_node(writing, heartbeat.node_id("gone@host"), timedelta(seconds=1))
    assert jobs.reap_stale() == (0, 0)
    assert set(HintRequest.objects.values_list("status", flat=True)) == {Status.RUNNING}


def test_a_worker_node_restarted_under_its_name_does_not_vouch_for_its_dead_start(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    """A supervisor (make run) or a container restart starts a worker with the same node
    name: its heartbeats are a new start's, and the old start's jobs are reaped."""
    hint, _ = ask(alice)
    jobs.claim(hint.pk, "task-1")
    _claimed_by_node(hint, "celery@host#an-earlier-start", heartbeat.silent_after() * 2)
    heartbeat.beat("celery@host")  # this start, fresh
    assert jobs.reap_stale() == (1, 0)


def test_a_run_names_its_worker_node_in_the_claim(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    fake_result: Callable[..., HintResult],
) -> None:
    monkeypatch.setattr(jobs, "recommend", lambda *args, **kwargs: fake_result())
    hint, _ = ask(alice)
    jobs.run(hint.pk, "task-1", node=heartbeat.node_id("worker1@host"))
    hint.refresh_from_db()
    assert hint.status == Status.DONE
    assert jobs.claimed_node(hint.claimed_by) == heartbeat.node_id("worker1@host")
    assert jobs.claimed_node(jobs.this_process()) == ""


def test_the_reaper_fails_a_row_that_ran_too_often(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    jobs.claim(hint.pk, "task-1")
    HintRequest.objects.filter(pk=hint.pk).update(
        runs=jobs.MAX_RUNS, beat_at=timezone.now() - jobs.stale_after() * 2
    )
    assert jobs.reap_stale() == (0, 1)
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.WORKER_LOST)


def test_the_resender_sends_rows_the_broker_never_got(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, sent: list[int]
) -> None:
    unsent, _ = ask(alice)
    recent, _ = ask(alice, face_up=5)
    HintRequest.objects.filter(pk=unsent.pk).update(
        sent_at=None, queued_at=timezone.now() - timedelta(seconds=30)
    )
    HintRequest.objects.filter(pk=recent.pk).update(sent_at=None)
    sent.clear()
    assert jobs.resend_queued() == 1
    assert sent == [unsent.pk]
    unsent.refresh_from_db()
    assert unsent.sent_at is not None


def test_cleanup_deletes_finished_hints_older_than_30_days(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    old, _ = ask(alice)
    kept, _ = ask(alice, face_up=5)
    HintRequest.objects.filter(pk=old.pk).update(
        status=Status.CANCELLED, queued_at=timezone.now() - timedelta(days=31)
    )
    assert jobs.clean_old() == 1
    assert list(HintRequest.objects.values_list("pk", flat=True)) == [kept.pk]


def test_cleanup_keeps_a_groups_hints_with_its_history(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, campaign: Campaign
) -> None:
    """The table's slip rate, the calibration, the recaps and the export read a group's old
    hints: they stay while their campaign does."""
    grouped, _ = ask(alice)
    loose, _ = ask(alice, face_up=5)
    HintRequest.objects.filter(pk__in=[grouped.pk, loose.pk]).update(
        status=Status.CANCELLED, queued_at=timezone.now() - timedelta(days=400)
    )
    HintRequest.objects.filter(pk=grouped.pk).update(group=campaign.group, campaign=campaign)
    assert jobs.clean_old() == 1
    assert list(HintRequest.objects.values_list("pk", flat=True)) == [grouped.pk]
