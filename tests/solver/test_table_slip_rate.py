"""A hint for a group plans at the table's own slip rate once it has one (issue 48 §1),
through the real API: hints, attempts, statistics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Group
from solver import jobs, pass_curves
from solver.core.search.search import HintResult
from solver.hint_inputs import parse_input

ApiAs = Callable[[str], APIClient]
pytestmark = pytest.mark.usefixtures("commit_at_once")

HINT = {"clock": "1-1", "colours": "SSM/MMS/SMM/SSM"}


def _hint(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/hints/", {**HINT, **body}, format="json")
    assert response.status_code in (200, 202), response.content
    data: dict[str, Any] = response.json()
    if data["status"] != "done":
        jobs.run(data["id"], f"task-{data['id']}")
    pass_curves.fill_missing()  # what beat does for a hint answered at once from the book
    answer: dict[str, Any] = client.get(f"/api/hints/{data['id']}/").json()
    assert answer["status"] == "done"
    return answer


def test_a_table_whose_hinted_clocks_keep_failing_gets_hints_at_its_own_rate(
    group: Group,
    api_as: ApiAs,
    as_role: Callable[[str], Client],
    fake_result: Callable[..., HintResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jobs, "recommend", lambda *args, **kwargs: fake_result())
    client = api_as("owner")
    statistics = f"/api/groups/{group.pk}/statistics/"
    for played in range(20):
        # From the eighth hinted clock on, the table has a rate of its own.
        source = "default" if played < 8 else "table"
        assert _hint(client, group=group.pk)["slip_rate_source"] == source
        attempt = {"clock": "1-1", "outcome": "failed", "players": 4}
        assert client.post(f"/api/groups/{group.pk}/attempts/", attempt).status_code == 201
    table = client.get(statistics).json()["table"]
    assert table["hinted_attempts"] == 20
    assert table["slip_rate"] > 0.05

    planned = _hint(client, group=group.pk)
    assert planned["slip_rate_source"] == "table"
    assert planned["slip_rate"] in (0.08, 0.12, 0.18)
    assert planned["result"]["slip_rate_source"] == "table"
    page = as_role("owner").get(planned["page"]).content.decode()
    assert "Planned for your table (1 card in " in page
    # A rate in the request still wins, and a hint without a group plans at the default.
    assert _hint(client, group=group.pk, slip_rate=0.02)["slip_rate_source"] == "request"
    assert _hint(client)["slip_rate_source"] == "default"


def test_a_group_without_enough_hinted_clocks_plans_at_the_default(group: Group) -> None:
    hint_input = parse_input("1-1", HINT["colours"], None, group=group)
    assert (hint_input.slip_rate, hint_input.slip_rate_source) == (0.05, "default")


def test_a_rate_in_the_request_is_the_requests(group: Group, alice: User) -> None:
    hint_input = parse_input("1-1", HINT["colours"], None, group=group, slip_rate="0.1")
    assert (hint_input.slip_rate, hint_input.slip_rate_source) == (0.1, "request")
