"""Every endpoint of the campaigns REST API, every role: who may read, who may write, which
methods answer 405, the log-in, and the schema of docs/api.md. One matrix across the rooms."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from campaigns.groups.services import current_session
from campaigns.models import Campaign, ClockTranscription, Group, Membership
from campaigns.play import services as play_services
from campaigns.play.services import record_attempt
from campaigns.play.state import campaign_state
from tests.campaigns.shapes import ROLES, ApiAs, url


def test_anonymous_callers_are_refused(group: Group) -> None:
    assert APIClient().get(url(group, "progress/")).status_code in (401, 403)


def test_token_authentication_works(group: Group, alice: User) -> None:
    key = ApiToken.issue(alice)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(url(group, "progress/")).status_code == 200


def test_the_schema_documents_the_public_endpoints(api_as: ApiAs, group: Group) -> None:
    schema = api_as("owner").get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/groups/",
        "/api/groups/{group_id}/progress/",
        "/api/groups/{group_id}/attempts/",
        "/api/groups/{group_id}/sleeve/",
        "/api/clocks/",
        "/api/clocks/{clock_id}/",
        "/api/layouts/check/",
    ):
        assert path in schema["paths"]


# --- permissions: every endpoint, every role ----------------------------------------------

READS = [
    "",
    "progress/",
    "attempts/",
    "sleeve/",
    "events/",
    "members/",
    "campaigns/",
    "sessions/",
    "transcriptions/",
    "statistics/",
    "export/",
    "export.csv",
]


WRITES: list[tuple[str, dict[str, Any]]] = [
    ("attempts/", {"clock": "1-1", "outcome": "failed", "players": 3}),
    ("sleeve/", {"clock": "1-1"}),
    ("sleeve/retrieve/", {"clocks": ["1-1"]}),
    ("undo/", {}),
    ("campaigns/", {"start_chapter": 2}),
    ("sessions/", {"players": []}),
    ("transcriptions/", {"clock": "5-1", "rules": []}),
]


READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}


OWNER_ONLY = {"member": 403, "viewer": 403, "outsider": 404}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("tail", READS)
def test_reads_are_for_members_only(group: Group, api_as: ApiAs, role: str, tail: str) -> None:
    assert api_as(role).get(url(group, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ["viewer", "outsider"])
@pytest.mark.parametrize(("tail", "payload"), WRITES)
def test_viewers_and_outsiders_cannot_write(
    group: Group, campaign: Campaign, api_as: ApiAs, role: str, tail: str, payload: dict
) -> None:
    response = api_as(role).post(url(group, tail), payload, format="json")
    assert response.status_code == {"viewer": 403, "outsider": 404}[role]
    assert campaign.events.count() == 0 and group.campaigns.count() == 1


def ready_for(tail: str, campaign: Campaign, alice: User) -> None:
    """The state in which the write to ``tail`` is allowed: a failed 1-1 to skip or undo,
    1-1 in the Sleeve to put back."""
    if tail in ("sleeve/", "sleeve/retrieve/", "undo/"):
        record_attempt(campaign, alice, "1-1", "failed", 3)
    if tail == "sleeve/retrieve/":
        play_services.skip(campaign, alice, "1-1")


def assert_written(tail: str, group: Group, campaign: Campaign, user: User) -> None:
    """What the write to ``tail`` changed, by ``user``."""
    campaign.refresh_from_db()
    state = campaign_state(campaign)
    last = campaign.events.order_by("-id").first()
    if tail == "attempts/":
        attempt = campaign.attempts.get()
        assert (attempt.clock_id, attempt.outcome, attempt.players) == ("1-1", "failed", 3)
        assert attempt.event.user == user and state.bonus_tokens == 1
    elif tail == "sleeve/":
        assert state.sleeve == ["1-1"] and state.next_clock == "1-2"
        assert last is not None and (last.kind, last.user) == ("skipped", user)
    elif tail == "sleeve/retrieve/":
        assert state.sleeve == [] and state.next_clock == "1-1" and campaign.stack_top == ["1-1"]
        assert last is not None and (last.kind, last.user) == ("retrieved", user)
    elif tail == "undo/":
        assert campaign.events.get(kind="failed").undone is not None
        assert last is not None and (last.kind, last.user) == ("undone", user)
        assert not campaign.attempts.exists() and state.bonus_tokens == 0
    elif tail == "campaigns/":
        current = campaign_state(group.current_campaign())
        assert group.campaigns.count() == 2 and current.campaign != campaign
        assert current.chapter == 2 and current.next_clock == "2-1"
    elif tail == "sessions/":
        assert campaign.sessions.count() == 1
    else:
        transcription = ClockTranscription.objects.get(group=group, clock_id="5-1")
        assert (transcription.version, transcription.author) == (1, user)


WRITE_SUCCESS = {
    "attempts/": 201,
    "sleeve/": 201,
    "sleeve/retrieve/": 200,
    "undo/": 200,
    "campaigns/": 201,
    "sessions/": 201,
    "transcriptions/": 201,
}


@pytest.mark.parametrize("role", ["owner", "member"])
@pytest.mark.parametrize(("tail", "payload"), WRITES)
def test_owners_and_members_may_write(
    group: Group,
    campaign: Campaign,
    api_as: ApiAs,
    users: dict[str, User],
    alice: User,
    role: str,
    tail: str,
    payload: dict,
) -> None:
    ready_for(tail, campaign, alice)
    if tail == "undo/":  # an undo names the change it undoes
        payload = {"event": campaign.events.get().pk}
    response = api_as(role).post(url(group, tail), payload, format="json")
    assert response.status_code not in (403, 404)
    assert response.status_code == WRITE_SUCCESS[tail], response.content
    assert_written(tail, group, campaign, users[role])


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_manage_members(group: Group, api_as: ApiAs, role: str) -> None:
    User.objects.create_user("erin")
    response = api_as(role).post(url(group, "members/"), {"username": "erin"})
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 201)
    erin = group.memberships.filter(user__username="erin").first()
    if role == "owner":
        assert erin is not None and erin.role == Membership.Role.MEMBER
        assert response.json()["role"] == "member"
    else:
        assert erin is None


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_change_or_remove_members(
    group: Group, api_as: ApiAs, role: str, dave: User
) -> None:
    viewer = group.memberships.get(user=dave)
    response = api_as(role).delete(url(group, f"members/{viewer.pk}/"))
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 204)
    assert group.memberships.filter(user=dave).exists() == (role != "owner")


@pytest.mark.parametrize("role", ROLES)
def test_bgstats_export_is_for_members(
    group: Group, campaign: Campaign, api_as: ApiAs, role: str
) -> None:
    session = current_session(campaign)
    response = api_as(role).get(url(group, f"sessions/{session.pk}/bgstats/"))
    assert response.status_code == READ_STATUS[role]


@pytest.mark.parametrize(
    ("method", "tail"),
    [
        ("put", "progress/"),
        ("delete", "attempts/"),
        ("get", "undo/"),
        ("get", "sleeve/retrieve/"),
        ("post", "export/"),
        ("post", "statistics/"),
    ],
)
def test_wrong_methods_answer_405(group: Group, api_as: ApiAs, method: str, tail: str) -> None:
    assert getattr(api_as("owner"), method)(url(group, tail)).status_code == 405


def test_wrong_method_on_layout_check(api_as: ApiAs, group: Group) -> None:
    assert api_as("owner").get("/api/layouts/check/").status_code == 405
