"""A whole campaign through the API and through the pages, and query counts that do not grow
with the history (the group page and the progress endpoint)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaigns.models import Attempt, Campaign, Event, Group, Session
from campaigns.play.state import NUMBERED_CLOCKS, CampaignState, campaign_state

NUMBERED = NUMBERED_CLOCKS


def test_a_whole_campaign_through_the_api(group: Group, api_as: Callable[[str], APIClient]) -> None:
    client = api_as("member")
    base = f"/api/groups/{group.pk}/"

    def attempt(clock: str, outcome: str, players: int = 3) -> dict[str, Any]:
        response = client.post(
            base + "attempts/", {"clock": clock, "outcome": outcome, "players": players}
        )
        assert response.status_code == 201, response.json()
        return response.json()

    def progress() -> dict[str, Any]:
        return client.get(base + "progress/").json()

    # 1-1: three failures flip all three Bonus tokens; a fourth keeps them at 3.
    assert [attempt("1-1", "failed")["face_up"] for _ in range(4)] == [3, 4, 5, 6]
    assert progress()["bonus_tokens"] == 3
    assert attempt("1-1", "passed", players=2)["face_up"] == 5
    assert progress()["bonus_tokens"] == 0
    # 1-2 is skipped after a failure; 1-3 and 1-4 pass; chapter 2 opens.
    attempt("1-2", "failed")
    assert client.post(base + "sleeve/", {"clock": "1-2"}).status_code == 201
    attempt("1-3", "passed")
    attempt("1-4", "passed")
    assert progress()["chapter"] == 2 and progress()["sleeve"] == ["1-2"]
    # Next session: 1-2 comes back from the Sleeve on top of the stack and is passed.
    assert client.post(base + "sleeve/retrieve/", {"clocks": ["1-2"]}).json()["clock"] == "1-2"
    attempt("1-2", "passed", players=4)
    assert progress()["sleeve"] == [] and progress()["clock"] == "2-1"
    # Chapters 2–10: 10-4 is skipped, so every clock is attempted but not all passed.
    for clock in NUMBERED[4:]:
        if clock == "10-4":
            attempt(clock, "failed")
            client.post(base + "sleeve/", {"clock": clock})
        else:
            attempt(clock, "passed")
    body = progress()
    assert body["rebirth_unlocked"] and not body["completed"] and body["clock"] is None
    assert body["chapter"] == 10 and body["attempted"] == 40
    # 10-4 back from the Sleeve and passed: the campaign is complete.
    client.post(base + "sleeve/retrieve/", {"clocks": ["10-4"]})
    attempt("10-4", "passed")
    body = progress()
    assert body["completed"] and len(body["passed"]) == 40 and body["sleeve"] == []
    # Rebirth: a new campaign with the Rebirth clock at the end of the stack.
    assert client.post(base + "campaigns/", {"kind": "rebirth"}).status_code == 201
    body = progress()
    assert body["kind"] == "rebirth" and body["clock"] == "1-1" and body["passed"] == []


def test_a_whole_campaign_through_the_pages(group: Group, as_role: Callable[[str], Client]) -> None:
    client = as_role("owner")
    campaign = group.current_campaign()

    def tap(action: str, htmx: bool = True, players: int = 3) -> None:
        clock = campaign_state(campaign).next_clock
        response = client.post(
            f"/groups/{group.pk}/record/",
            {"clock": clock, "players": players, "action": action},
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert response.status_code == (200 if htmx else 302)
        if htmx:
            assert b"errorlist" not in response.content, response.content.decode()

    def state() -> CampaignState:
        campaign.refresh_from_db()
        return campaign_state(campaign)

    for _ in range(3):
        tap("failed")
    assert state().bonus_tokens == 3
    tap("skip", htmx=False)
    assert state().sleeve == ["1-1"] and state().bonus_tokens == 0
    for _ in range(39):
        tap("passed")
    assert state().rebirth_unlocked and not state().completed
    assert b"Every clock left is in the Sleeve" in client.get(f"/groups/{group.pk}/").content
    client.post(f"/groups/{group.pk}/sleeve/", {"clock": "1-1"})
    tap("failed")
    tap("passed")
    assert state().completed
    assert b"Campaign complete" in client.get(f"/groups/{group.pk}/").content
    response = client.post(f"/groups/{group.pk}/settings/", {"kind": "rebirth", "start_chapter": 1})
    assert response.status_code == 302
    assert group.current_campaign().kind == Campaign.Kind.REBIRTH


def _history(campaign: Campaign, user: User, attempts: int) -> None:
    """``attempts`` failed attempts at 1-1 written in bulk (the state machine is tested
    elsewhere; here only the size of the history matters)."""
    session = Session.objects.create(campaign=campaign)
    events = Event.objects.bulk_create(
        Event(campaign=campaign, kind="failed", clock_id="1-1", before={}) for _ in range(attempts)
    )
    Attempt.objects.bulk_create(
        Attempt(
            campaign=campaign,
            session=session,
            event=event,
            clock_id="1-1",
            players=3,
            bonus_tokens=0,
            face_up=3,
            outcome="failed",
        )
        for event in events
    )
    campaign.progress.filter(clock_id="1-1").update(attempts=attempts, failures=attempts)


def _count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "url", ["/groups/{pk}/", "/api/groups/{pk}/progress/"], ids=["group-page", "progress"]
)
def test_query_counts_do_not_grow_with_the_history(
    group: Group,
    alice: User,
    login: Callable[[User], Client],
    django_assert_num_queries: Any,
    url: str,
) -> None:
    campaign = group.current_campaign()
    client = login(alice)
    _history(campaign, alice, 10)
    small = _count_queries(client, url.format(pk=group.pk))
    print(f"{url}: {small} queries")  # shown with -s, for the report
    _history(campaign, alice, 990)
    with django_assert_num_queries(small):
        client.get(url.format(pk=group.pk))
    assert campaign.attempts.count() == 1000
