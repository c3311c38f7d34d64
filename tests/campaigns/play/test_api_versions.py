"""The API's stale-write guard: ``expected_event`` on the writes, ``version`` in progress."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Attempt, Campaign, Group
from campaigns.play.state import campaign_version

pytestmark = pytest.mark.django_db


def _url(group: Group, path: str) -> str:
    return f"/api/groups/{group.pk}/{path}"


def test_progress_carries_the_version(
    group: Group, campaign: Campaign, api_as: Callable[[str], Any], play: Callable[..., Attempt]
) -> None:
    assert api_as("viewer").get(_url(group, "progress/")).json()["version"] == 0
    attempt = play(campaign, "failed")
    assert api_as("viewer").get(_url(group, "progress/")).json()["version"] == attempt.event_id


def test_a_current_expected_event_records(
    group: Group, campaign: Campaign, api_as: Callable[[str], Any]
) -> None:
    body = {"clock": "1-1", "outcome": "failed", "players": 3, "expected_event": 0}
    r = api_as("member").post(_url(group, "attempts/"), body, format="json")
    assert r.status_code == 201
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1


def test_a_stale_expected_event_answers_409_with_the_current_progress(
    group: Group, campaign: Campaign, api_as: Callable[[str], Any], play: Callable[..., Attempt]
) -> None:
    attempt = play(campaign, "failed")
    body = {"clock": "1-1", "outcome": "failed", "players": 3, "expected_event": 0}
    r = api_as("member").post(_url(group, "attempts/"), body, format="json")
    assert r.status_code == 409
    data = r.json()
    assert data["version"] == attempt.event_id
    assert data["bonus_tokens"] == 1
    assert data["clock"] == "1-1"
    assert "1-1" in data["detail"]
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 1


@pytest.mark.parametrize("value", ["abc", "1.5", "²", -1, 2**70, True])
def test_a_expected_event_that_is_not_a_whole_number_is_a_400(
    group: Group, campaign: Campaign, api_as: Callable[[str], Any], value: Any
) -> None:
    body = {"clock": "1-1", "outcome": "failed", "players": 3, "expected_event": value}
    r = api_as("member").post(_url(group, "attempts/"), body, format="json")
    assert r.status_code == 400
    assert "expected_event" in r.json()
    assert campaign.attempts.count() == 0


def test_skip_retrieve_and_undo_take_it_too(
    group: Group,
    campaign: Campaign,
    alice: User,
    api_as: Callable[[str], Any],
    play: Callable[..., Attempt],
) -> None:
    play(campaign, "failed")
    seen = campaign_version(campaign)
    play(campaign, "failed")
    member = api_as("member")
    r = member.post(_url(group, "sleeve/"), {"clock": "1-1", "expected_event": seen}, "json")
    assert r.status_code == 409
    first = campaign.events.order_by("id")[0].pk  # the last change the stale board showed
    r = member.post(_url(group, "undo/"), {"event": first, "expected_event": seen}, "json")
    assert r.status_code == 409
    fresh = campaign_version(campaign)
    r = member.post(_url(group, "sleeve/"), {"clock": "1-1", "expected_event": fresh}, "json")
    assert r.status_code == 201
    retrieve = {"clocks": ["1-1"], "expected_event": seen}
    r = member.post(_url(group, "sleeve/retrieve/"), retrieve, "json")
    assert r.status_code == 409
    r = member.post(
        _url(group, "sleeve/retrieve/"),
        {"clocks": ["1-1"], "expected_event": r.json()["version"]},
        "json",
    )
    assert r.status_code == 200
    assert r.json()["clock"] == "1-1"


def test_the_schema_documents_expected_event_and_409(api_as: Callable[[str], Any]) -> None:
    schema = api_as("owner").get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/groups/{group_id}/attempts/"]["post"]
    assert "409" in operation["responses"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    assert body["expected_event"]["type"] == "integer"
    progress = schema["paths"]["/api/groups/{group_id}/progress/"]["get"]["responses"]["200"]
    ref = progress["content"]["application/json"]["schema"]["$ref"]
    assert "version" in schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
