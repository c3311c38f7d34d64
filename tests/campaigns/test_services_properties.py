"""Property tests of the state machine: any sequence of table actions keeps the invariants,
and undoing every change brings the campaign back to where it started."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns import services
from campaigns.models import Attempt
from campaigns.services import CampaignError

ACTIONS = st.lists(
    st.sampled_from(["passed", "failed", "failed", "skip", "retrieve", "undo"]), max_size=40
)


def _act(campaign: Any, user: User, action: str) -> None:
    campaign.refresh_from_db()
    state = services.campaign_state(campaign)
    try:
        if action in ("passed", "failed"):
            if state.next_clock is not None:
                services.record_attempt(campaign, user, state.next_clock, action, 3)
        elif action == "skip":
            if state.next_clock is not None:
                services.skip(campaign, user, state.next_clock)
        elif action == "retrieve":
            if state.sleeve:
                services.retrieve(campaign, user, state.sleeve[-1:])
        else:
            services.undo(campaign, user)
    except CampaignError:
        pass  # refusals are part of the game (skip before a failure, undo of nothing...)


def _check_invariants(campaign: Any) -> None:
    campaign.refresh_from_db()
    state = services.campaign_state(campaign)
    assert 0 <= state.bonus_tokens <= 3
    assert len(state.passed) + len(state.sleeve) + len(state.stack()) == 40
    assert not set(state.sleeve) & set(state.stack())
    assert state.attempts == Attempt.objects.filter(campaign=campaign).count()
    assert all(row.failures <= row.attempts for row in state.rows)
    if state.next_clock is not None and state.bonus_tokens:
        assert state.by_id[state.next_clock].failures >= state.bonus_tokens


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_any_sequence_keeps_the_invariants_and_undoes_to_the_start(
    alice: User, actions: list[str]
) -> None:
    group = services.create_group(alice, "Property table")
    campaign = group.current_campaign()
    for action in actions:
        _act(campaign, alice, action)
        _check_invariants(campaign)
    while services.last_undoable(campaign) is not None:
        services.undo(campaign, alice)
    campaign.refresh_from_db()
    state = services.campaign_state(campaign)
    assert (state.next_clock, state.bonus_tokens, state.passed, state.sleeve) == (
        "1-1",
        0,
        [],
        [],
    )
    assert state.attempts == 0 and campaign.stack_top == []
