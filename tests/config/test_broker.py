"""The zero-setup broker (config.broker): a worker polling the queue folder while a message
is being written sees it whole or not at all, never an empty file that stops the worker;
and the development settings use it for the filesystem broker."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection

from config import broker
from tests.config.test_settings import run_manage

QUEUE = "celery"


@pytest.fixture
def connection(tmp_path: Path) -> Iterator[Connection]:
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder)}
    with Connection(
        "filesystem://", transport="config.broker:Transport", transport_options=options
    ) as conn:
        yield conn


def _poll(channel: Any) -> Any:
    """What a worker's poll finds now: a message, or None."""
    try:
        return channel._get(QUEUE)
    except Empty:
        return None


def test_a_poll_while_a_message_is_written_finds_nothing_then_the_whole_message(
    connection: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    producer: Any = connection.channel()
    worker: Any = connection.channel()
    seen = []
    real_dumps, real_replace = broker.dumps, os.replace

    def dumps(payload: Any) -> str:  # the message is being written
        seen.append(("writing", _poll(worker)))
        return str(real_dumps(payload))

    def replace(source: str, target: str) -> None:  # written, not yet in place
        seen.append(("written", _poll(worker)))
        real_replace(source, target)

    monkeypatch.setattr(broker, "dumps", dumps)
    monkeypatch.setattr(broker.os, "replace", replace)
    producer._put(QUEUE, {"body": "hint 2", "n": 1})
    assert seen == [("writing", None), ("written", None)]
    assert _poll(worker) == {"body": "hint 2", "n": 1}
    assert _poll(worker) is None


def test_every_message_arrives_whole_while_a_worker_polls_all_the_time(
    connection: Connection,
) -> None:
    producer: Any = connection.channel()
    worker: Any = connection.channel()
    count = 400
    received: list[Any] = []
    failures: list[BaseException] = []

    def consume() -> None:
        try:
            while len(received) < count:
                message = _poll(worker)
                if message is not None:
                    received.append(message)
        except BaseException as error:  # an empty file: what stopped the worker
            failures.append(error)

    thread = threading.Thread(target=consume)
    thread.start()
    for n in range(count):
        producer._put(QUEUE, {"n": n, "body": "x" * 2000})
    thread.join(timeout=60)
    assert not failures and not thread.is_alive()
    assert sorted(m["n"] for m in received) == list(range(count))
    assert all(m["body"] == "x" * 2000 for m in received)


def test_the_development_settings_use_it_for_the_filesystem_broker() -> None:
    code = "from django.conf import settings as s; print(s.CELERY_BROKER_TRANSPORT)"
    answer = run_manage({"CELERY_BROKER_URL": "filesystem://"}, "shell", "-c", code)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip().endswith("config.broker:Transport")
    code = "from django.conf import settings as s; print(hasattr(s, 'CELERY_BROKER_TRANSPORT'))"
    answer = run_manage({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/9"}, "shell", "-c", code)
    assert answer.stdout.strip().endswith("False")
