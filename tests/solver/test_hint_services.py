"""HintRequest and solver.services: input checks, dedupe, reuse, limits, the claim, the run
(with a stand-in for the solver core, so these run in milliseconds), reaper, resender,
cleanup."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver import services
from solver.core.plans import baseline_plan
from solver.core.search import HintResult
from solver.models import HintRequest

pytestmark = pytest.mark.django_db

Status = HintRequest.Status


def fake_result(partial: bool = False, rate: float = 0.6) -> HintResult:
    clock, seats = get_clock("1-1"), parse_colours("SSM/MMS/SMM/SSM")
    return HintResult(
        plan=baseline_plan(clock, seats, 4),
        pass_rate=rate,
        interval=(rate - 0.05, rate + 0.05),
        baseline_rate=0.4,
        odds=0.9,
        games=1000,
        words={"en": "Aim high.", "nl": "Mik hoog.", "ja": "高く。"},
        partial=partial,
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Messages 'sent' to the broker (no broker involved)."""
    ids: list[int] = []

    def fake_apply_async(args: tuple[int], **kwargs: Any) -> None:
        ids.append(args[0])

    monkeypatch.setattr("solver.tasks.run_hint.apply_async", fake_apply_async)
    return ids


@pytest.fixture
def ask(
    sent: list[int], django_capture_on_commit_callbacks: Any
) -> Callable[..., tuple[HintRequest, bool]]:
    """ask(user, clock="1-1", colours=..., face_up=None) → (row, created), after commit."""

    def _ask(
        user: User, clock: Any = "1-1", colours: str = "SSM/MMS/SMM/SSM", face_up: Any = None
    ) -> tuple[HintRequest, bool]:
        with django_capture_on_commit_callbacks(execute=True):
            hint_input = services.parse_input(clock, colours, face_up)
            return services.request_hint(user, hint_input, lang="nl")

    return _ask


# --- input ----------------------------------------------------------------------------------


def test_face_up_defaults_to_the_player_count() -> None:
    assert services.parse_input("1-1", "SSMM+SM/SMMM+SS", None).face_up == 2


@pytest.mark.parametrize(
    ("clock", "colours", "face_up", "field"),
    [
        ("9-9", "SSM/MMS/SMM/SSM", None, "clock"),
        ("2-1", "SSM/MMS/SMM/SSM", None, "clock"),  # not transcribed
        ({"id": "x"}, "SSM/MMS/SMM/SSM", None, "clock"),
        (7, "SSM/MMS/SMM/SSM", None, "clock"),
        ("1-1", "SSM/MMS", None, "colours"),
        ("1-1", "SSX/MMS/SMM/SSM", None, "colours"),
        ("1-1", 12, None, "colours"),
        ("1-1", "SSM/MMS/SMM/SSM", 8, "face_up"),
        ("1-1", "SSM/MMS/SMM/SSM", -1, "face_up"),
        ("1-1", "SSM/MMS/SMM/SSM", "many", "face_up"),
    ],
)
def test_bad_input_names_its_field(clock: Any, colours: Any, face_up: Any, field: str) -> None:
    with pytest.raises(services.HintError) as caught:
        services.parse_input(clock, colours, face_up)
    assert caught.value.field == field
    assert caught.value.message


def test_an_untranscribed_clock_is_accepted_under_the_base_rules() -> None:
    hint_input = services.parse_input("2-1", "SSM/MMS/SMM/SSM", 4, base_rules=True)
    assert hint_input.base_rules


def test_the_input_hash_ignores_spacing_and_case_of_the_colours() -> None:
    a = services.parse_input("1-1", "ssm/mms/smm/ssm", 4).input_hash(1.0, 0)
    b = services.parse_input("1-1", " SSM / MMS / SMM / SSM ", 4).input_hash(1.0, 0)
    c = services.parse_input("1-1", "SSM/MMS/SMM/SSM", 5).input_hash(1.0, 0)
    assert a == b != c


# --- asking ---------------------------------------------------------------------------------


def test_asking_saves_a_queued_row_and_sends_it_after_commit(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, sent: list[int]
) -> None:
    hint, created = ask(alice)
    assert created
    hint.refresh_from_db()
    assert hint.status == Status.QUEUED
    assert hint.sent_at is not None
    assert sent == [hint.pk]
    assert (hint.players, hint.face_up, hint.lang) == (4, 4, "nl")
    assert hint.clock_definition == get_clock("1-1").to_json()


def test_nothing_is_sent_when_the_transaction_rolls_back(alice: User, sent: list[int]) -> None:
    with transaction.atomic():
        services.request_hint(alice, services.parse_input("1-1", "SSM/MMS/SMM/SSM", None))
        transaction.set_rollback(True)
    assert sent == []
    assert not HintRequest.objects.exists()


def test_a_double_tap_gives_one_job(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, sent: list[int]
) -> None:
    first, created_first = ask(alice)
    second, created_second = ask(alice)
    assert (created_first, created_second) == (True, False)
    assert first.pk == second.pk
    assert sent == [first.pk]


def test_the_database_refuses_two_active_rows_for_one_input(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    hint.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        hint.save()


def test_a_finished_result_is_reused_within_a_day(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, bob: User, sent: list[int]
) -> None:
    first, _ = ask(alice)
    services.claim(first.pk, "task-1")
    HintRequest.objects.filter(pk=first.pk).update(
        status=Status.DONE,
        finished_at=timezone.now(),
        result=services.result_json(fake_result(), "nl"),
    )
    again, created = ask(bob)
    assert created
    assert again.status == Status.DONE
    assert again.reused_from_id == first.pk
    assert again.progress == 100
    assert again.result is not None
    assert again.result["pass_rate"] == 0.6
    assert sent == [first.pk]  # no second job


def test_results_older_than_a_day_or_partial_are_not_reused(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, sent: list[int]
) -> None:
    old, _ = ask(alice, face_up=4)
    partial, _ = ask(alice, face_up=5)
    HintRequest.objects.filter(pk=old.pk).update(
        status=Status.DONE,
        finished_at=timezone.now() - timedelta(days=1, minutes=1),
        result=services.result_json(fake_result(), "en"),
    )
    HintRequest.objects.filter(pk=partial.pk).update(
        status=Status.DONE,
        partial=True,
        finished_at=timezone.now(),
        result=services.result_json(fake_result(partial=True), "en"),
    )
    assert ask(alice, face_up=4)[0].status == Status.QUEUED
    assert ask(alice, face_up=5)[0].status == Status.QUEUED
    assert len(sent) == 4


def test_a_fourth_active_hint_is_refused(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, bob: User
) -> None:
    for face_up in (4, 5, 6):
        ask(alice, face_up=face_up)
    with pytest.raises(services.HintLimitReached, match="3"):
        ask(alice, face_up=7)
    assert ask(bob, face_up=7)[1]  # others are not limited by Alice


def test_the_thirty_first_hint_of_the_hour_is_refused(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    HintRequest.objects.filter(pk=hint.pk).update(status=Status.CANCELLED)
    row = HintRequest.objects.get(pk=hint.pk)
    for _ in range(services.MAX_PER_HOUR - 1):
        row.pk = None
        row.save()
    with pytest.raises(services.HintLimitReached, match="30"):
        ask(alice, face_up=5)
    HintRequest.objects.update(queued_at=timezone.now() - timedelta(minutes=61))
    assert ask(alice, face_up=5)[1]


def test_broker_down_keeps_the_row_queued_and_unsent(
    alice: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("solver.tasks.run_hint.apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        hint, created = services.request_hint(
            alice, services.parse_input("1-1", "SSM/MMS/SMM/SSM", None)
        )
    hint.refresh_from_db()
    assert created
    assert hint.status == Status.QUEUED
    assert hint.sent_at is None
    assert hint.waiting_for_broker


def test_cancel_stops_a_queued_hint_and_leaves_a_done_one(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    assert services.cancel(hint)
    assert hint.status == Status.CANCELLED
    assert not services.cancel(hint)
    assert services.claim(hint.pk, "late-message") is None


# --- the claim and the run --------------------------------------------------------------------


def test_only_a_queued_row_can_be_claimed(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    assert services.claim(hint.pk, "task-1") == 1
    assert services.claim(hint.pk, "task-2") is None  # a duplicate message
    hint.refresh_from_db()
    assert (hint.status, hint.task_id, hint.runs) == (Status.RUNNING, "task-1", 1)
    assert hint.started_at is not None


def test_a_redelivered_message_takes_over_its_own_lost_run(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    services.claim(hint.pk, "task-1")
    assert services.claim(hint.pk, "task-1", redelivered=False) is None
    assert services.claim(hint.pk, "other", redelivered=True) is None
    assert services.claim(hint.pk, "task-1", redelivered=True) == 2


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
    assert services.claim(hint.pk, "task-1", claimant=f"{here}:{os.getpid()}") == 1
    assert services.claim(hint.pk, "task-1") is None  # the claimant (this process) lives
    HintRequest.objects.filter(pk=hint.pk).update(claimed_by=f"elsewhere:{dead.pid}")
    assert services.claim(hint.pk, "task-1") is None  # another host: the reaper decides
    HintRequest.objects.filter(pk=hint.pk).update(claimed_by=f"{here}:{dead.pid}")
    assert services.claim(hint.pk, "task-2") is None  # another message never takes over
    assert services.claim(hint.pk, "task-1", claimant="me") == 2


def test_a_job_that_loses_its_worker_three_times_fails(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    services.claim(hint.pk, "task-1")
    services.claim(hint.pk, "task-1", redelivered=True)
    services.claim(hint.pk, "task-1", redelivered=True)
    assert services.claim(hint.pk, "task-1", redelivered=True) is None
    hint.refresh_from_db()
    assert hint.status == Status.FAILED
    assert hint.failure == HintRequest.Failure.WORKER_LOST
    assert hint.can_retry


def test_a_run_stores_the_result_and_progress(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)
    seen: list[tuple[int, str]] = []
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0.0)

    def fake_recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        for percent, stage in ((0, "search"), (40, "round 2 of 4"), (97, "odds")):
            progress(percent, stage, None)
            row = HintRequest.objects.get(pk=hint.pk)
            seen.append((row.progress, row.stage))
        return fake_result()

    monkeypatch.setattr(services, "recommend", fake_recommend)
    services.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert seen == [(0, "search"), (40, "round 2 of 4"), (97, "odds")]
    assert hint.status == Status.DONE
    assert hint.progress == 100
    assert hint.finished_at is not None
    assert hint.result is not None
    assert hint.result["words"] == "Mik hoog."  # the asker's language …
    assert hint.result["words_all"]["ja"] == "高く。"  # … and all three
    assert hint.words("ja") == "高く。"
    assert hint.result["partial"] is False


def test_the_soft_time_limit_stores_the_best_plan_so_far_as_partial(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)

    def slow_recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(50, "round 2 of 4", fake_result(partial=True, rate=0.55))
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "recommend", slow_recommend)
    services.run(hint.pk, "task-1")
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

    monkeypatch.setattr(services, "recommend", slow_recommend)
    services.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.TIME_LIMIT)


def test_a_solver_crash_fails_the_hint_with_a_reason(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)

    def broken(*args: Any, **kwargs: Any) -> HintResult:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(services, "recommend", broken)
    services.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.CRASHED)
    assert "ZeroDivisionError" in hint.error


def test_a_cancelled_run_stops_at_its_next_progress_write(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0.0)
    reached: list[int] = []

    def recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(10, "search", None)
        services.cancel(HintRequest.objects.get(pk=hint.pk))
        progress(20, "search", None)
        reached.append(20)
        return fake_result()

    monkeypatch.setattr(services, "recommend", recommend)
    services.run(hint.pk, "task-1")
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
        monkeypatch.setattr(services.time, "sleep", lambda seconds: None)
        return raised

    return install


def test_a_busy_database_skips_a_progress_write_not_the_job(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    flaky_updates: Callable[[Callable[..., bool]], list[str]],
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(services, "PROGRESS_EVERY", 0.0)

    def recommend(*args: Any, progress: Any, **kwargs: Any) -> HintResult:
        progress(10, "search", None)
        progress(20, "search", None)
        return fake_result()

    monkeypatch.setattr(services, "recommend", recommend)
    raised = flaky_updates(lambda **kw: kw.get("progress") == 10)
    services.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert raised == ["locked"]
    assert hint.status == Status.DONE


def test_the_result_write_is_retried_when_the_database_is_busy(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    flaky_updates: Callable[[Callable[..., bool]], list[str]],
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(services, "recommend", lambda *args, **kwargs: fake_result())
    raised = flaky_updates(lambda **kw: kw.get("status") == Status.DONE)
    services.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert raised == ["locked"]
    assert hint.status == Status.DONE
    assert hint.result is not None


def test_the_hard_limit_signal_fails_the_row(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    from celery.exceptions import TimeLimitExceeded
    from celery.signals import task_failure

    from solver.tasks import reap_stale_hints, run_hint

    hint, _ = ask(alice)
    services.claim(hint.pk, "task-1")
    # What the worker's main process sends when the hard limit kills the job's process.
    task_failure.send(sender=reap_stale_hints, exception=TimeLimitExceeded(1), args=[hint.pk])
    assert HintRequest.objects.get(pk=hint.pk).status == Status.RUNNING  # another task's
    task_failure.send(sender=run_hint, exception=TimeLimitExceeded(180), args=[hint.pk])
    hint.refresh_from_db()
    assert (hint.status, hint.failure) == (Status.FAILED, HintRequest.Failure.TIME_LIMIT)
    assert "TimeLimitExceeded" in hint.error


# --- keeping the queue honest ------------------------------------------------------------------


def test_the_reaper_requeues_a_silent_running_row(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    sent: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    hint, _ = ask(alice)
    fresh, _ = ask(alice, face_up=5)
    services.claim(hint.pk, "task-1")
    services.claim(fresh.pk, "task-2")
    HintRequest.objects.filter(pk=hint.pk).update(
        beat_at=timezone.now() - services.stale_after() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.reap_stale() == (1, 0)
    hint.refresh_from_db()
    fresh.refresh_from_db()
    assert hint.status == Status.QUEUED
    assert fresh.status == Status.RUNNING
    assert sent[-1] == hint.pk


def test_the_reaper_fails_a_row_that_ran_too_often(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User
) -> None:
    hint, _ = ask(alice)
    services.claim(hint.pk, "task-1")
    HintRequest.objects.filter(pk=hint.pk).update(
        runs=services.MAX_RUNS, beat_at=timezone.now() - services.stale_after() * 2
    )
    assert services.reap_stale() == (0, 1)
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
    assert services.resend_queued() == 1
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
    assert services.clean_old() == 1
    assert list(HintRequest.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_periodic_tasks_are_scheduled() -> None:
    import solver.tasks  # noqa: F401  (as the worker's autodiscovery does)
    from config.celery import app

    app.finalize(auto=True)
    names = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {
        "solver.reap_stale_hints",
        "solver.resend_queued_hints",
        "solver.clean_old_hints",
    } <= names


def test_stage_labels_are_translated_words() -> None:
    hint = HintRequest(status=Status.RUNNING, stage="round 2 of 4")
    assert hint.stage_display() == "Racing plans, round 2 of 4"
    hint.stage = "fine-tuning 3 of 56"
    assert hint.stage_display() == "Fine-tuning the best plan, step 3 of 56"
    hint.stage = "fresh deals: baseline"
    assert hint.stage_display() == "Checking the best plan on fresh deals"
    hint.stage = "odds: deciding 853,776 value sets"
    assert hint.stage_display() == "Working out the odds"
    hint.stage = "something new"
    assert hint.stage_display() == "Searching for a plan"
