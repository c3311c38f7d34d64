"""Several phones on one group: the stale-write guard on the pages, and table mode (the live
board's poll: test_live.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.definitions.services import transcribe
from campaigns.models import Attempt, Campaign, Group
from campaigns.play.services import record_attempt, retrieve, skip
from campaigns.play.state import campaign_state, campaign_version
from rules.catalogue import get_clock
from solver.models import HintRequest

pytestmark = pytest.mark.django_db


# --- the stale-write guard on the pages ------------------------------------------------------


def _tap(client: Client, group: Group, action: str, version: int) -> Any:
    data = {"clock": "1-1", "players": "3", "action": action, "expected_event": str(version)}
    return client.post(f"/groups/{group.pk}/record/", data)


def test_the_board_forms_carry_the_version(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], as_role: Callable[[str], Client]
) -> None:
    attempt = play(campaign, "failed")
    page = as_role("member").get(f"/groups/{group.pk}/").content.decode()
    assert page.count(f'name="expected_event" value="{attempt.event_id}"') == 2  # record, undo


def test_a_second_phones_tap_from_a_stale_board_is_refused_with_the_fresh_board(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    first, second = as_role("owner"), as_role("member")
    assert _tap(first, group, "failed", 0).status_code == 302
    r = second.post(
        f"/groups/{group.pk}/record/",
        {"clock": "1-1", "players": "3", "action": "failed", "expected_event": "0"},
        headers={"hx-request": "true"},
    )
    assert r.status_code == 200  # htmx swaps the fresh board in
    page = r.content.decode()
    assert "Another phone already recorded" in page and "1-1" in page
    assert "1 of 3 face up" in page
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1
    assert campaign.attempts.count() == 1


def test_without_htmx_a_stale_tap_answers_409_with_the_message(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    _tap(as_role("owner"), group, "failed", 0)
    r = _tap(as_role("member"), group, "failed", 0)
    assert r.status_code == 409
    assert "Another phone already recorded" in r.content.decode()


def test_the_refusal_is_worded_in_the_readers_language(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    _tap(as_role("owner"), group, "failed", 0)
    r = as_role("member").post(
        f"/groups/{group.pk}/record/",
        {"clock": "1-1", "players": "3", "action": "failed", "expected_event": "0"},
        headers={"accept-language": "nl"},
    )
    assert r.status_code == 409
    assert "Een andere telefoon" in r.content.decode()


def test_a_stale_undo_is_refused(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], as_role: Callable[[str], Client]
) -> None:
    play(campaign, "failed")
    seen = campaign_version(campaign)  # the member's board shows this failure as the last
    play(campaign, "failed")  # another phone records one more
    member = as_role("member")
    r = member.post(f"/groups/{group.pk}/undo/", {"event": seen, "expected_event": seen})
    assert r.status_code == 409
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2


def test_a_stale_sleeve_retrieval_is_refused(
    group: Group,
    campaign: Campaign,
    alice: User,
    play: Callable[..., Attempt],
    as_role: Callable[[str], Client],
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    seen = campaign_version(campaign)
    retrieve(campaign, alice, ["1-1"])
    record_attempt(campaign, alice, "1-1", "failed", 3)
    skip(campaign, alice, "1-1")
    r = as_role("member").post(
        f"/groups/{group.pk}/sleeve/", {"clock": "1-1", "expected_event": seen}
    )
    assert r.status_code == 409
    assert campaign_state(campaign).sleeve == ["1-1"]


# --- table mode --------------------------------------------------------------------------------


def test_table_mode_shows_the_clock_tokens_allowance_and_big_targets(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], as_role: Callable[[str], Client]
) -> None:
    play(campaign, "failed")
    page = as_role("member").get(f"/groups/{group.pk}/table/").content.decode()
    assert "<h1>1-1" in page
    assert "1 of 3 face up" in page
    assert 'class="huge pass"' in page and 'class="huge fail"' in page
    assert 'name="view" value="table"' in page
    assert "data-table-mode" in page
    assert f'data-live-url="/groups/{group.pk}/live/"' in page


def test_viewers_see_table_mode_without_targets(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    r = as_role("viewer").get(f"/groups/{group.pk}/table/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "huge pass" not in page and "/record/" not in page
    assert "only members record results" in page


def test_viewers_see_the_live_board_read_only(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    page = as_role("viewer").get(f"/groups/{group.pk}/").content.decode()
    assert "data-live-url" in page
    assert "/record/" not in page


@pytest.mark.parametrize("role", ["outsider", None])
def test_outsiders_get_404_from_table_mode(
    group: Group, as_role: Callable[[str], Client], role: str | None
) -> None:
    if role is None:
        assert Client().get(f"/groups/{group.pk}/table/").status_code == 302
    else:
        assert as_role(role).get(f"/groups/{group.pk}/table/").status_code == 404


def test_table_mode_refuses_posts(group: Group, as_role: Callable[[str], Client]) -> None:
    assert as_role("owner").post(f"/groups/{group.pk}/table/").status_code == 405


def test_a_tap_in_table_mode_records_the_timers_minutes_and_returns_to_table_mode(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    data = {
        "clock": "1-1",
        "players": "3",
        "action": "failed",
        "expected_event": "0",
        "view": "table",
        "duration_min": "7",
    }
    r = as_role("member").post(f"/groups/{group.pk}/record/", data)
    assert r.status_code == 302 and r["Location"] == f"/groups/{group.pk}/table/"
    assert campaign.attempts.get().minutes == 7
    r = as_role("member").post(
        f"/groups/{group.pk}/record/",
        {**data, "expected_event": "0"},
        headers={"hx-request": "true"},
    )
    assert "data-table-mode" in r.content.decode()  # the table's board, with the refusal


def test_the_table_plan_is_the_groups_latest_hint_for_the_clock(
    group: Group, alice: User, as_role: Callable[[str], Client]
) -> None:
    common = {
        "clock_definition": get_clock("1-1").to_json(),
        "colours": "SSMM/MMSS/SMSM",
        "players": 3,
        "face_up": 3,
    }
    for words, clock in [
        ("Old plan", "1-1"),
        ("Aim for about 5, 7, 9", "1-1"),
        ("Not this", "1-2"),
    ]:
        HintRequest.objects.create(
            user=alice,
            group=group,
            clock_id=clock,
            status=HintRequest.Status.DONE,
            result={"words": words, "words_all": {"en": words}, "pass_rate": 0.7},
            input_hash=words,
            **common,
        )
    r = as_role("viewer").get(f"/groups/{group.pk}/table/plan/1-1/", headers={"hx-request": "true"})
    page = r.content.decode()
    assert "Aim for about 5, 7, 9" in page and "Old plan" not in page and "Not this" not in page
    assert 'id="read-aloud"' in page
    assert "70%" in page


def test_the_table_plan_says_when_there_is_no_hint_yet(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    page = as_role("member").get(f"/groups/{group.pk}/table/plan/1-1/").content.decode()
    assert "No plan for this deal yet" in page and "Ask for a hint for this deal" in page


def _hint(group: Group, user: User, words: str, definition: dict[str, Any] | None = None) -> None:
    HintRequest.objects.create(
        user=user,
        group=group,
        clock_id="1-1",
        clock_definition=definition or get_clock("1-1").to_json(),
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        status=HintRequest.Status.DONE,
        result={"words": words, "words_all": {"en": words}, "pass_rate": 0.7},
        input_hash=words,
    )


def _plan(group: Group, as_role: Callable[[str], Client]) -> str:
    url = f"/groups/{group.pk}/table/plan/1-1/"
    return as_role("member").get(url, headers={"hx-request": "true"}).content.decode()


def test_the_table_plan_says_which_cards_it_is_for_and_when(
    group: Group, alice: User, as_role: Callable[[str], Client]
) -> None:
    _hint(group, alice, "Aim for about 5, 7, 9")
    page = _plan(group, as_role)
    assert "Aim for about 5, 7, 9" in page and "For the cards SSMM/MMSS/SMSM, asked at" in page


def test_a_plan_asked_before_the_last_attempt_is_not_for_this_deal(
    group: Group, alice: User, as_role: Callable[[str], Client]
) -> None:
    """A failure reshuffles the cards: the plan of the last deal is not read to the table."""
    _hint(group, alice, "Aim for about 5, 7, 9")
    record_attempt(group.current_campaign(), alice, "1-1", "failed", 3)
    page = _plan(group, as_role)
    assert "Aim for about 5, 7, 9" not in page and "Ask for a hint for this deal" in page
    _hint(group, alice, "A new plan")  # asked after the failure: for the cards on the table
    assert "A new plan" in _plan(group, as_role)


def test_a_plan_for_other_rules_is_not_shown(
    group: Group, alice: User, as_role: Callable[[str], Client]
) -> None:
    """Transcribed since the hint was asked: the plan was solved for other rules."""
    _hint(group, alice, "Aim for about 5, 7, 9")
    clock = get_clock("1-1").to_json()
    transcribe(group, "1-1", {**clock, "start": 4}, alice)
    assert "Aim for about 5, 7, 9" not in _plan(group, as_role)


def test_the_table_plan_is_404_for_outsiders(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    assert as_role("outsider").get(f"/groups/{group.pk}/table/plan/1-1/").status_code == 404
    assert as_role("member").post(f"/groups/{group.pk}/table/plan/1-1/").status_code == 405


def test_the_group_page_links_table_mode(group: Group, as_role: Callable[[str], Client]) -> None:
    page = as_role("viewer").get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/table/"' in page


def test_an_htmx_tap_tells_a_replaying_phone_it_landed_and_the_new_version(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    data = {"clock": "1-1", "players": "3", "action": "failed", "expected_event": "0"}
    r = as_role("member").post(f"/groups/{group.pk}/record/", data, headers={"hx-request": "true"})
    assert "timekeeper:recorded" in r["HX-Trigger"]
    assert r["X-Timekeeper-Version"] == str(campaign_version(campaign))


def test_an_htmx_tap_refused_says_why_in_its_trigger(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    data = {"clock": "1-1", "players": "3", "action": "failed", "expected_event": "0"}
    as_role("owner").post(f"/groups/{group.pk}/record/", data)
    r = as_role("member").post(f"/groups/{group.pk}/record/", data, headers={"hx-request": "true"})
    trigger = json.loads(r["HX-Trigger"])
    assert "Another phone already recorded" in trigger["timekeeper:refused"]["message"]
    assert "timekeeper:recorded" not in trigger


def test_the_outbox_is_on_the_page_for_members_only(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    assert 'id="outbox"' in as_role("member").get(f"/groups/{group.pk}/").content.decode()
    assert 'id="outbox"' not in as_role("viewer").get(f"/groups/{group.pk}/").content.decode()


def test_a_disabled_skip_says_why_in_words_a_touch_screen_shows(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    page = as_role("member").get(f"/groups/{group.pk}/").content.decode()
    assert 'aria-describedby="skip-why"' in page
    assert '<p id="skip-why" class="small muted">A clock goes into the Sleeve' in page


def test_latest_lists_skips_and_retrievals_too(
    group: Group,
    campaign: Campaign,
    alice: User,
    play: Callable[..., Attempt],
    as_role: Callable[[str], Client],
) -> None:
    play(campaign, "failed")
    skip(campaign, alice, "1-1")
    retrieve(campaign, alice, ["1-1"])
    page = as_role("viewer").get(f"/groups/{group.pk}/").content.decode()
    latest = page[page.index('class="card recent"') :]
    assert latest.index("put back on the stack") < latest.index("skipped") < latest.index("failed")
    assert "just now" in latest


def test_a_layout_can_be_checked_on_any_clock_of_an_opened_chapter(
    group: Group, campaign: Campaign, play: Callable[..., Attempt], as_role: Callable[[str], Client]
) -> None:
    play(campaign, "passed")  # 1-2 is next; 1-1 is done and 1-3 still to come
    layout = "S1 | S2 | S3 | S4 | S5 S6 | S7 S8 S9 S10 S11 S12"
    r = as_role("viewer").post(f"/groups/{group.pk}/check/", {"clock": "1-3", "layout": layout})
    page = r.content.decode()
    assert "This layout passes" in page
    assert "only the three rules of every clock were checked" in page
    assert "values may be as high as they like" in page  # 1-3 lifts the cap
    r = as_role("viewer").post(f"/groups/{group.pk}/check/", {"clock": "2-1", "layout": layout})
    page = r.content.decode()
    assert "not opened yet" in page and "This layout passes" not in page


def test_an_untranscribed_capped_clock_names_its_cap(
    group: Group, campaign: Campaign, alice: User, as_role: Callable[[str], Client]
) -> None:
    for clock in ["1-1", "1-2", "1-3", "1-4"]:
        record_attempt(campaign, alice, clock, "passed", 3)
        campaign.refresh_from_db()
    layout = "S1 | S2 | S3 | S4 | S5 S6 | S7 S8 S9 S10 S11 S12"
    page = (
        as_role("member")
        .post(f"/groups/{group.pk}/check/", {"clock": "2-1", "layout": layout})
        .content.decode()
    )
    assert "This layout fails" in page and "no value is over 24" in page


def test_the_clock_page_offers_the_layout_check(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    page = as_role("viewer").get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    assert "Check a layout on this clock" in page
    assert '<input type="hidden" name="clock" value="1-1">' in page
