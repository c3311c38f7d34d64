"""Shared fixtures: a cast of users (as in healthchecks' hc/test.py) and a live Celery worker.

Alice, Bob, Charlie and Dave are plain accounts; apps give them roles in their own
conftest (e.g. Alice owns a group, Bob is a member, Dave a viewer, Charlie an outsider).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User
from django.test import Client

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
