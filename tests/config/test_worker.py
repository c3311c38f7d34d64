"""End to end through the real broker (Redis in CI) and a real Celery worker."""

import time
from typing import Any

import pytest
from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction

from ops.heartbeat import live_workers

pytestmark = pytest.mark.integration


@shared_task(name="tests.rename_user")
def rename_user(user_id: int, name: str) -> None:
    User.objects.filter(pk=user_id).update(first_name=name)


def wait_for(predicate: Any, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_ci_runs_integration_tests_on_redis() -> None:
    import os

    if os.environ.get("CI") != "true":
        pytest.skip("only CI must use Redis; locally the embedded broker is fine")
    assert settings.CELERY_BROKER_URL.startswith("redis://")


def test_ci_runs_the_database_tests_on_postgresql() -> None:
    # The concurrency tests and the worker-kill tests skip on SQLite (a worker process cannot
    # reach its in-memory test database): losing DATABASE_URL in CI must fail here instead of
    # turning them into silent skips.
    import os

    if os.environ.get("CI") != "true":
        pytest.skip("only CI must use PostgreSQL; locally SQLite is fine")
    assert connection.vendor == "postgresql", settings.DATABASES["default"]["ENGINE"]


def test_a_task_sent_on_commit_runs_on_a_live_worker(celery_worker: Any) -> None:
    user = User.objects.create_user("eve")
    with transaction.atomic():
        transaction.on_commit(lambda: rename_user.delay(user.pk, "Eve"))
    assert wait_for(lambda: User.objects.get(pk=user.pk).first_name == "Eve")


def test_a_live_worker_writes_heartbeats(celery_worker: Any) -> None:
    assert wait_for(lambda: live_workers() >= 1, timeout=10)
