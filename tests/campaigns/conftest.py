"""The cast for campaign tests: Alice owns "Tuesday table", Bob is a member, Dave a viewer,
Charlie an outsider (users from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from campaigns.groups.services import create_group, start_session
from campaigns.models import Attempt, Campaign, Group, Membership, Session
from campaigns.play.services import record_attempt
from campaigns.play.state import campaign_state


@pytest.fixture
def group(alice: User, bob: User, dave: User, charlie: User) -> Group:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    Membership.objects.create(group=group, user=dave, role=Membership.Role.VIEWER)
    return group


@pytest.fixture
def campaign(group: Group) -> Campaign:
    return group.current_campaign()


@pytest.fixture
def users(alice: User, bob: User, dave: User, charlie: User) -> dict[str, User]:
    return {"owner": alice, "member": bob, "viewer": dave, "outsider": charlie}


@pytest.fixture
def api() -> Callable[[User], APIClient]:
    def _api(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return _api


@pytest.fixture
def as_role(users: dict[str, User], login: Callable[[User], Client]) -> Callable[[str], Client]:
    return lambda role: login(users[role])


@pytest.fixture
def api_as(users: dict[str, User], api: Callable[[User], APIClient]) -> Callable[[str], APIClient]:
    return lambda role: api(users[role])


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
        session = start_session(campaign, players)
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
