"""/healthz (ops.views): the database, the broker and the workers' heartbeats."""

import time
from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError
from django.test import Client

from config.celery import app as celery_app
from ops.heartbeat import beat, forget, live_workers

pytestmark = pytest.mark.django_db


def test_it_reports_ok_with_no_workers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "workers": 0, "starting": 0}


def test_it_counts_workers_by_recent_heartbeats(client: Client, settings: Any) -> None:
    beat("celery@one")
    beat("celery@two")
    assert client.get("/healthz").json()["workers"] == 2
    forget("celery@two")
    assert live_workers() == 1


def test_stale_heartbeats_do_not_count(client: Client, settings: Any) -> None:
    beat("celery@old")
    settings.WORKER_HEARTBEAT_SECONDS = 0
    time.sleep(0.01)
    assert client.get("/healthz").json()["workers"] == 0


def test_it_rejects_post(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


def test_it_answers_503_when_the_database_is_down(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise DatabaseError("connection refused")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"


@pytest.mark.integration
def test_it_answers_503_when_the_redis_broker_stops(
    client: Client, settings: Any, redis_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis_server.start()
    settings.BROKER_IS_FILESYSTEM = False
    settings.CELERY_BROKER_URL = redis_server.url
    # Without Redis in the environment the app was configured for the embedded broker, whose
    # transport would take any URL: configure it as for Redis, as settings would.
    monkeypatch.setitem(celery_app.conf, "broker_transport", None)
    assert client.get("/healthz").status_code == 200
    redis_server.stop()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "down", "workers": 0, "starting": 0}


def test_it_answers_503_when_the_filesystem_broker_is_gone(
    client: Client, settings: Any, tmp_path: Path
) -> None:
    settings.BROKER_IS_FILESYSTEM = True
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(tmp_path / "queue")}
    (tmp_path / "queue").mkdir()
    assert client.get("/healthz").status_code == 200
    (tmp_path / "queue").rmdir()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "down", "workers": 0, "starting": 0}
