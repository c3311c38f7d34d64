"""Shared fixtures: a cast of users (as in healthchecks' hc/test.py), their group, clients
for the pages and the API, and a live Celery worker.

Alice, Bob, Charlie and Dave are plain accounts. In ``group`` ("Tuesday table", players Ann,
Ben and Cleo) Alice is the owner, Bob a member, Dave a viewer, Charlie an outsider.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import kombu.pools
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from campaigns.groups.services import create_group
from campaigns.models import Campaign, Group, Membership
from config.celery import app as celery_app
from tests.workers import running_worker

ROOT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once, in one line, when the compiled translations are missing (they are not
    committed): without them every Dutch and Japanese test fails, with no hint why."""
    missing = [
        str(po.with_suffix(".mo").relative_to(ROOT))
        for po in sorted(ROOT.glob("locale/*/LC_MESSAGES/django.po"))
        if not po.with_suffix(".mo").exists()
    ]
    if missing:
        pytest.exit(f"{', '.join(missing)} missing: run make install", returncode=4)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Every test starts in English, whatever language a request before it activated; a
    test that wants another one says so (``translation.override("nl")``, a request with
    ``Accept-Language``)."""
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _quick_clock_priors(settings: Any) -> None:
    """A clock's own prior (``solver.clock_priors``) from one quick search, not a minute of
    long ones, wherever a test prefills a clock with special rules."""
    settings.CLOCK_PRIOR_EFFORT = 0.05
    settings.CLOCK_PRIOR_SEARCHES = 1


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
def group(alice: User, bob: User, dave: User, charlie: User) -> Group:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    Membership.objects.create(group=group, user=dave, role=Membership.Role.VIEWER)
    return group


@pytest.fixture
def campaign(group: Group) -> Campaign:
    return group.current_campaign()


@pytest.fixture
def users(alice: User, bob: User, dave: User, charlie: User) -> dict[str, User]:
    return {"owner": alice, "member": bob, "viewer": dave, "outsider": charlie}


@pytest.fixture
def api() -> Callable[[User], APIClient]:
    def _api(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return _api


@pytest.fixture
def as_role(users: dict[str, User], login: Callable[[User], Client]) -> Callable[[str], Client]:
    return lambda role: login(users[role])


@pytest.fixture
def api_as(users: dict[str, User], api: Callable[[User], APIClient]) -> Callable[[str], APIClient]:
    return lambda role: api(users[role])


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[Any]:
    """A real Celery worker, in a thread of this process, consuming from the configured
    broker (Redis in CI, the filesystem broker locally), writing to the test database.

    Needs transactional_db: the worker's thread has its own database connection and only
    sees committed rows, just like a worker process in production.
    """
    with running_worker(celery_app, shutdown_timeout=30) as worker:
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


def use_broker(url: str, options: dict[str, Any]) -> None:
    """Point the Celery app (senders and workers) at another broker, with fresh connection
    and producer pools (kombu keeps producer pools per broker in a global registry): for
    the tests that stop a broker of their own."""
    app: Any = celery_app
    app.conf.broker_url = url
    app.conf.broker_transport_options = options
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
