"""Every campaign page, every role: who may read, who may write, which methods answer
405. One matrix across the rooms, so a new page is added to it in one place."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import current_session
from campaigns.models import Campaign, ClockTranscription, Group, Session
from campaigns.play.services import record_attempt, skip
from campaigns.play.state import campaign_state
from tests.campaigns.shapes import PASSING_1_1, ROLES, AsRole, PageUrl

# --- permissions: every page, every role ---------------------------------------------------

READ_PAGES = [
    "",
    "sessions/",
    "sleeve/",
    "clocks/1-1/",
    "members/",
    "settings/",
    "statistics/",
    "export.json",
    "export.csv",
]


READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}


OWNER_ONLY = {"member": 403, "viewer": 403, "outsider": 404}


WRITE_PAGES: list[tuple[str, dict[str, Any]]] = [
    ("record/", {"clock": "1-1", "players": 3, "action": "failed"}),
    ("undo/", {}),
    ("sleeve/", {"clock": "1-1"}),
    ("sessions/", {"date": "2026-11-27"}),
    ("settings/", {"kind": "normal", "start_chapter": 2}),
    ("clocks/5-1/edit/", {"start": 2, "rules": "", "action": "save"}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("tail", READ_PAGES)
def test_pages_are_for_members_only(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str, tail: str
) -> None:
    assert as_role(role).get(group_url(group, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ROLES)
def test_session_pages_are_for_members_only(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole, role: str
) -> None:
    session = current_session(campaign)
    for tail in (f"sessions/{session.pk}/", f"sessions/{session.pk}/bgstats.json"):
        assert as_role(role).get(group_url(group, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_editor_is_for_writers(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    expected = {"owner": 200, "member": 200, "viewer": 403, "outsider": 404}[role]
    assert as_role(role).get(group_url(group, "clocks/5-1/edit/")).status_code == expected


@pytest.mark.parametrize("role", ROLES)
def test_the_live_check_is_for_members(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    response = as_role(role).post(
        group_url(group, "check/"), {"clock": "1-1", "layout": PASSING_1_1}
    )
    assert response.status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ["viewer", "outsider"])
@pytest.mark.parametrize(("tail", "data"), WRITE_PAGES)
def test_viewers_and_outsiders_cannot_write(
    group_url: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    role: str,
    tail: str,
    data: dict,
) -> None:
    response = as_role(role).post(group_url(group, tail), data)
    assert response.status_code == {"viewer": 403, "outsider": 404}[role]
    assert campaign.events.count() == 0 and group.campaigns.count() == 1
    assert not Session.objects.exists() and not ClockTranscription.objects.exists()


def ready_for(tail: str, campaign: Campaign, alice: User) -> None:
    """The state in which the write to ``tail`` is allowed: a failed 1-1 to undo, 1-1 in the
    Sleeve to put back."""
    if tail in ("undo/", "sleeve/"):
        record_attempt(campaign, alice, "1-1", "failed", 3)
    if tail == "sleeve/":
        skip(campaign, alice, "1-1")


def assert_written(tail: str, group: Group, campaign: Campaign, user: User) -> None:
    """What the write to ``tail`` changed, by ``user``."""
    campaign.refresh_from_db()
    state = campaign_state(campaign)
    last = campaign.events.order_by("-id").first()
    if tail == "record/":
        attempt = campaign.attempts.get()
        assert (attempt.clock_id, attempt.outcome, attempt.players) == ("1-1", "failed", 3)
        assert attempt.event.user == user and state.bonus_tokens == 1
    elif tail == "undo/":
        assert campaign.events.get(kind="failed").undone is not None
        assert last is not None and (last.kind, last.user) == ("undone", user)
        assert not campaign.attempts.exists() and state.bonus_tokens == 0
    elif tail == "sleeve/":
        assert state.sleeve == [] and state.next_clock == "1-1" and campaign.stack_top == ["1-1"]
        assert last is not None and (last.kind, last.user) == ("retrieved", user)
    elif tail == "sessions/":
        session = campaign.sessions.get()
        assert session.date.isoformat() == "2026-11-27"
    elif tail == "settings/":
        current = campaign_state(group.current_campaign())
        assert group.campaigns.count() == 2 and current.campaign != campaign
        assert current.chapter == 2 and current.next_clock == "2-1"
    else:
        transcription = ClockTranscription.objects.get(group=group, clock_id="5-1")
        assert (transcription.version, transcription.author) == (1, user)
        assert transcription.definition["start"] == 2


@pytest.mark.parametrize("role", ["owner", "member"])
@pytest.mark.parametrize(("tail", "data"), WRITE_PAGES)
def test_owners_and_members_may_write(
    group_url: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    users: dict[str, User],
    alice: User,
    role: str,
    tail: str,
    data: dict,
) -> None:
    ready_for(tail, campaign, alice)
    if tail == "undo/":  # an Undo names the change it reverts, as the button does
        data = {"event": campaign.events.get().pk}
    response = as_role(role).post(group_url(group, tail), data)
    assert response.status_code in (200, 302, 400)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert_written(tail, group, campaign, users[role])


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_post_to_the_members_page(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    User.objects.create_user("erin")
    response = as_role(role).post(group_url(group, "members/"), {"username": "erin"})
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 302)
    erin = group.memberships.filter(user__username="erin").first()
    if role == "owner":
        assert response["Location"] == group_url(group, "members/")
        assert erin is not None and erin.role == "member"
    else:
        assert erin is None


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_change_members(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str, dave: User
) -> None:
    viewer = group.memberships.get(user=dave)
    response = as_role(role).post(group_url(group, f"members/{viewer.pk}/"), {"remove": "1"})
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 302)
    if role == "owner":
        assert response["Location"] == group_url(group, "members/")
    assert group.memberships.filter(user=dave).exists() == (role != "owner")


@pytest.mark.parametrize(
    ("method", "tail"),
    [
        ("get", "record/"),
        ("get", "undo/"),
        ("get", "check/"),
        ("get", "members/1/"),
        ("post", "statistics/"),
        ("post", "clocks/1-1/"),
        ("post", "export.json"),
        ("post", "export.csv"),
        ("post", ""),
        ("put", "sessions/"),
        ("put", "sleeve/"),
        ("put", "settings/"),
        ("put", "members/"),
    ],
)
def test_wrong_methods_answer_405(
    group_url: PageUrl, group: Group, as_role: AsRole, method: str, tail: str
) -> None:
    assert getattr(as_role("owner"), method)(group_url(group, tail)).status_code == 405


def test_wrong_method_on_import_and_dashboard(group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    assert client.get("/groups/import/").status_code == 405
    assert client.put("/").status_code == 405
