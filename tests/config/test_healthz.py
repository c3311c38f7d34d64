import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError
from django.test import Client

from ops.heartbeat import beat, forget, live_workers

pytestmark = pytest.mark.django_db


def test_it_reports_ok_with_no_workers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "workers": 0}


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def own_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis server of this test's own, so stopping it harms no other test."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0", proc
    proc.kill()
    proc.wait()


@pytest.mark.integration
def test_it_answers_503_when_the_redis_broker_stops(
    client: Client, settings: Any, own_redis: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, proc = own_redis
    settings.BROKER_IS_FILESYSTEM = False
    settings.CELERY_BROKER_URL = url
    assert client.get("/healthz").status_code == 200
    proc.terminate()
    proc.wait()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "down", "workers": 0}


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
    assert response.json() == {"database": "ok", "broker": "down", "workers": 0}
