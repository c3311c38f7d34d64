"""The recap room's fixtures: one evening to recap."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import fill_in_session
from campaigns.models import Campaign, Group, Session
from campaigns.play.services import record_attempt, skip
from solver import services as hint_services
from solver.hint_inputs import parse_input


@pytest.fixture
def recap_evening(group: Group, campaign: Campaign, alice: User, monkeypatch: Any) -> Session:
    """Ann, Ben and Cleo: 1-1 failed twice then passed (Ann opened twice), 1-2 failed and
    skipped, 1-3 passed (Ben opened); one hint for 1-1, finished, followed by its attempt."""
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    players = list(group.players.order_by("name"))
    ann, ben = players[0], players[1]
    session = fill_in_session(campaign, players)
    record_attempt(campaign, alice, "1-1", "failed", 3, opener=ann)
    hint, _created = hint_services.request_hint(
        alice, parse_input("1-1", "SSMM/MMSS/SMSM", None), group=group, campaign=campaign
    )
    done = type(hint).Status.DONE
    type(hint).objects.filter(pk=hint.pk).update(status=done, result={"pass_rate": 0.62})
    record_attempt(campaign, alice, "1-1", "failed", 3, opener=ann)
    record_attempt(campaign, alice, "1-1", "passed", 3)
    record_attempt(campaign, alice, "1-2", "failed", 3)
    skip(campaign, alice, "1-2")
    record_attempt(campaign, alice, "1-3", "passed", 3, opener=ben)
    return session
