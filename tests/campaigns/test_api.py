"""The campaigns REST API: the public endpoints of docs/api.md, permissions, bad input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from campaigns.groups.services import current_session
from campaigns.models import Campaign, ClockTranscription, Group, Membership, Session
from campaigns.play import services as play_services
from campaigns.play.services import record_attempt
from campaigns.play.state import NUMBERED_CLOCKS, campaign_state

ApiAs = Callable[[str], APIClient]
ROLES = ["owner", "member", "viewer", "outsider"]
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"
BAD_CARD = PASSING_1_1.replace("S1", "S13")


def url(group: Group, tail: str) -> str:
    return f"/api/groups/{group.pk}/{tail}"


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


def test_anonymous_callers_are_refused(group: Group) -> None:
    assert APIClient().get(url(group, "progress/")).status_code in (401, 403)


def test_token_authentication_works(group: Group, alice: User) -> None:
    key = ApiToken.issue(alice)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(url(group, "progress/")).status_code == 200


def test_progress_has_the_public_shape(group: Group, api_as: ApiAs) -> None:
    body = api_as("owner").get(url(group, "progress/")).json()
    assert {
        "chapter": 1,
        "clock": "1-1",
        "bonus_tokens": 0,
        "passed": [],
        "sleeve": [],
        "attempted": 0,
        "completed": False,
        "rebirth_unlocked": False,
    }.items() <= body.items()


def test_an_attempt_answers_201_with_face_up(group: Group, api_as: ApiAs) -> None:
    client = api_as("member")
    client.post(url(group, "attempts/"), {"clock": "1-1", "outcome": "failed", "players": 3})
    response = client.post(
        url(group, "attempts/"), {"clock": "1-1", "outcome": "failed", "players": 3}
    )
    assert response.status_code == 201
    assert response.json()["face_up"] == 4 and response.json()["bonus_tokens"] == 1


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"clock": "11-1"}, "clock"),
        ({"clock": "2-1"}, "clock"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"outcome": "won"}, "outcome"),
        ({"layout": FAILING_1_1}, "layout"),
        ({"layout": "S1 S1 | | | | |"}, "layout"),
        ({"opener": "Nobody"}, "opener"),
    ],
)
def test_bad_attempts_answer_400_naming_the_field(
    group: Group, campaign: Campaign, api_as: ApiAs, payload: dict[str, Any], field: str
) -> None:
    body = {"clock": "1-1", "outcome": "passed", "players": 3, **payload}
    response = api_as("owner").post(url(group, "attempts/"), body)
    assert response.status_code == 400 and field in response.json(), response.json()
    assert campaign.attempts.count() == 0


def test_a_layout_that_agrees_is_kept_with_its_verdict(group: Group, api_as: ApiAs) -> None:
    body = {"clock": "1-1", "outcome": "passed", "players": 3, "layout": PASSING_1_1}
    response = api_as("owner").post(url(group, "attempts/"), body)
    assert response.status_code == 201
    assert response.json()["verdict"]["passed"] is True


def test_a_double_submit_with_the_same_key_records_once(
    group: Group, campaign: Campaign, api_as: ApiAs
) -> None:
    client = api_as("owner")
    body = {"clock": "1-1", "outcome": "failed", "players": 2}
    first = client.post(url(group, "attempts/"), body, HTTP_IDEMPOTENCY_KEY="abc")
    second = client.post(url(group, "attempts/"), body, HTTP_IDEMPOTENCY_KEY="abc")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 1 and campaign.bonus_tokens == 1


def test_an_attempt_on_a_completed_campaign_is_refused(
    group: Group, campaign: Campaign, api_as: ApiAs
) -> None:
    client = api_as("owner")
    for clock in NUMBERED_CLOCKS:
        client.post(url(group, "attempts/"), {"clock": clock, "outcome": "passed", "players": 4})
    assert client.get(url(group, "progress/")).json()["completed"] is True
    response = client.post(
        url(group, "attempts/"), {"clock": "7-3", "outcome": "passed", "players": 4}
    )
    assert response.status_code == 400 and "clock" in response.json()
    assert campaign.attempts.count() == 40


def test_sleeve_skips_the_clock(group: Group, api_as: ApiAs) -> None:
    client = api_as("owner")
    client.post(url(group, "attempts/"), {"clock": "1-1", "outcome": "failed", "players": 3})
    response = client.post(url(group, "sleeve/"), {"clock": "1-1"})
    assert response.status_code == 201
    assert response.json()["sleeve"] == ["1-1"] and response.json()["clock"] == "1-2"
    assert client.get(url(group, "sleeve/")).json() == {"sleeve": ["1-1"]}


def test_sleeve_refuses_an_unknown_clock(group: Group, api_as: ApiAs) -> None:
    response = api_as("owner").post(url(group, "sleeve/"), {"clock": "zz"})
    assert response.status_code == 400 and "clock" in response.json()


def test_undo_reverts_the_last_attempt(group: Group, campaign: Campaign, api_as: ApiAs) -> None:
    client = api_as("member")
    client.post(url(group, "attempts/"), {"clock": "1-1", "outcome": "passed", "players": 3})
    event = campaign.events.get().pk
    response = client.post(url(group, "undo/"), {"event": event})
    assert response.status_code == 200 and response.json()["kind"] == "passed"
    assert client.get(url(group, "progress/")).json()["clock"] == "1-1"
    # Again (a double tap, or another phone): no longer the last undoable change, 409.
    assert client.post(url(group, "undo/"), {"event": event}).status_code == 409
    assert campaign.events.filter(kind="undone").count() == 1
    # Without naming the change: refused.
    response = client.post(url(group, "undo/"))
    assert response.status_code == 400 and "event" in response.json()


def test_a_stale_undo_never_undoes_an_older_change(
    group: Group, campaign: Campaign, api_as: ApiAs, alice: User
) -> None:
    """Two phones saw "failed at 1-2" as the last change; both tap Undo. The first undoes it;
    the second must not undo "passed at 1-1" (the change before it): 409, fresh progress."""
    record_attempt(campaign, alice, "1-1", "passed", 3)
    failed = record_attempt(campaign, alice, "1-2", "failed", 3)
    seen = campaign.events.order_by("-id")[0].pk
    body = {"event": failed.event_id, "expected_event": seen}
    first, second = api_as("owner"), api_as("member")
    assert first.post(url(group, "undo/"), body, format="json").status_code == 200
    # An undo that does not say what it undoes would take "passed at 1-1": refused.
    response = second.post(url(group, "undo/"), {"expected_event": seen}, format="json")
    assert response.status_code == 400 and "event" in response.json()
    # Meanwhile the table records another attempt; the second phone's board is stale.
    record_attempt(campaign, alice, "1-2", "failed", 3)
    response = second.post(url(group, "undo/"), body, format="json")
    # Its change is undone already: no longer the last undoable change, so 409, fresh progress.
    assert response.status_code == 409
    assert response.json()["version"] == campaign.events.order_by("-id")[0].pk
    assert not campaign.events.filter(kind="passed", undone__isnull=False).exists()
    other = record_attempt(campaign, alice, "1-2", "passed", 3)
    stale = {"event": campaign.events.filter(kind="failed", undone__isnull=True).get().pk}
    response = second.post(url(group, "undo/"), stale, format="json")
    assert response.status_code == 409
    assert response.json()["version"] == other.event_id and "detail" in response.json()
    assert not campaign.events.filter(kind="passed", undone__isnull=False).exists()


def test_clocks_are_listed_and_shown(group: Group, api_as: ApiAs) -> None:
    client = api_as("outsider")
    clocks = client.get("/api/clocks/").json()
    assert len(clocks) == 41 and clocks[0]["id"] == "1-1" and clocks[-1]["id"] == "rebirth"
    assert client.get("/api/clocks/1-1/").json()["cap"] is None
    assert client.get("/api/clocks/11-1/").status_code == 404


def test_layout_check_answers_the_check_layout_object(api_as: ApiAs, group: Group) -> None:
    response = api_as("viewer").post("/api/layouts/check/", {"clock": "1-1", "layout": FAILING_1_1})
    assert response.status_code == 200
    body = response.json()
    assert body["passed"] is False and body["violations"][0]["rule"] == "card_count"
    assert len(body["values"]) == 6


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"clock": "99-1", "layout": PASSING_1_1}, "clock"),
        ({"clock": "1-1", "layout": "S1"}, "layout"),
        ({"clock": "1-1"}, "layout"),
    ],
)
def test_layout_check_refuses_bad_input(
    api_as: ApiAs, group: Group, payload: dict[str, Any], field: str
) -> None:
    response = api_as("owner").post("/api/layouts/check/", payload)
    assert response.status_code == 400 and field in response.json()


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


def test_a_refusal_answers_in_the_callers_language(group: Group, api_as: ApiAs) -> None:
    response = api_as("member").post(
        url(group, "attempts/"),
        {"clock": "2-1", "outcome": "failed", "players": 3},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert response.status_code == 400
    assert response.json() == {"clock": ["De volgende klok is 1-1, niet 2-1."]}


def test_a_session_is_started_with_its_notes(group: Group, api_as: ApiAs) -> None:
    response = api_as("owner").post(url(group, "sessions/"), {"notes": "Cleo's birthday"})
    assert response.status_code == 201 and response.json()["notes"] == "Cleo's birthday"
    assert Session.objects.get(pk=response.json()["id"]).notes == "Cleo's birthday"


def test_transcriptions_are_versioned(group: Group, api_as: ApiAs) -> None:
    client = api_as("member")
    rule = {"kind": "card_count", "segment": 2, "count": 2}
    first = client.post(url(group, "transcriptions/"), {"clock": "5-2", "rules": [rule]})
    second = client.post(url(group, "transcriptions/"), {"clock": "5-2", "start": 3, "rules": []})
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json()["version"] == 2
    bad = client.post(url(group, "transcriptions/"), {"clock": "5-2", "rules": [{"kind": "nope"}]})
    assert bad.status_code == 400


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


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "'S13' is not a card: values go from 1 to 12."),
        ("nl", "'S13' is geen kaart: de waarden lopen van 1 tot en met 12."),
        ("ja", "'S13'はカードではありません。数字は1から12までです。"),
    ],
)
def test_the_layout_check_api_refuses_in_the_callers_language(
    api_as: ApiAs, group: Group, lang: str, expected: str
) -> None:
    response = api_as("viewer").post(
        "/api/layouts/check/",
        {"clock": "1-1", "layout": BAD_CARD},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert response.json() == {"card": [expected]}


def test_a_bad_transcription_is_refused_in_japanese(api_as: ApiAs, group: Group) -> None:
    rule = {"kind": "value_range", "segment": 2, "min": 20, "max": 10}
    response = api_as("member").post(
        f"/api/groups/{group.pk}/transcriptions/",
        {"clock": "5-2", "rules": [rule]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    expected = "「min」（20）は「max」（10）より大きくできません。"
    assert response.json() == {"rules[0].min": [expected]}
