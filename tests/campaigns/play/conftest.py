"""The play room's fixtures: the live board's address, its version after each change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client

from campaigns.models import Group


@pytest.fixture
def committed(django_capture_on_commit_callbacks: OnCommit) -> Callable[[], Any]:
    """A block whose changes are committed as far as the live version knows: the version
    changes when a transaction commits, which a test's own transaction never does."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def members_etag(group: Group, as_role: Callable[[str], Client]) -> Iterator[str]:
    yield as_role("member").get(_live(group))["ETag"]


OnCommit = Callable[..., AbstractContextManager[Any]]


def _live(group: Group) -> str:
    return f"/groups/{group.pk}/live/"
