"""An exported history keeps when each attempt, skip and retrieval was recorded (format
version 2 on), the import restores those times, and version 1 and 2 histories still
import."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from campaigns.history import exports, imports
from campaigns.models import Attempt, Campaign, Event, Group

pytestmark = pytest.mark.django_db
EVENING = datetime(2026, 11, 3, 19, 30, tzinfo=UTC)


def _played_last_month(campaign: Campaign, play: Callable[..., Attempt]) -> None:
    for minutes, outcome in enumerate(["failed", "failed", "passed"]):
        attempt = play(campaign, outcome, duration=timedelta(minutes=7))
        when = EVENING + timedelta(minutes=10 * minutes)
        Attempt.objects.filter(pk=attempt.pk).update(created=when)
        Event.objects.filter(pk=attempt.event_id).update(created=when)


def test_the_export_says_when_each_event_was_recorded(
    group: Group, campaign: Campaign, play: Callable[..., Attempt]
) -> None:
    _played_last_month(campaign, play)
    history = exports.export_history(group)
    assert history["version"] == exports.VERSION >= 2
    events = history["campaigns"][0]["history"]
    assert [e["at"] for e in events] == [
        "2026-11-03T19:30:00+00:00",
        "2026-11-03T19:40:00+00:00",
        "2026-11-03T19:50:00+00:00",
    ]
    assert {e["duration_min"] for e in events} == {7}


def test_the_import_restores_the_times_not_just_now(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], alice: User
) -> None:
    _played_last_month(campaign, play)
    history = exports.export_history(group)
    copy = imports.import_history(alice, history)
    attempts = Attempt.objects.filter(campaign__group=copy).order_by("id")
    assert [a.created for a in attempts] == [
        EVENING,
        EVENING + timedelta(minutes=10),
        EVENING + timedelta(minutes=20),
    ]
    assert [a.event.created for a in attempts] == [a.created for a in attempts]
    assert exports.export_history(copy) == {**history, "name": f"{history['name']} (2)"}


def test_a_version_1_history_without_times_still_imports(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], alice: User
) -> None:
    _played_last_month(campaign, play)
    history = exports.export_history(group)
    old = {**history, "version": 1}
    for raw in old["campaigns"]:
        raw["history"] = [{k: v for k, v in e.items() if k != "at"} for e in raw["history"]]
    copy = imports.import_history(alice, old)
    assert Attempt.objects.filter(campaign__group=copy).count() == 3


def test_a_version_2_history_without_hints_still_imports(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], alice: User
) -> None:
    _played_last_month(campaign, play)
    history = exports.export_history(group)
    old = {k: v for k, v in history.items() if k != "hints"}
    copy = imports.import_history(alice, {**old, "version": 2})
    attempts = Attempt.objects.filter(campaign__group=copy).order_by("id")
    assert [a.created for a in attempts][-1] == EVENING + timedelta(minutes=20)
    assert exports.export_history(copy) == {**history, "name": f"{history['name']} (2)"}
