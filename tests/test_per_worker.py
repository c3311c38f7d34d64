"""Each pytest-xdist worker has a var folder and a Redis database of its own
(tests/per_worker.py), so two workers' live Celery workers, SQLite files and broker queues
never meet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app as celery_app
from tests.per_worker import ROOT, worker_environment


def test_outside_xdist_nothing_changes() -> None:
    environ = {"TIMEKEEPER_VAR_DIR": "/srv/var", "CELERY_BROKER_URL": "redis://r:6379/9"}
    assert worker_environment(environ) == {}


def test_each_worker_gets_a_var_folder_of_its_own() -> None:
    folders = {
        worker_environment({"PYTEST_XDIST_WORKER": worker, "TIMEKEEPER_VAR_DIR": "/srv/var"})[
            "TIMEKEEPER_VAR_DIR"
        ]
        for worker in ("gw0", "gw1")
    }
    assert folders == {"/srv/var/gw0", "/srv/var/gw1"}


def test_without_a_var_folder_a_worker_takes_one_under_the_projects_var() -> None:
    changes = worker_environment({"PYTEST_XDIST_WORKER": "gw1"})
    assert changes == {"TIMEKEEPER_VAR_DIR": str(ROOT / "var" / "gw1")}


@pytest.mark.parametrize(
    ("broker", "worker", "expected"),
    [
        ("redis://127.0.0.1:6379/9", "gw0", "redis://127.0.0.1:6379/9"),
        ("redis://127.0.0.1:6379/9", "gw1", "redis://127.0.0.1:6379/10"),
        ("rediss://:secret@cache:6380/2", "gw3", "rediss://:secret@cache:6380/5"),
        ("redis://127.0.0.1:6379", "gw1", "redis://127.0.0.1:6379/1"),
    ],
)
def test_each_worker_gets_a_redis_database_of_its_own(
    broker: str, worker: str, expected: str
) -> None:
    changes = worker_environment({"PYTEST_XDIST_WORKER": worker, "CELERY_BROKER_URL": broker})
    assert changes["CELERY_BROKER_URL"] == expected


def test_the_filesystem_broker_is_left_to_the_var_folder() -> None:
    changes = worker_environment(
        {"PYTEST_XDIST_WORKER": "gw1", "CELERY_BROKER_URL": "filesystem://"}
    )
    assert "CELERY_BROKER_URL" not in changes


def test_this_worker_uses_its_own_folder_and_broker_before_django_read_its_settings() -> None:
    """Under xdist (make test) the settings Django read already name this worker's folder:
    the plugin ran before pytest-django imported them."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("not under pytest-xdist: run with -n 2")
    assert Path(settings.VAR_DIR).name == worker
    assert os.environ["TIMEKEEPER_VAR_DIR"] == str(settings.VAR_DIR)
    if settings.BROKER_IS_FILESYSTEM:
        queue = celery_app.conf.broker_transport_options["data_folder_in"]
        assert Path(queue).is_relative_to(settings.VAR_DIR)
    else:
        assert celery_app.conf.broker_url == os.environ["CELERY_BROKER_URL"]
