"""The campaign's version and the stale-write guard: a change made from a board older than a
change to the same clock is refused; older boards are fine for other clocks."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from campaigns.errors import CampaignError
from campaigns.models import Attempt, Campaign, Event
from campaigns.play import services as play_services
from campaigns.play.services import StaleWrite, last_undoable, record_attempt, retrieve, skip
from campaigns.play.state import campaign_state, campaign_version

pytestmark = pytest.mark.django_db


def _version(campaign: Campaign) -> int:
    return campaign_version(campaign)


def test_the_version_is_zero_before_any_event_then_the_last_event_id(
    campaign: Campaign, play: Callable[..., Attempt]
) -> None:
    assert _version(campaign) == 0
    attempt = play(campaign, "failed")
    assert _version(campaign) == attempt.event_id
    assert campaign_state(campaign).to_json()["version"] == attempt.event_id


def test_an_undo_is_an_event_so_it_moves_the_version(
    campaign: Campaign, alice: User, play: Callable[..., Attempt]
) -> None:
    attempt = play(campaign, "failed")
    before = _version(campaign)
    play_services.undo(campaign, alice)
    after = _version(campaign)
    assert after > before
    undo_event = Event.objects.get(pk=after)
    assert (undo_event.kind, undo_event.clock_id) == (Event.Kind.UNDONE, "1-1")
    assert undo_event.before["event"] == attempt.event_id


def test_an_undo_event_is_never_undone_itself(
    campaign: Campaign, alice: User, play: Callable[..., Attempt]
) -> None:
    play(campaign, "failed")
    play(campaign, "failed")
    play_services.undo(campaign, alice)
    play_services.undo(campaign, alice)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 0
    assert last_undoable(campaign) is None
    with pytest.raises(CampaignError):
        play_services.undo(campaign, alice)


def test_a_second_phone_failing_the_same_clock_from_the_same_board_is_refused(
    campaign: Campaign, alice: User, bob: User
) -> None:
    seen = _version(campaign)
    record_attempt(campaign, alice, "1-1", "failed", 3, expected_event=seen)
    with pytest.raises(StaleWrite) as refused:
        record_attempt(campaign, bob, "1-1", "failed", 3, expected_event=seen)
    assert refused.value.status == 409
    assert "failed" in refused.value.message and "1-1" in refused.value.message
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1
    assert campaign.attempts.count() == 1


def test_tapping_again_from_the_fresh_board_records_another_attempt(
    campaign: Campaign, alice: User, bob: User
) -> None:
    seen = _version(campaign)
    record_attempt(campaign, alice, "1-1", "failed", 3, expected_event=seen)
    fresh = _version(campaign)
    record_attempt(campaign, bob, "1-1", "failed", 3, expected_event=fresh)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2


def test_a_board_stale_only_because_of_another_clock_is_accepted(
    campaign: Campaign, alice: User, bob: User, play: Callable[..., Attempt]
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")  # 1-1 to the Sleeve; 1-2 is next
    seen = _version(campaign)
    record_attempt(campaign, alice, "1-2", "passed", 3)  # another clock
    retrieve(campaign, alice, ["1-1"], expected_event=seen)  # 1-1 untouched since
    campaign.refresh_from_db()
    assert campaign_state(campaign).next_clock == "1-1"


def test_a_skip_against_a_board_older_than_a_record_of_that_clock_is_refused(
    campaign: Campaign, alice: User, bob: User, play: Callable[..., Attempt]
) -> None:
    play(campaign, "failed")
    seen = _version(campaign)
    record_attempt(campaign, alice, "1-1", "passed", 3)
    with pytest.raises(StaleWrite):
        skip(campaign, bob, "1-1", expected_event=seen)
    assert campaign_state(campaign).sleeve == []


def test_an_undo_against_a_board_older_than_another_undo_is_refused(
    campaign: Campaign, alice: User, bob: User, play: Callable[..., Attempt]
) -> None:
    play(campaign, "failed")
    play(campaign, "failed")
    seen = _version(campaign)
    play_services.undo(campaign, alice, expected_event=seen)
    with pytest.raises(StaleWrite) as refused:
        play_services.undo(campaign, bob, expected_event=seen)
    assert "undid" in refused.value.message
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1  # one undo, not two


def test_a_retrieval_against_a_board_older_than_a_retrieval_of_that_clock_is_refused(
    campaign: Campaign, alice: User, bob: User, play: Callable[..., Attempt]
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    seen = _version(campaign)
    retrieve(campaign, alice, ["1-1"])
    with pytest.raises(StaleWrite):
        retrieve(campaign, bob, ["1-1"], expected_event=seen)


def test_without_a_version_nothing_changes(campaign: Campaign, alice: User, bob: User) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    record_attempt(campaign, bob, "1-1", "failed", 3)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2


def test_a_refusal_body_is_the_current_progress_with_what_happened(
    campaign: Campaign, alice: User, bob: User
) -> None:
    seen = _version(campaign)
    record_attempt(campaign, alice, "1-1", "failed", 3, expected_event=seen)
    with pytest.raises(StaleWrite) as refused:
        record_attempt(campaign, bob, "1-1", "failed", 3, expected_event=seen)
    body = refused.value.body()
    assert body["bonus_tokens"] == 1
    assert body["version"] == _version(campaign)
    assert body["detail"] == refused.value.message


def test_an_undo_is_left_out_of_the_exported_history(
    campaign: Campaign, alice: User, play: Callable[..., Attempt]
) -> None:
    from campaigns.history.exports import export_history

    play(campaign, "failed")
    play(campaign, "failed")
    play_services.undo(campaign, alice)
    history = export_history(campaign.group)["campaigns"][0]["history"]
    assert [item["event"] for item in history] == ["failed"]
