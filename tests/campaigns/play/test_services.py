"""The campaign state machine (campaigns.play.services): attempts, Bonus tokens, the
Sleeve, rebirth, undo and bad input, one behaviour per test."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError
from campaigns.groups.services import (
    new_campaign,
)
from campaigns.models import Campaign, Event, Group
from campaigns.play.services import StaleWrite, judge_layout, record_attempt, retrieve, skip, undo
from campaigns.play.state import NUMBERED_CLOCKS, CampaignState, campaign_state
from rules.catalogue import get_clock
from tests.campaigns.shapes import BAD_CARD, FAILING_1_1, PASSING_1_1, Play


def state(campaign: Campaign) -> CampaignState:
    campaign.refresh_from_db()
    return campaign_state(campaign)


def test_a_new_group_starts_at_chapter_1_clock_1(campaign: Campaign) -> None:
    s = state(campaign)
    assert (s.chapter, s.next_clock, s.bonus_tokens) == (1, "1-1", 0)
    assert s.passed == [] and s.sleeve == [] and s.attempted == 0
    assert campaign.progress.count() == 40


def test_it_flips_a_bonus_token_on_failure(campaign: Campaign, play: Play) -> None:
    play(campaign, "failed")
    assert state(campaign).bonus_tokens == 1


def test_it_never_flips_more_than_three_bonus_tokens(campaign: Campaign, play: Play) -> None:
    for _ in range(5):
        play(campaign, "failed")
    assert state(campaign).bonus_tokens == 3
    assert campaign.attempts.count() == 5


def test_face_up_is_players_plus_flipped_tokens(campaign: Campaign, play: Play) -> None:
    first = play(campaign, "failed", players=2)
    second = play(campaign, "failed", players=2)
    third = play(campaign, "passed", players=4)
    assert [a.face_up for a in (first, second, third)] == [2, 3, 6]
    assert [a.bonus_tokens for a in (first, second, third)] == [0, 1, 2]


def test_a_pass_turns_the_tokens_face_down(campaign: Campaign, play: Play) -> None:
    play(campaign, "failed")
    play(campaign, "passed")
    assert state(campaign).bonus_tokens == 0


def test_a_pass_moves_on_to_the_next_clock(campaign: Campaign, play: Play) -> None:
    play(campaign, "passed")
    s = state(campaign)
    assert s.next_clock == "1-2" and s.passed == ["1-1"]


def test_a_failure_keeps_the_same_clock(campaign: Campaign, play: Play) -> None:
    play(campaign, "failed")
    s = state(campaign)
    assert s.next_clock == "1-1"
    assert s.by_id["1-1"].retrying


def test_a_skip_puts_the_clock_in_the_sleeve_and_moves_on(
    campaign: Campaign, play: Play, alice: User
) -> None:
    play(campaign, "failed")
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    s = state(campaign)
    assert s.sleeve == ["1-1"] and s.next_clock == "1-2" and s.bonus_tokens == 0


def test_a_clock_is_not_skipped_before_it_was_played(campaign: Campaign, alice: User) -> None:
    with pytest.raises(CampaignError) as error:
        skip(campaign, alice, "1-1")
    assert error.value.field == "clock"
    assert state(campaign).sleeve == []


def test_a_clock_put_back_from_the_sleeve_is_played_next(
    campaign: Campaign, play: Play, alice: User
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    play(campaign, "passed")  # 1-2
    retrieve(campaign, alice, ["1-1"])
    s = state(campaign)
    assert s.next_clock == "1-1" and s.sleeve == []


def test_several_clocks_go_back_on_top_in_the_order_given(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for clock in ("1-1", "1-2"):
        play(campaign, "failed")
        skip(campaign, alice, clock)
    retrieve(campaign, alice, ["1-2", "1-1"])
    assert state(campaign).stack()[:3] == ["1-2", "1-1", "1-3"]


def test_two_retrievals_in_a_row_put_the_later_one_on_top(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for clock in ("1-1", "1-2"):
        play(campaign, "failed")
        skip(campaign, alice, clock)
    retrieve(campaign, alice, ["1-1"])
    retrieve(campaign, alice, ["1-2"])
    assert state(campaign).stack()[:3] == ["1-2", "1-1", "1-3"]
    assert campaign.stack_top == ["1-2", "1-1"]


def test_a_retrieval_goes_above_an_earlier_retrieved_clock_still_unplayed(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for clock in ("1-1", "1-2", "1-3"):
        play(campaign, "failed")
        skip(campaign, alice, clock)
    retrieve(campaign, alice, ["1-1", "1-2"])
    play(campaign, "passed")  # 1-1; 1-2 waits on top of the stack
    retrieve(campaign, alice, ["1-3"])
    assert state(campaign).stack()[:3] == ["1-3", "1-2", "1-4"]
    played = [play(campaign, "passed").clock_id for _ in range(3)]
    assert played == ["1-3", "1-2", "1-4"]


def test_a_retrieval_of_four_clocks_is_recorded_whole_and_undone(group: Group, alice: User) -> None:
    campaign = new_campaign(group, start_chapter=10)
    clocks = ["10-1", "10-2", "10-3", "10-4"]
    for clock in clocks:
        record_attempt(campaign, alice, clock, "failed", 3)
        skip(campaign, alice, clock)
    event = retrieve(campaign, alice, clocks[::-1])
    event.refresh_from_db()
    event.full_clean()  # what PostgreSQL enforces (SQLite stores any length)
    assert event.clock_id == "10-4,10-3,10-2,10-1"
    assert state(campaign).stack() == clocks[::-1]
    undo(campaign, alice)
    assert state(campaign).sleeve == clocks and state(campaign).stack() == []


def test_a_clock_passed_from_the_sleeve_leaves_it(
    campaign: Campaign, play: Play, alice: User
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    retrieve(campaign, alice, ["1-1"])
    play(campaign, "passed")
    s = state(campaign)
    assert s.sleeve == [] and "1-1" in s.passed and s.next_clock == "1-2"
    assert campaign.stack_top == []


def test_clocks_are_not_taken_from_the_sleeve_mid_clock(
    campaign: Campaign, play: Play, alice: User
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    play(campaign, "failed")  # 1-2, a Bonus token is face up
    with pytest.raises(CampaignError):
        retrieve(campaign, alice, ["1-1"])
    assert state(campaign).sleeve == ["1-1"]


def test_a_clock_in_the_sleeve_cannot_be_attempted(
    campaign: Campaign, play: Play, alice: User
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, "1-1", "passed", 3)
    assert error.value.field == "clock"


def test_only_the_next_clock_can_be_attempted(campaign: Campaign, alice: User) -> None:
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, "2-1", "passed", 3)
    assert error.value.field == "clock"
    assert campaign.attempts.count() == 0


def test_a_chapter_opens_when_its_four_clocks_are_passed_or_skipped(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for _ in range(3):
        play(campaign, "passed")
    assert state(campaign).chapter == 1
    play(campaign, "failed")
    skip(campaign, alice, "1-4")
    s = state(campaign)
    assert s.chapter == 2 and s.next_clock == "2-1"


def test_the_campaign_is_complete_when_all_40_clocks_are_passed(
    campaign: Campaign, play: Play
) -> None:
    for _ in range(39):
        play(campaign, "passed")
    assert not state(campaign).completed
    play(campaign, "passed")
    s = state(campaign)
    assert s.completed and s.next_clock is None and s.chapter == 10
    assert campaign.completed is not None


def test_rebirth_unlocks_once_all_40_clocks_were_attempted(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for clock in NUMBERED_CLOCKS:
        play(campaign, "failed")
        if clock != "10-4":
            skip(campaign, alice, clock)
    s = state(campaign)
    assert s.rebirth_unlocked and not s.completed
    assert len(s.sleeve) == 39 and s.next_clock == "10-4"


def test_rebirth_stays_locked_at_39_attempted_clocks_and_opens_at_the_40th(
    group: Group, campaign: Campaign, play: Play, alice: User
) -> None:
    for clock in NUMBERED_CLOCKS[:39]:  # passed at once or failed then skipped
        outcome = "passed" if clock.endswith(("-1", "-3")) else "failed"
        play(campaign, outcome)
        if outcome == "failed":
            skip(campaign, alice, clock)
    s = state(campaign)
    assert (s.attempted, s.next_clock, s.rebirth_unlocked) == (39, "10-4", False)
    assert s.to_json()["rebirth_unlocked"] is False
    with pytest.raises(CampaignError) as error:
        new_campaign(group, Campaign.Kind.REBIRTH)
    assert error.value.field == "kind" and group.campaigns.count() == 1
    play(campaign, "failed")  # 10-4: attempted, not passed
    s = state(campaign)
    assert (s.attempted, s.rebirth_unlocked, s.completed) == (40, True, False)
    rebirth = new_campaign(group, Campaign.Kind.REBIRTH)
    assert rebirth.kind == Campaign.Kind.REBIRTH and group.current_campaign() == rebirth


def test_the_rebirth_clock_is_played_last_and_passing_it_completes_the_campaign(
    group: Group, play: Play
) -> None:
    first = new_campaign(group, start_chapter=10)  # chapters 1-9 already passed
    for _ in range(4):
        play(first, "passed")
    assert state(first).completed and state(first).rebirth_unlocked
    rebirth = new_campaign(group, Campaign.Kind.REBIRTH, start_chapter=10)
    for _ in range(4):
        play(rebirth, "passed")
    s = state(rebirth)
    assert (s.next_clock, s.completed, s.attempted) == ("rebirth", False, 40)
    failed = play(rebirth, "failed")
    assert failed.clock_id == "rebirth" and state(rebirth).bonus_tokens == 1
    assert state(rebirth).next_clock == "rebirth" and rebirth.completed is None
    passed = play(rebirth, "passed")
    assert (passed.clock_id, passed.bonus_tokens, passed.face_up) == ("rebirth", 1, 4)
    s = state(rebirth)
    assert s.completed and s.next_clock is None and s.passed[-1] == "rebirth"
    assert len(s.passed) == 41 and s.attempted == 40  # Rebirth is not one of the 40 clocks
    assert s.to_json()["completed"] is True and rebirth.completed is not None


def test_rebirth_is_locked_before(campaign: Campaign, play: Play) -> None:
    play(campaign, "passed")
    assert not state(campaign).rebirth_unlocked
    with pytest.raises(CampaignError) as error:
        new_campaign(campaign.group, Campaign.Kind.REBIRTH)
    assert error.value.field == "kind"


def test_a_rebirth_campaign_adds_the_rebirth_clock(campaign: Campaign, play: Play) -> None:
    for _ in range(40):
        play(campaign, "passed")
    rebirth = new_campaign(campaign.group, Campaign.Kind.REBIRTH)
    assert campaign.group.current_campaign() == rebirth
    s = state(rebirth)
    assert len(s.rows) == 41 and s.stack()[-1] == "rebirth"


def test_a_campaign_can_start_mid_game(group: Group) -> None:
    campaign = new_campaign(group, start_chapter=4)
    s = state(campaign)
    assert s.chapter == 4 and s.next_clock == "4-1" and len(s.passed) == 12
    assert s.attempted == 12


def test_a_campaign_can_start_mid_chapter(group: Group) -> None:
    campaign = new_campaign(group, start_chapter=4, passed=["4-1", "4-2"])
    s = state(campaign)
    assert s.next_clock == "4-3" and len(s.passed) == 14


def test_the_rebirth_clock_is_not_marked_passed_in_a_normal_campaign(group: Group) -> None:
    with pytest.raises(CampaignError) as error:
        new_campaign(group, passed=["rebirth"])
    assert error.value.field == "passed" and group.campaigns.count() == 1


def test_undo_reverts_a_failure(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "failed")
    undo(campaign, alice)
    s = state(campaign)
    assert s.bonus_tokens == 0 and s.by_id["1-1"].attempts == 0
    assert campaign.attempts.count() == 0


def test_undo_reverts_a_pass_with_its_tokens(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "failed")
    play(campaign, "failed")
    play(campaign, "passed")
    undo(campaign, alice)
    s = state(campaign)
    assert (s.next_clock, s.bonus_tokens, s.by_id["1-1"].attempts) == ("1-1", 2, 2)


def test_undo_reverts_a_skip(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    undo(campaign, alice)
    s = state(campaign)
    assert s.sleeve == [] and s.next_clock == "1-1" and s.bonus_tokens == 1


def test_undo_reverts_a_retrieval(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    retrieve(campaign, alice, ["1-1"])
    undo(campaign, alice)
    s = state(campaign)
    assert s.sleeve == ["1-1"] and s.next_clock == "1-2"


def test_undo_reverts_completion(campaign: Campaign, play: Play, alice: User) -> None:
    for _ in range(40):
        play(campaign, "passed")
    undo(campaign, alice)
    campaign.refresh_from_db()
    assert campaign.completed is None and state(campaign).next_clock == "10-4"


def test_undo_twice_reverts_two_events(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "passed")
    play(campaign, "failed")
    undo(campaign, alice)
    undo(campaign, alice)
    assert state(campaign).next_clock == "1-1"
    assert campaign.events.filter(undone__isnull=False).count() == 2


def test_a_double_tap_on_undo_undoes_once(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "passed")
    last = play(campaign, "failed")
    undo(campaign, alice, last.event_id)
    undo(campaign, alice, last.event_id)
    s = state(campaign)
    assert s.passed == ["1-1"] and s.next_clock == "1-2" and s.bonus_tokens == 0


def test_undo_of_a_change_that_is_no_longer_last_is_refused(
    campaign: Campaign, play: Play, alice: User
) -> None:
    first = play(campaign, "failed")
    play(campaign, "failed")
    # Refused as a stale write: 409 with the fresh progress, and nothing undone.
    with pytest.raises(StaleWrite) as error:
        undo(campaign, alice, first.event_id)
    assert error.value.status == 409 and state(campaign).bonus_tokens == 2


def test_there_is_nothing_to_undo_at_first(campaign: Campaign, alice: User) -> None:
    with pytest.raises(CampaignError):
        undo(campaign, alice)


def test_a_double_submit_records_once(campaign: Campaign, alice: User) -> None:
    first = record_attempt(campaign, alice, "1-1", "passed", 3, request_key="k1")
    again = record_attempt(campaign, alice, "1-1", "passed", 3, request_key="k1")
    assert first.pk == again.pk
    assert campaign.attempts.count() == 1 and state(campaign).next_clock == "1-2"


def test_a_double_skip_records_once(campaign: Campaign, play: Play, alice: User) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1", request_key="s")
    skip(campaign, alice, "1-1", request_key="s")
    assert campaign.events.filter(kind=Event.Kind.SKIPPED).count() == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"clock_id": "11-1"}, "clock"),
        ({"clock_id": 7}, "clock"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": True}, "players"),
        ({"outcome": "won"}, "outcome"),
        ({"layout": "S1 | S2"}, "layout"),
        ({"notes": "x" * 2001}, "notes"),
    ],
)
def test_bad_input_names_the_field_and_records_nothing(
    campaign: Campaign, alice: User, kwargs: dict[str, Any], field: str
) -> None:
    args: dict[str, Any] = {"clock_id": "1-1", "outcome": "passed", "players": 3, **kwargs}
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, **args)
    assert error.value.field == field
    assert campaign.attempts.count() == 0 and campaign.events.count() == 0


def test_a_layout_that_fails_cannot_be_recorded_as_passed(campaign: Campaign, alice: User) -> None:
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, "1-1", "passed", 3, layout=FAILING_1_1)
    assert error.value.field == "layout"
    assert campaign.attempts.count() == 0


def test_a_layout_that_passes_cannot_be_recorded_as_failed(campaign: Campaign, alice: User) -> None:
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, "1-1", "failed", 3, layout=PASSING_1_1)
    assert error.value.field == "layout"


def test_an_attempt_keeps_the_verdict_and_the_clock_version(
    campaign: Campaign, alice: User
) -> None:
    transcribe(campaign.group, "1-1", get_clock("1-1").to_json(), alice)
    attempt = record_attempt(campaign, alice, "1-1", "passed", 3, layout=PASSING_1_1)
    attempt.refresh_from_db()
    assert attempt.verdict is not None and attempt.verdict["passed"] is True
    assert attempt.clock_version == 1


def test_a_passed_clock_of_a_completed_campaign_is_refused(
    campaign: Campaign, play: Play, alice: User
) -> None:
    for _ in range(40):
        play(campaign, "passed")
    with pytest.raises(CampaignError) as error:
        record_attempt(campaign, alice, "3-2", "passed", 3)
    assert error.value.field == "clock"
    assert campaign.attempts.count() == 40


def test_recording_a_bad_layout_is_refused_in_the_active_language() -> None:
    clock = get_clock("1-1")
    with translation.override("nl"), pytest.raises(CampaignError) as error:
        judge_layout(clock, BAD_CARD, "passed")
    assert error.value.field == "layout"
    assert error.value.message.startswith("'S13' is geen kaart")
    with translation.override("ja"), pytest.raises(CampaignError) as failing:
        judge_layout(clock, FAILING_1_1, "passed")
    assert "第6区画" in failing.value.message
