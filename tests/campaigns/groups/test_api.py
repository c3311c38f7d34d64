"""The groups' API (campaigns.groups.api): groups, members, campaigns, sessions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from campaigns.models import Group, Membership, Session
from tests.campaigns.shapes import ApiAs, url


def test_it_creates_a_group(api: Callable[[User], APIClient], alice: User) -> None:
    response = api(alice).post("/api/groups/", {"name": "Fridays", "players": ["Ann", "Ben"]})
    assert response.status_code == 201
    group = Group.objects.get(pk=response.json()["id"])
    assert group.name == "Fridays" and group.memberships.get().user == alice
    assert [p["name"] for p in response.json()["players"]] == ["Ann", "Ben"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"name": "x" * 81}, "name"),
        ({"name": ""}, "name"),
        ({"name": "A", "players": ["y" * 81]}, "players"),
        ({"name": "A", "players": ["Ann", "ann"]}, "players"),
    ],
)
def test_a_bad_group_names_the_field(
    api: Callable[[User], APIClient], alice: User, payload: dict[str, Any], field: str
) -> None:
    response = api(alice).post("/api/groups/", payload)
    assert response.status_code == 400 and field in response.json()
    assert not Group.objects.exists()


def test_owners_add_members(group: Group, api_as: ApiAs) -> None:
    User.objects.create_user("erin")
    response = api_as("owner").post(url(group, "members/"), {"username": "erin", "role": "viewer"})
    assert response.status_code == 201
    assert group.memberships.get(user__username="erin").role == Membership.Role.VIEWER


def test_owners_change_roles(group: Group, api_as: ApiAs, bob: User) -> None:
    member = group.memberships.get(user=bob)
    response = api_as("owner").patch(url(group, f"members/{member.pk}/"), {"role": "viewer"})
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.role == "viewer"


def test_a_campaign_can_start_mid_game(group: Group, api_as: ApiAs) -> None:
    client = api_as("owner")
    response = client.post(url(group, "campaigns/"), {"start_chapter": 4})
    assert response.status_code == 201
    body = client.get(url(group, "progress/")).json()
    assert body["chapter"] == 4 and body["clock"] == "4-1" and len(body["passed"]) == 12


def test_a_campaign_can_start_mid_chapter(group: Group, api_as: ApiAs) -> None:
    client = api_as("member")
    body = {"start_chapter": 2, "passed": ["2-1"]}
    assert client.post(url(group, "campaigns/"), body).status_code == 201
    assert client.get(url(group, "progress/")).json()["clock"] == "2-2"
    bad = client.post(url(group, "campaigns/"), {"passed": ["12-1"]})
    assert bad.status_code == 400 and "passed" in bad.json()


def test_rebirth_is_refused_before_it_is_unlocked(group: Group, api_as: ApiAs) -> None:
    response = api_as("owner").post(url(group, "campaigns/"), {"kind": "rebirth"})
    assert response.status_code == 400 and "kind" in response.json()


def test_sessions_are_started_with_players(group: Group, api_as: ApiAs) -> None:
    response = api_as("owner").post(
        url(group, "sessions/"), {"date": "2026-11-27", "players": ["Ann", "Ben"]}
    )
    assert response.status_code == 201 and response.json()["players"] == ["Ann", "Ben"]
    bad = api_as("owner").post(url(group, "sessions/"), {"players": ["Zed"]})
    assert bad.status_code == 400 and "players" in bad.json()


def test_a_session_fills_in_the_one_an_attempt_started_that_day(
    group: Group, api_as: ApiAs
) -> None:
    client = api_as("member")
    attempt = client.post(
        url(group, "attempts/"), {"clock": "1-1", "outcome": "failed", "players": 3}
    )
    response = client.post(url(group, "sessions/"), {"players": ["Ann", "Ben", "Cleo"]})
    assert response.status_code == 201 and response.json()["id"] == attempt.json()["session"]
    assert response.json()["players"] == ["Ann", "Ben", "Cleo"] and Session.objects.count() == 1


def test_a_session_is_started_with_its_notes(group: Group, api_as: ApiAs) -> None:
    response = api_as("owner").post(url(group, "sessions/"), {"notes": "Cleo's birthday"})
    assert response.status_code == 201 and response.json()["notes"] == "Cleo's birthday"
    assert Session.objects.get(pk=response.json()["id"]).notes == "Cleo's birthday"
