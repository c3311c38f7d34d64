"""The statistics room's fixtures: a cast, a history, campaigns played for the statistics."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from campaigns.groups.services import fill_in_session, new_campaign
from campaigns.models import Attempt, Campaign, Group, Player
from campaigns.play import services as play_services
from campaigns.play.services import record_attempt, retrieve, skip
from campaigns.play.state import campaign_state


@pytest.fixture
def cast(group: Group) -> dict[str, Player]:
    return {p.name: p for p in group.players.all()}


@pytest.fixture
def history(group: Group, campaign: Campaign, alice: User, cast: dict[str, Player]) -> dict:
    """Two evenings of the first campaign:

    1 Nov, Ann and Ben:  1-1 F F F P (3 tokens up at the pass), 1-2 P at the first try
    8 Nov, all three:    1-3 F then skipped, 1-4 F, 1-4 P at two players, 1-3 back from the
                         Sleeve and P, then 2-1 F undone.
    """
    ann, ben, cleo = cast["Ann"], cast["Ben"], cast["Cleo"]
    first = fill_in_session(campaign, [ann, ben], date(2026, 11, 1))
    second = fill_in_session(campaign, [ann, ben, cleo], date(2026, 11, 8))
    a: dict[str, Attempt] = {}
    a["1"] = record(campaign, alice, "failed", session=first, opener=ann, minutes=5)
    a["2"] = record(campaign, alice, "failed", session=first, opener=ben)
    a["3"] = record(campaign, alice, "failed", session=first)
    a["4"] = record(campaign, alice, "passed", session=first, opener=ann, minutes=10)
    a["5"] = record(campaign, alice, "passed", session=first, opener=ann, at=T0)
    a["6"] = record(
        campaign, alice, "failed", session=second, opener=cleo, at=T0 + timedelta(days=7)
    )
    skip(campaign, alice, "1-3")
    a["7"] = record(campaign, alice, "failed", session=second, at=T0 + timedelta(days=7, hours=1))
    a["8"] = record(campaign, alice, "passed", session=second, players=2)
    campaign.refresh_from_db()
    retrieve(campaign, alice, ["1-3"])
    a["9"] = record(campaign, alice, "passed", session=second, at=T0 + timedelta(days=7, hours=3))
    record(campaign, alice, "failed", session=second)
    campaign.refresh_from_db()
    play_services.undo(campaign, alice)
    return {"first": first, "second": second, "attempts": a}


@pytest.fixture
def second_campaign(group: Group, history: dict, alice: User) -> Campaign:
    """A second play-through: 1-1 passed at once, 1-2 at the third attempt."""
    campaign = new_campaign(group)
    session = fill_in_session(campaign, [], date(2026, 11, 15))
    for outcome in ("passed", "failed", "failed", "passed"):
        record(campaign, alice, outcome, session=session)
    return campaign


@pytest.fixture
def two_attempts_played(group: Group, campaign: Campaign, play: Callable[..., Any]) -> Group:
    play(campaign, "failed")
    play(campaign, "passed", players=2)
    return group


@pytest.fixture
def five_attempts_in_a_session(group: Group, campaign: Campaign, play: Callable[..., Any]) -> Group:
    ann, ben = group.players.all()[:2]
    session = fill_in_session(campaign, [ann, ben], date(2026, 11, 1))
    for outcome in ("failed", "failed", "failed", "passed", "passed"):
        play(campaign, outcome, session=session, opener=ann)
    return group


T0 = datetime(2026, 11, 1, 19, 0, tzinfo=timezone.get_current_timezone())


def record(
    campaign: Campaign,
    user: User,
    outcome: str,
    *,
    session: Any,
    players: int = 3,
    opener: Player | None = None,
    minutes: int | None = None,
    at: datetime | None = None,
) -> Attempt:
    campaign.refresh_from_db()
    clock = campaign_state(campaign).next_clock
    attempt = record_attempt(
        campaign,
        user,
        clock,
        outcome,
        players,
        opener=opener,
        duration=None if minutes is None else timedelta(minutes=minutes),
        session=session,
    )
    if at is not None:
        Attempt.objects.filter(pk=attempt.pk).update(created=at)
        attempt.created = at
    return attempt
