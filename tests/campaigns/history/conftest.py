"""The history room's fixtures: imports long enough to watch, the owner's API client."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from campaigns.history import imports


@pytest.fixture
def long_imports(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Any history of more than 3 events is long; batches of 2 events."""
    settings.IMPORT_INLINE_EVENTS = 3
    monkeypatch.setattr(imports, "IMPORT_BATCH", 2)


@pytest.fixture
def owner_api(alice: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(alice)
    return client
