"""What if, on a clock with a rule in the table's own words: both rates say "at most" and
the card names the rule neither plan knows. The screenshot docs/screenshots keeps shows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from solver import jobs
from solver.models import HintRequest
from tests.e2e.conftest import DOC_SCREENS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEAREST = "The segment nearest to 10 holds a Moon"
DEFINITION: dict[str, Any] = {
    "id": "4-2",
    "rules": [
        {"kind": "described", "text": NEAREST, "segment": 3},
        {"kind": "max_cards", "segment": 1, "count": 3},
    ],
}


def _solved(alice: User, monkeypatch: pytest.MonkeyPatch) -> HintRequest:
    """Alice's hint on DEFINITION, solved here at once and quickly."""
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    monkeypatch.setattr("solver.services.transaction.on_commit", lambda func, **kw: func())
    client = APIClient()
    client.force_authenticate(alice)
    body = {"clock": DEFINITION, "colours": "SSMM/MMSS/SMSM", "face_up": 3}
    response = client.post("/api/hints/", body, format="json")
    assert response.status_code == 202, response.content
    hint = HintRequest.objects.get(pk=response.json()["id"])
    HintRequest.objects.filter(pk=hint.pk).update(effort=0.05, odds_samples=200)
    jobs.run(hint.pk, "task-1")
    hint.refresh_from_db()
    assert hint.status == HintRequest.Status.DONE, hint.error
    return hint


def test_what_if_says_its_rates_are_at_most_and_why(
    phones: Callable[..., Any], live_server: Any, screenshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = User.objects.create_user("alice", password="password")
    hint = _solved(alice, monkeypatch)
    page = phones(alice).new_page()
    page.goto(f"{live_server.url}/hints/{hint.pk}/")
    page.get_by_role("button", name="Simulate my version").click()
    result = page.locator(".what-if-result")
    result.wait_for()
    assert result.text_content().count("at most") == 2
    caveat = page.locator(".what-if-caveat")
    assert NEAREST in caveat.text_content()
    page.locator("#what-if").scroll_into_view_if_needed()
    screenshot(page, "what-if-caveat-390x844")
    DOC_SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("#what-if").screenshot(path=str(DOC_SCREENS / "what-if-caveat-390x844.png"))
