"""Each finished hint keeps its pass curve (solver.pass_curves): the job computes it, beat
fills the hints answered without a job."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from campaigns.models import Group
from rules.catalogue import get_clock
from solver import jobs, pass_curves
from solver.core.search.search import HintResult
from solver.core.table.slip_rate import GRID
from solver.models import HintRequest
from tests.solver.conftest import a_result


def _done_hint(user: User, group: Group | None, result: Mapping[str, Any]) -> HintRequest:
    """A finished hint as the plan book answers one: done, no job ran, no curve yet."""
    now = timezone.now()
    return HintRequest.objects.create(
        user=user,
        group=group,
        clock_id="1-1",
        clock_definition=_clock_json(),
        colours="SSM/MMS/SMM/SSM",
        players=4,
        face_up=4,
        input_hash="x",
        status=HintRequest.Status.DONE,
        result=result,
        from_plan_book=True,
        finished_at=now,
    )


def _clock_json() -> dict[str, Any]:
    return get_clock("1-1").to_json()


def test_a_finished_job_keeps_its_hints_pass_curve(
    ask: Callable[..., tuple[HintRequest, bool]],
    fake_result: Callable[..., HintResult],
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hint, _ = ask(alice)
    monkeypatch.setattr(jobs, "recommend", lambda *args, **kwargs: fake_result())
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert hint.status == HintRequest.Status.DONE
    assert hint.pass_curve is not None and hint.pass_curve["rates"] == list(GRID)
    passes = hint.pass_curve["passes"]
    assert len(passes) == len(GRID) and passes[0] > passes[-1]


def test_beat_fills_the_curve_of_a_hint_answered_from_the_plan_book(
    alice: User, group: Group
) -> None:
    hint = _done_hint(alice, group, a_result().to_json())
    assert pass_curves.fill_missing() == 1
    hint.refresh_from_db()
    assert hint.pass_curve is not None and hint.pass_curve["rates"] == list(GRID)
    assert pass_curves.fill_missing() == 0  # once only


def test_a_hint_without_a_plan_keeps_an_empty_curve_and_is_not_tried_again(
    alice: User, group: Group
) -> None:
    hint = _done_hint(alice, group, {"pass_rate": 0.5, "words": "Aim high."})
    assert pass_curves.fill_missing() == 1
    hint.refresh_from_db()
    assert hint.pass_curve == {}
    assert pass_curves.fill_missing() == 0
