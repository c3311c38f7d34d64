"""The play API (campaigns.play.api): progress, attempts, the Sleeve, Undo."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign, Group
from campaigns.play.services import record_attempt
from campaigns.play.state import NUMBERED_CLOCKS
from tests.campaigns.shapes import FAILING_1_1, PASSING_1_1, ApiAs, url


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


def test_a_refusal_answers_in_the_callers_language(group: Group, api_as: ApiAs) -> None:
    response = api_as("member").post(
        url(group, "attempts/"),
        {"clock": "2-1", "outcome": "failed", "players": 3},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert response.status_code == 400
    assert response.json() == {"clock": ["De volgende klok is 1-1, niet 2-1."]}
