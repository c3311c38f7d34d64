"""solver.services: asking for a hint (dedupe, reuse, limits, sending after commit) and
cancelling one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from rules.catalogue import get_clock
from solver import services
from solver.core.search.search import HintResult
from solver.errors import HintLimitReached
from solver.hint_inputs import parse_input
from solver.jobs import claim
from solver.models import HintRequest
from solver.results import result_json

pytestmark = pytest.mark.django_db

Status = HintRequest.Status


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
        services.request_hint(alice, parse_input("1-1", "SSM/MMS/SMM/SSM", None))
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
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    bob: User,
    sent: list[int],
) -> None:
    first, _ = ask(alice)
    claim(first.pk, "task-1")
    HintRequest.objects.filter(pk=first.pk).update(
        status=Status.DONE,
        finished_at=timezone.now(),
        result=result_json(fake_result(), "nl"),
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
    fake_result: Callable[..., HintResult],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    sent: list[int],
) -> None:
    old, _ = ask(alice, face_up=4)
    partial, _ = ask(alice, face_up=5)
    HintRequest.objects.filter(pk=old.pk).update(
        status=Status.DONE,
        finished_at=timezone.now() - timedelta(days=1, minutes=1),
        result=result_json(fake_result(), "en"),
    )
    HintRequest.objects.filter(pk=partial.pk).update(
        status=Status.DONE,
        partial=True,
        finished_at=timezone.now(),
        result=result_json(fake_result(partial=True), "en"),
    )
    assert ask(alice, face_up=4)[0].status == Status.QUEUED
    assert ask(alice, face_up=5)[0].status == Status.QUEUED
    assert len(sent) == 4


def test_a_fourth_active_hint_is_refused(
    ask: Callable[..., tuple[HintRequest, bool]], alice: User, bob: User
) -> None:
    for face_up in (4, 5, 6):
        ask(alice, face_up=face_up)
    with pytest.raises(HintLimitReached, match="3"):
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
    with pytest.raises(HintLimitReached, match="30"):
        ask(alice, face_up=5)
    HintRequest.objects.update(queued_at=timezone.now() - timedelta(minutes=61))
    assert ask(alice, face_up=5)[1]


def test_broker_down_keeps_the_row_queued_and_unsent(
    alice: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("solver.jobs.app.send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        hint, created = services.request_hint(alice, parse_input("1-1", "SSM/MMS/SMM/SSM", None))
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
    assert claim(hint.pk, "late-message") is None
