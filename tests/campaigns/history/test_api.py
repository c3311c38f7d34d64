"""The history API (campaigns.history.api): exports and the round trip through an import."""

from __future__ import annotations

from campaigns.models import Group
from tests.campaigns.shapes import ApiAs, url


def test_exports_and_statistics_answer(group: Group, api_as: ApiAs) -> None:
    client = api_as("viewer")
    assert client.get(url(group, "export/")).json()["format"] == "timekeeper-history"
    assert client.get(url(group, "export.csv")).content.startswith(b"campaign,kind")
    assert "totals" in client.get(url(group, "statistics/")).json()


def test_the_history_round_trips_through_the_api(group: Group, api_as: ApiAs) -> None:
    client = api_as("owner")
    client.post(url(group, "attempts/"), {"clock": "1-1", "outcome": "failed", "players": 3})
    client.post(url(group, "sleeve/"), {"clock": "1-1"})
    client.post(url(group, "attempts/"), {"clock": "1-2", "outcome": "passed", "players": 2})
    history = client.get(url(group, "export/")).json()
    response = client.post("/api/groups/import/", history, format="json")
    assert response.status_code == 201
    copy = Group.objects.get(pk=response.json()["id"])
    # The same history, in a group named apart from the one it came from.
    exported = client.get(f"/api/groups/{copy.pk}/export/").json()
    assert exported == {**history, "name": f"{history['name']} (2)"}


def test_a_campaign_started_mid_game_round_trips(group: Group, api_as: ApiAs) -> None:
    client = api_as("owner")
    client.post(url(group, "campaigns/"), {"start_chapter": 2, "passed": ["2-1"]}, format="json")
    client.post(url(group, "attempts/"), {"clock": "2-2", "outcome": "passed", "players": 3})
    history = client.get(url(group, "export/")).json()
    assert history["campaigns"][-1]["passed_at_start"] == ["1-1", "1-2", "1-3", "1-4", "2-1"]
    response = client.post("/api/groups/import/", history, format="json")
    assert response.status_code == 201
    copy = Group.objects.get(pk=response.json()["id"])
    # The same history, in a group named apart from the one it came from.
    exported = client.get(f"/api/groups/{copy.pk}/export/").json()
    assert exported == {**history, "name": f"{history['name']} (2)"}
