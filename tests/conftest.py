"""Shared fixtures: a cast of users (as in healthchecks' hc/test.py) and a live Celery worker.

Alice, Bob, Charlie and Dave are plain accounts; apps give them roles in their own
conftest (e.g. Alice owns a group, Bob is a member, Dave a viewer, Charlie an outsider).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Throttle counts live in the cache, which outlives a test (and test users' ids are
    reused): every test starts with none. django-axes counts failed log-ins in the database,
    which each test gets fresh."""
    cache.clear()
    yield
    cache.clear()


def _user(username: str) -> User:
    return User.objects.create_user(username, f"{username}@example.org", "password")


@pytest.fixture
def alice(db: None) -> User:
    return _user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return _user("bob")


@pytest.fixture
def charlie(db: None) -> User:
    return _user("charlie")


@pytest.fixture
def dave(db: None) -> User:
    return _user("dave")


@pytest.fixture
def login() -> Callable[[User], Client]:
    """login(user) -> a test Client logged in as that user."""

    def _login(user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return _login


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[Any]:
    """A real Celery worker, in a thread of this process, consuming from the configured
    broker (Redis in CI, the filesystem broker locally), writing to the test database.

    Needs transactional_db: the worker's thread has its own database connection and only
    sees committed rows, just like a worker process in production.
    """
    with start_worker(
        celery_app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=30,
        loglevel="WARNING",
    ) as worker:
        yield worker


class RedisServer:
    """A Redis server of one test's own, on a free port, which the test may stop and start
    again on the same port without harming any other test (or CI's shared Redis)."""

    def __init__(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            pytest.skip("redis-server is not installed")
        self.server = server
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.server, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.accepts():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def accepts(self) -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A RedisServer not yet started; stopped after the test."""
    server = RedisServer()
    yield server
    server.stop()
