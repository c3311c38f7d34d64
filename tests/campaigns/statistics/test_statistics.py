"""campaigns.statistics.compute: every definition of the statistics contract, pinned with exact
numbers on hand-built histories recorded through the services (as a table would)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session, new_campaign
from campaigns.models import Attempt, Campaign, Group
from campaigns.statistics.community import refresh_community
from campaigns.statistics.compute import group_statistics
from campaigns.statistics.figures import (
    HintBin,
    Run,
    Tally,
    UnknownCampaign,
    histogram_lower_median,
    lower_median,
    wilson,
)
from solver.models import HintRequest
from tests.campaigns.statistics.conftest import T0, record


def clock(stats: Any, clock_id: str) -> Any:
    return next(c for c in stats.clocks if c.clock == clock_id)


# --- attempts, skips, undo ----------------------------------------------------------------


def test_totals_count_passes_and_failures_not_skips_nor_undone_attempts(
    group: Group, history: dict
) -> None:
    assert group_statistics(group).totals == {
        "sessions": 2,
        "attempts": 9,
        "passed": 4,
        "failed": 5,
        "skips": 1,
        "clocks_passed": 4,
        "first_try_passes": 1,
        "failed_winnable": 0,  # no layout was recorded (tests/campaigns/play/test_winnable.py)
        "failed_winnable_unknown": 0,
        "minutes": 15,
    }


def test_each_clock_counts_its_attempts_passes_skips_and_attempts_to_pass(
    group: Group, history: dict
) -> None:
    stats = group_statistics(group)
    got = {
        c.clock: (c.attempts, c.passes, c.skips, c.attempts_to_pass, c.first_try, c.minutes)
        for c in stats.clocks[:5]
    }
    assert got == {
        "1-1": (4, 1, 0, 4, False, 15),
        "1-2": (1, 1, 0, 1, True, None),
        "1-3": (2, 1, 1, 2, False, None),
        "1-4": (2, 1, 0, 2, False, None),
        "2-1": (0, 0, 0, None, False, None),  # its only attempt was undone
    }


def test_clocks_list_every_numbered_clock_in_order_and_rebirth_only_in_scope(
    group: Group, history: dict
) -> None:
    stats = group_statistics(group)
    assert [c.clock for c in stats.clocks][:5] == ["1-1", "1-2", "1-3", "1-4", "2-1"]
    assert len(stats.clocks) == 40 and stats.clocks[-1].clock == "10-4"


def test_chapters_sum_their_clocks(group: Group, history: dict) -> None:
    chapters = group_statistics(group).chapters
    assert [(c.chapter, c.attempts, c.passes, c.clocks_passed) for c in chapters[:3]] == [
        (1, 9, 4, 4),
        (2, 0, 0, 0),
        (3, 0, 0, 0),
    ]
    assert len(chapters) == 10


# --- table sizes and Bonus tokens -------------------------------------------------------------


def test_table_sizes_and_bonus_tokens_face_up(group: Group, history: dict) -> None:
    stats = group_statistics(group)
    assert stats.by_players == {"2": Tally(1, 1), "3": Tally(8, 3), "4": Tally(0, 0)}
    assert stats.by_players["4"].rate is None and stats.by_players["4"].interval is None
    assert stats.by_bonus_tokens == {
        "0": Tally(5, 2),
        "1": Tally(2, 1),
        "2": Tally(1, 0),
        "3": Tally(1, 1),
    }


def test_a_table_size_filter_counts_attempts_to_pass_within_its_attempts(
    group: Group, history: dict
) -> None:
    at_two = clock(group_statistics(group, players=2), "1-4")
    at_three = clock(group_statistics(group, players=3), "1-4")
    assert (at_two.attempts, at_two.attempts_to_pass, at_two.first_try) == (1, 1, True)
    assert (at_three.attempts, at_three.attempts_to_pass, at_three.first_try) == (1, None, False)
    assert group_statistics(group, players=2).totals["sessions"] == 1


# --- players ----------------------------------------------------------------------------------


def test_a_player_takes_part_in_the_attempts_of_the_sessions_they_sat_at(
    group: Group, history: dict
) -> None:
    players = {
        p.name: (p.attempts, p.passes, p.opened, p.opened_passes)
        for p in group_statistics(group).players
    }
    assert players == {"Ann": (9, 4, 3, 2), "Ben": (9, 4, 1, 0), "Cleo": (4, 2, 1, 0)}


def test_a_players_rate_has_a_wilson_interval(group: Group, history: dict) -> None:
    cleo = next(p for p in group_statistics(group).players if p.name == "Cleo")
    assert cleo.rate == 0.5
    low, high = cleo.interval  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.15, 0.85)


def test_the_wilson_interval_of_known_counts() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(0, 10)  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    low, high = wilson(9, 10)  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.5958, 0.9821)


# --- sessions and streaks ---------------------------------------------------------------------


def test_sessions_are_chronological_with_the_clocks_passed_so_far(
    group: Group, history: dict
) -> None:
    sessions = group_statistics(group).sessions
    assert [
        (s.id, s.date, s.attempts, s.passes, s.clocks_passed_after, s.minutes) for s in sessions
    ] == [
        (history["first"].pk, date(2026, 11, 1), 5, 2, 2, 15),
        (history["second"].pk, date(2026, 11, 8), 4, 2, 4, None),
    ]


def test_streaks_follow_recording_order(group: Group, history: dict) -> None:
    streaks = group_statistics(group).streaks  # F F F P P F F P P
    assert (streaks.longest_pass, streaks.longest_fail) == (2, 3)
    assert streaks.current == Run("passed", 2)


def test_streaks_of_nothing(group: Group) -> None:
    streaks = group_statistics(group).streaks
    assert (streaks.longest_pass, streaks.longest_fail, streaks.current) == (0, 0, None)


# --- several campaigns ------------------------------------------------------------------------


def test_the_default_scope_is_the_current_campaign(group: Group, second_campaign: Campaign) -> None:
    stats = group_statistics(group)
    assert stats.campaigns == [second_campaign.pk]
    assert stats.totals["attempts"] == 4


def test_campaign_all_sums_counts_and_takes_the_lower_median_of_attempts_to_pass(
    group: Group, campaign: Campaign, second_campaign: Campaign
) -> None:
    stats = group_statistics(group, "all")
    assert stats.campaigns == [campaign.pk, second_campaign.pk]
    one_one, one_two = clock(stats, "1-1"), clock(stats, "1-2")
    # 1-1: 4 then 1 attempts; 1-2: 1 then 3. The lower median of two is the smaller.
    assert (one_one.attempts, one_one.passes, one_one.attempts_to_pass) == (5, 2, 1)
    assert (one_two.attempts, one_two.passes, one_two.attempts_to_pass) == (4, 2, 1)
    assert one_one.first_try and one_two.first_try
    assert stats.totals["clocks_passed"] == 6 and stats.totals["first_try_passes"] == 2
    assert [s.clocks_passed_after for s in stats.sessions] == [2, 4, 2]


def test_one_older_campaign_by_id(
    group: Group, campaign: Campaign, second_campaign: Campaign
) -> None:
    assert group_statistics(group, campaign.pk).totals["attempts"] == 9


def test_a_campaign_of_another_group_is_unknown(
    group: Group, second_campaign: Campaign, bob: User
) -> None:
    other = create_group(bob, "Elsewhere").current_campaign()
    with pytest.raises(UnknownCampaign):
        group_statistics(group, other.pk)


def test_medians_are_lower_medians() -> None:
    assert lower_median([]) is None
    assert lower_median([4, 1]) == 1
    assert lower_median([3, 1, 2, 5]) == 2
    assert histogram_lower_median({1: 1, 2: 2, 3: 1, 5: 1}) == 2
    assert histogram_lower_median({4: 1, 1: 1}) == 1
    assert histogram_lower_median({2: 0}) is None


# --- hint calibration ---------------------------------------------------------------------------


def hint(
    group: Group,
    campaign: Campaign,
    user: User,
    clock_id: str,
    rate: float,
    finished: datetime,
    *,
    players: int = 3,
    attempt: Attempt | None = None,
    status: str = HintRequest.Status.DONE,
) -> HintRequest:
    return HintRequest.objects.create(
        user=user,
        group=group,
        campaign=campaign,
        attempt=attempt,
        clock_id=clock_id,
        clock_definition={},
        colours="SSSS/MMMM/SSMM",
        players=players,
        face_up=players,
        input_hash=f"{clock_id}-{rate}-{finished.isoformat()}",
        status=status,
        result={"pass_rate": rate} if status == HintRequest.Status.DONE else None,
        finished_at=finished,
    )


def test_hints_are_rated_by_the_attempt_asked_for_or_the_next_within_24_hours(
    group: Group, campaign: Campaign, alice: User, history: dict
) -> None:
    a = history["attempts"]
    hint(group, campaign, alice, "1-1", 0.9, T0, attempt=a["4"])  # passed
    # 1-3 is next played (and passed) two hours after this hint finished
    hint(group, campaign, alice, "1-3", 0.3, T0 + timedelta(days=7, hours=1))
    # 1-4's next attempt at three players (a failure) comes 30 minutes later; the pass
    # was at two players
    hint(group, campaign, alice, "1-4", 0.5, T0 + timedelta(days=7, minutes=30))
    hint(group, campaign, alice, "2-2", 0.7, T0)  # never played: asked, not rated
    hint(group, campaign, alice, "1-2", 0.1, T0 - timedelta(hours=25))  # too long before
    hint(group, campaign, alice, "1-1", 0.0, T0, status=HintRequest.Status.FAILED)
    hints = group_statistics(group).hints
    assert (hints.asked, hints.rated) == (5, 3)
    assert hints.predicted_mean == pytest.approx((0.9 + 0.3 + 0.5) / 3)
    assert hints.actual_rate == pytest.approx(2 / 3)
    assert hints.brier == pytest.approx((0.01 + 0.49 + 0.25) / 3)
    assert hints.bins == [
        HintBin(0.0, 0.2),
        HintBin(0.2, 0.4, 1, pytest.approx(0.3), 1.0),  # type: ignore[arg-type]
        HintBin(0.4, 0.6, 1, pytest.approx(0.5), 0.0),  # type: ignore[arg-type]
        HintBin(0.6, 0.8),
        HintBin(0.8, 1.0, 1, pytest.approx(0.9), 1.0),  # type: ignore[arg-type]
    ]


def test_a_sure_hint_falls_in_the_last_bin(
    group: Group, campaign: Campaign, alice: User, history: dict
) -> None:
    hint(group, campaign, alice, "1-1", 1.0, T0, attempt=history["attempts"]["4"])
    hints = group_statistics(group).hints
    assert (hints.bins[4].hints, hints.brier) == (1, 0.0)


def test_no_hint_means_no_calibration(group: Group, history: dict) -> None:
    hints = group_statistics(group).hints
    assert (hints.asked, hints.rated, hints.predicted_mean, hints.brier) == (0, 0, None, None)


# --- community ----------------------------------------------------------------------------------


def table_that_passes(
    owner: User, name: str, tries: int, *, start_chapter: int = 1, share: bool = True
) -> Group:
    """Another group whose first campaign passes its first clock at attempt ``tries``."""
    group = create_group(owner, name)
    group.share_with_community = share
    group.save(update_fields=["share_with_community"])
    campaign = group.current_campaign()
    if start_chapter > 1:
        campaign = new_campaign(group, start_chapter=start_chapter)
    session = fill_in_session(campaign, [])
    for outcome in ["failed"] * (tries - 1) + ["passed"]:
        record(campaign, owner, outcome, session=session)
    return group


def test_community_figures_are_other_groups_lower_median_from_five_groups(
    group: Group, history: dict, bob: User
) -> None:
    for n, tries in enumerate([1, 2, 2, 3]):
        table_that_passes(bob, f"Table {n}", tries)
    refresh_community()
    assert clock(group_statistics(group), "1-1").community is None  # four others
    table_that_passes(bob, "Table 5", 5)
    refresh_community()
    community = clock(group_statistics(group), "1-1").community
    # others took 1, 2, 2, 3, 5; our own 4 stays out of it
    assert community is not None
    assert (community.groups, community.median_attempts_to_pass) == (5, 2)


def test_a_group_that_opts_out_neither_contributes_nor_sees(
    group: Group, history: dict, bob: User
) -> None:
    for n, tries in enumerate([1, 2, 2, 3, 5]):
        table_that_passes(bob, f"Table {n}", tries, share=n != 0)
    refresh_community()
    assert clock(group_statistics(group), "1-1").community is None  # four others share
    table_that_passes(bob, "Table 6", 1)
    refresh_community()
    assert clock(group_statistics(group), "1-1").community is not None
    group.share_with_community = False
    group.save()
    assert clock(group_statistics(group), "1-1").community is None


def test_community_figures_stay_hidden_for_a_chapter_the_group_has_not_opened(
    group: Group, history: dict, bob: User
) -> None:
    for n in range(5):
        table_that_passes(bob, f"Table {n}", 2, start_chapter=3)
    refresh_community()
    stats = group_statistics(group)
    assert clock(stats, "3-1").community is None  # this group is in chapter 2
    assert [c.opened for c in stats.chapters[:3]] == [True, True, False]
