"""campaigns.tasks: the community figures are refreshed by a periodic task that a real
worker runs; requests only read the table it writes."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User
from django.db import OperationalError

from campaigns.groups.services import create_group
from campaigns.models import CommunityClock, CommunityShare
from campaigns.play.services import record_attempt
from campaigns.tasks import refresh_community_figures
from config.celery import app


def _refreshed() -> bool:
    try:
        return CommunityClock.objects.exists()
    except OperationalError:  # SQLite: the worker's transaction holds the table for now
        return False


def test_the_refresh_is_scheduled_with_beat() -> None:
    tasks = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert refresh_community_figures.name in tasks


def test_a_worker_refreshes_the_community_figures(celery_worker: Any, alice: User) -> None:
    for n in range(2):
        group = create_group(alice, f"Table {n}")
        record_attempt(group.current_campaign(), alice, "1-1", "passed", 3)
    refresh_community_figures.delay()
    deadline = time.monotonic() + 60
    while not _refreshed() and time.monotonic() < deadline:
        time.sleep(0.1)
    row = CommunityClock.objects.get()
    assert (row.clock_id, row.groups, row.histogram) == ("1-1", 2, {"1": 2})
    assert CommunityShare.objects.count() == 2
