"""Campaign tests' helpers: play an attempt, an evening at the table. The group, its cast
and the clients are in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import fill_in_session
from campaigns.models import Attempt, Campaign, Group, Session
from campaigns.play.services import record_attempt
from campaigns.play.state import campaign_state


@pytest.fixture
def group_url() -> Callable[..., str]:
    """group_url(group, tail=""): the address of one of the group's pages."""

    def _page(group: Group, tail: str = "") -> str:
        return f"/groups/{group.pk}/{tail}"

    return _page


@pytest.fixture
def tap(group_url: Callable[..., str]) -> Callable[..., Any]:
    """tap(client, group, action, htmx=False, follow=False, **data): one tap on the group
    page's passed / failed / skip buttons for the next clock, as a phone sends it."""

    def _tap(
        client: Client,
        group: Group,
        action: str,
        htmx: bool = False,
        follow: bool = False,
        **data: Any,
    ) -> Any:
        clock = campaign_state(group.current_campaign()).next_clock
        body = {"clock": clock, "players": 3, "action": action, **data}
        headers = {"HX-Request": "true"} if htmx else {}
        return client.post(group_url(group, "record/"), body, headers=headers, follow=follow)

    return _tap


@pytest.fixture
def play(alice: User) -> Callable[..., Attempt]:
    """play(campaign, outcome, players=3, **kwargs): record an attempt at the next clock."""

    def _play(campaign: Campaign, outcome: str, players: int = 3, **kwargs: Any) -> Attempt:
        campaign.refresh_from_db()
        clock = campaign_state(campaign).next_clock
        return record_attempt(campaign, alice, clock, outcome, players, **kwargs)

    return _play


@pytest.fixture
def evening(alice: User) -> Callable[[Group, list[str]], Session]:
    """evening(group, outcomes): a session with the group's three players at the table and one
    attempt at the next clock per outcome, each opened by Ben and lasting 7 minutes."""

    def _evening(group: Group, outcomes: list[str]) -> Session:
        campaign = group.current_campaign()
        players = list(group.players.order_by("name"))
        session = fill_in_session(campaign, players)
        for outcome in outcomes:
            campaign.refresh_from_db()
            clock = campaign_state(campaign).next_clock
            record_attempt(
                campaign,
                alice,
                clock,
                outcome,
                3,
                session=session,
                opener=players[1],
                duration=timedelta(minutes=7),
            )
        return session

    return _evening


@pytest.fixture
def staff(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.org", "password"))
    return client
