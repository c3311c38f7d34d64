"""What a table tripped over when it played through the pages (QA pass of 2026-11-30): the
BG Stats push-play link, messages, sessions, dates in Dutch and Japanese, the editor."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import timezone

from campaigns import exports, services
from campaigns.forms import LAYOUT_EXAMPLE
from campaigns.models import Campaign, Group, Session
from campaigns.stats import bar_chart
from rules.catalogue import get_clock
from rules.inputs import check_layout

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]


def page(group: Group, tail: str = "") -> str:
    return f"/groups/{group.pk}/{tail}"


def tap(client: Client, group: Group, action: str, **data: Any) -> Any:
    clock = services.campaign_state(group.current_campaign()).next_clock
    body = {"clock": clock, "players": 3, "action": action, **data}
    return client.post(page(group, "record/"), body, follow=True)


def evening(group: Group, alice: Any, outcomes: list[str]) -> Session:
    """A session with the three players at the table and one attempt per outcome."""
    campaign = group.current_campaign()
    players = list(group.players.order_by("name"))
    session = services.start_session(campaign, players)
    for outcome in outcomes:
        campaign.refresh_from_db()
        clock = services.campaign_state(campaign).next_clock
        services.record_attempt(
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


# --- BG Stats ------------------------------------------------------------------------------


def test_the_bgstats_play_has_the_documented_push_play_shape(group: Group, alice: Any) -> None:
    session = evening(group, alice, ["failed", "passed"])
    play = exports.bgstats_play(session)
    assert set(play) == {
        "sourceName",
        "playDate",
        "durationMin",
        "board",
        "location",
        "comments",
        "game",
        "players",
    }
    assert play["sourceName"] == "Timekeeper" and play["location"] == "Tuesday table"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert play["durationMin"] == 14
    assert play["game"] == {
        "name": "Take Time",
        "sourceGameId": "take-time",
        "cooperative": True,
        "noPoints": True,
        "highestWins": True,
    }
    assert [set(p) for p in play["players"]] == [
        {"name", "sourcePlayerId", "role", "rank", "winner", "startPlayer"}
    ] * 3


def test_every_player_wins_the_bgstats_play_when_a_clock_was_passed(
    group: Group, alice: Any
) -> None:
    play = exports.bgstats_play(evening(group, alice, ["failed", "passed"]))
    assert [p["winner"] for p in play["players"]] == [True, True, True]
    assert all("score" not in p for p in play["players"])


def test_nobody_wins_the_bgstats_play_of_an_evening_without_a_pass(
    group: Group, alice: Any
) -> None:
    play = exports.bgstats_play(evening(group, alice, ["failed", "failed"]))
    assert [p["winner"] for p in play["players"]] == [False, False, False]


def test_the_bgstats_start_player_is_who_opened_the_first_attempt(group: Group, alice: Any) -> None:
    play = exports.bgstats_play(evening(group, alice, ["passed"]))
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Ben"]


def test_the_bgstats_comments_list_the_clocks_played(group: Group, alice: Any) -> None:
    play = exports.bgstats_play(evening(group, alice, ["failed", "passed", "passed"]))
    assert play["comments"] == "1-1 ✗✓ · 1-2 ✓"


def test_the_bgstats_link_carries_the_play_url_encoded(group: Group, alice: Any) -> None:
    session = evening(group, alice, ["passed"])
    link = exports.bgstats_link(session)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    data = link.removeprefix("https://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(unquote(data)) == exports.bgstats_play(session)


def test_the_session_page_links_to_bgstats_createplay(
    group: Group, alice: Any, as_role: AsRole
) -> None:
    session = evening(group, alice, ["passed"])
    body = as_role("viewer").get(page(group, f"sessions/{session.pk}/")).content.decode()
    assert 'href="https://app.bgstatsapp.com/createPlay.html?data=' in body


def test_the_session_page_shows_minutes_not_a_timedelta(
    group: Group, alice: Any, as_role: AsRole
) -> None:
    session = evening(group, alice, ["failed", "passed"])
    body = as_role("owner").get(page(group, f"sessions/{session.pk}/")).content.decode()
    assert "14 minutes" in body and "0:07:00" not in body


# --- the group page ------------------------------------------------------------------------


def test_the_layout_example_is_a_whole_layout_that_the_engine_judges() -> None:
    verdict = check_layout(get_clock("1-1"), LAYOUT_EXAMPLE)
    assert verdict.passed


def test_the_group_page_shows_the_valid_layout_example(group: Group, as_role: AsRole) -> None:
    body = as_role("owner").get(page(group)).content.decode()
    assert f'placeholder="{LAYOUT_EXAMPLE}"' in body


def test_a_failure_with_three_tokens_up_does_not_promise_a_fourth(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    for _ in range(3):
        tap(client, group, "failed")
    body = tap(client, group, "failed").content.decode()
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 3
    assert "All three Bonus tokens are already face up." in body
    assert "one more Bonus token" not in body


# --- sessions ------------------------------------------------------------------------------


def test_starting_tonights_session_fills_the_one_a_tap_already_started(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")  # before anyone said who is playing
    players = [p.pk for p in group.players.all()]
    client.post(
        page(group, "sessions/"),
        {"date": timezone.localdate().isoformat(), "players": players},
    )
    session = campaign.sessions.get()
    assert session.attempts.count() == 1 and session.players.count() == 3


def test_a_double_tap_on_start_session_starts_one_session(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    ann = group.players.get(name="Ann")
    for _ in range(2):
        client.post(page(group, "sessions/"), {"date": "2026-11-27", "players": [ann.pk]})
    assert campaign.sessions.count() == 1


def test_a_second_session_after_a_played_one_on_the_same_day_is_new(
    group: Group, campaign: Campaign, alice: Any, as_role: AsRole
) -> None:
    played = evening(group, alice, ["failed"])
    ann = group.players.get(name="Ann")
    as_role("owner").post(
        page(group, "sessions/"), {"date": played.date.isoformat(), "players": [ann.pk]}
    )
    assert campaign.sessions.count() == 2


@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_session_date_input_keeps_its_date_in_every_language(
    group: Group, campaign: Campaign, as_role: AsRole, language: str
) -> None:
    session = services.start_session(campaign, [], date(2026, 11, 27))
    client = as_role("owner")
    client.cookies["django_language"] = language
    body = client.get(page(group, f"sessions/{session.pk}/")).content.decode()
    assert re.search(r'<input type="date" name="date" value="2026-11-27"', body)


# --- statistics ----------------------------------------------------------------------------


def test_a_pass_rate_bar_is_drawn_against_100_percent() -> None:
    svg = bar_chart([("3", 20.0, "")], "Pass rate", top=100, unit=" %")
    height = float(re.search(r'<rect [^>]*height="([\d.]+)"', svg)[1])  # type: ignore[index]
    full = 180 - 30 - 14
    assert height == pytest.approx(full * 0.2, abs=0.1)


def test_a_few_bars_carry_their_values() -> None:
    svg = bar_chart([("2", 0, ""), ("3", 20, ""), ("4", 50, "")], "Rate", top=100, unit=" %")
    assert ">20 %</text>" in svg and ">50 %</text>" in svg


def test_statistics_of_a_campaign_without_attempts_say_so(group: Group, as_role: AsRole) -> None:
    body = as_role("owner").get(page(group, "statistics/")).content.decode()
    assert "No attempt recorded in this campaign yet" in body and "<svg" not in body


# --- the clock editor ----------------------------------------------------------------------


def test_the_editor_names_rule_kinds_in_words(group: Group, as_role: AsRole) -> None:
    body = as_role("owner").get(page(group, "clocks/1-2/edit/")).content.decode()
    assert '<option value="value_range">A segment&#x27;s value between two numbers' in body


def test_the_editor_labels_the_parameters_in_words(group: Group, as_role: AsRole) -> None:
    body = (
        as_role("owner")
        .post(page(group, "clocks/1-2/edit/"), {"start": 1, "new_kind": "value_range"})
        .content.decode()
    )
    assert '<label for="p_min">Lowest value</label>' in body


def test_the_editor_keeps_what_was_typed_when_it_refuses_a_rule(
    group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        page(group, "clocks/1-2/edit/"),
        {
            "start": 1,
            "new_kind": "value_range",
            "p_segment": "3",
            "p_min": "20",
            "p_max": "10",
            "action": "add",
        },
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert 'value="20"' in body and 'value="10"' in body
    assert '<option value="3" selected>' in body


def test_the_editor_names_a_bad_parameter_in_words(group: Group, as_role: AsRole) -> None:
    body = (
        as_role("owner")
        .post(
            page(group, "clocks/1-2/edit/"),
            {"start": 1, "new_kind": "value_range", "p_segment": 2, "p_min": "x", "action": "add"},
        )
        .content.decode()
    )
    assert "Lowest value: give a whole number." in body


# --- campaign settings ---------------------------------------------------------------------


def test_leaving_a_campaign_in_progress_needs_the_confirmation_box(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    response = client.post(page(group, "settings/"), {"kind": "normal", "start_chapter": 4})
    assert response.status_code == 400 and response.context["form"].has_error("confirm")
    assert group.current_campaign() == campaign


def test_a_confirmed_new_campaign_replaces_the_one_in_progress(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    data = {"kind": "normal", "start_chapter": 4, "confirm": "on"}
    assert client.post(page(group, "settings/"), data).status_code == 302
    assert services.campaign_state(group.current_campaign()).next_clock == "4-1"


def test_a_campaign_not_yet_played_is_replaced_without_confirmation(
    group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(group, "settings/")).content.decode()
    assert 'name="confirm"' not in body


# --- the Sleeve ----------------------------------------------------------------------------


def test_a_double_tap_on_put_on_top_puts_the_clock_back_once(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    body = client.get(page(group, "sleeve/")).content.decode()
    key = re.search(r'name="request_key" value="([^"]+)"', body)[1]  # type: ignore[index]
    responses = [
        client.post(page(group, "sleeve/"), {"clock": "1-1", "request_key": key}) for _ in range(2)
    ]
    assert [r.status_code for r in responses] == [302, 302]
    assert campaign.events.filter(kind="retrieved").count() == 1


def test_the_bgstats_start_player_skips_attempts_without_an_opener(
    group: Group, alice: Any
) -> None:
    campaign = group.current_campaign()
    session = services.start_session(campaign, list(group.players.all()))
    services.record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    campaign.refresh_from_db()
    cleo = group.players.get(name="Cleo")
    services.record_attempt(campaign, alice, "1-1", "passed", 3, session=session, opener=cleo)
    play = exports.bgstats_play(session)
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Cleo"]


# --- members -------------------------------------------------------------------------------


def test_the_last_owner_leaving_is_refused_on_the_members_page(
    group: Group, as_role: AsRole, alice: Any
) -> None:
    owner = group.memberships.get(user=alice)
    response = as_role("owner").post(page(group, f"members/{owner.pk}/"), {"remove": "1"})
    assert response.status_code == 302 and response["Location"] == page(group, "members/")
    assert group.memberships.filter(user=alice).exists()


def test_an_owner_who_leaves_goes_to_the_dashboard(
    group: Group, as_role: AsRole, alice: Any, bob: Any
) -> None:
    group.memberships.filter(user=bob).update(role="owner")
    owner = group.memberships.get(user=alice)
    response = as_role("owner").post(page(group, f"members/{owner.pk}/"), {"remove": "1"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not group.memberships.filter(user=alice).exists()


# --- the clock page ------------------------------------------------------------------------


def test_the_clock_page_keeps_attempts_of_earlier_campaigns(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    client.post(page(group, "settings/"), {"kind": "normal", "start_chapter": 1, "confirm": "on"})
    assert group.current_campaign() != campaign
    body = client.get(page(group, "clocks/1-1/")).content.decode()
    assert "earlier campaign" in body and "No attempt at this clock yet." not in body


def test_saving_with_a_rule_still_in_add_a_rule_saves_that_rule_too(
    group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        page(group, "clocks/1-2/edit/"),
        {"start": 1, "new_kind": "card_count", "p_segment": 6, "p_count": 3, "action": "save"},
    )
    assert response.status_code == 302
    saved = group.transcriptions.get(clock_id="1-2")
    assert saved.definition["rules"] == [{"kind": "card_count", "segment": 6, "count": 3}]


def test_saving_with_a_bad_rule_in_add_a_rule_saves_nothing(group: Group, as_role: AsRole) -> None:
    response = as_role("owner").post(
        page(group, "clocks/1-2/edit/"),
        {"start": 1, "new_kind": "forbidden_values", "p_values": "3, x", "action": "save"},
    )
    assert response.status_code == 400 and not group.transcriptions.exists()


def test_a_rate_of_no_attempts_is_a_dash_not_zero_percent() -> None:
    svg = bar_chart([("3", None, ""), ("4", 50, "")], "Rate", top=100, unit=" %")
    assert ">—</text>" in svg and ">0 %</text>" not in svg


@pytest.mark.parametrize("player", ["99999999999999999999", "x", "-1"])
def test_a_session_with_an_impossible_player_id_is_a_form_error(
    group: Group, as_role: AsRole, player: str
) -> None:
    response = as_role("owner").post(
        page(group, "sessions/"), {"date": "2026-11-27", "players": [player]}
    )
    assert response.status_code == 400 and response.context["form"].has_error("players")


def test_of_many_bars_only_those_above_zero_carry_a_value() -> None:
    bars: list[tuple[str, float | None, str]] = [(str(i), 0, "") for i in range(40)]
    bars[1] = ("1", 5, "")
    svg = bar_chart(bars, "Attempts per clock")
    assert svg.count('class="value"') == 1 and ">5</text>" in svg


def test_the_confirmation_box_is_shown_while_a_campaign_is_in_progress(
    group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    body = client.get(page(group, "settings/")).content.decode()
    assert re.search(r'<label class="check" for="id_confirm"><input type="checkbox"', body)


def test_a_double_tap_on_save_makes_one_version(group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    rule = '{"kind": "card_count", "segment": 6, "count": 3}'
    for _ in range(2):
        response = client.post(
            page(group, "clocks/1-2/edit/"),
            {"start": 1, "cap_lifted": "on", "rules": rule, "action": "save"},
        )
        assert response.status_code == 302
    assert group.transcriptions.filter(clock_id="1-2").count() == 1


def test_saving_a_changed_clock_makes_a_new_version(group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    for start in (1, 2):
        client.post(page(group, "clocks/1-2/edit/"), {"start": start, "action": "save"})
    assert group.transcriptions.filter(clock_id="1-2").count() == 2


def test_the_attempts_per_clock_chart_scrolls_sideways_on_a_phone(
    group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    body = client.get(page(group, "statistics/")).content.decode()
    assert '<div class="chart-scroll"><svg class="chart"' in body


# --- invite links for friends without an account -------------------------------------------


def test_an_invite_opened_logged_out_names_the_group_and_offers_sign_up(group: Group) -> None:
    body = Client().get(f"/join/{group.invite_token}/").content.decode()
    assert "Tuesday table" in body and 'href="/accounts/signup/"' in body
    assert f'href="/accounts/login/?next=/join/{group.invite_token}/"' in body


def test_after_signing_up_the_dashboard_offers_the_invite(group: Group) -> None:
    client = Client()
    client.get(f"/join/{group.invite_token}/")
    password = "a-long-enough-passphrase-9"
    client.post(
        "/accounts/signup/", {"username": "erin", "password1": password, "password2": password}
    )
    body = client.get("/").content.decode()
    assert "You were invited to join “Tuesday table”." in body
    assert f'action="/join/{group.invite_token}/"' in body


def test_joining_from_the_dashboard_invite_clears_it(group: Group) -> None:
    client = Client()
    client.get(f"/join/{group.invite_token}/")
    password = "a-long-enough-passphrase-9"
    client.post(
        "/accounts/signup/", {"username": "erin", "password1": password, "password2": password}
    )
    client.post(f"/join/{group.invite_token}/")
    assert group.memberships.filter(user__username="erin", role="member").exists()
    assert "You were invited" not in client.get("/").content.decode()


def test_a_logged_out_post_to_an_invite_asks_to_log_in(group: Group) -> None:
    response = Client().post(f"/join/{group.invite_token}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not group.memberships.filter(user__username="erin").exists()


# --- players at the table ------------------------------------------------------------------


def test_owners_correct_a_players_name(group: Group, as_role: AsRole) -> None:
    ann = group.players.get(name="Ann")
    response = as_role("owner").post(page(group, f"players/{ann.pk}/"), {"name": "Anne"})
    ann.refresh_from_db()
    assert response.status_code == 302 and ann.name == "Anne"


def test_a_rename_to_a_listed_name_is_refused(group: Group, as_role: AsRole) -> None:
    ann = group.players.get(name="Ann")
    client = as_role("owner")
    client.post(page(group, f"players/{ann.pk}/"), {"name": "Ben"})
    ann.refresh_from_db()
    assert ann.name == "Ann"
    assert "This player is already listed." in client.get(page(group, "members/")).content.decode()


def test_a_player_who_never_played_can_be_removed(group: Group, as_role: AsRole) -> None:
    cleo = group.players.get(name="Cleo")
    as_role("owner").post(page(group, f"players/{cleo.pk}/"), {"remove": "1"})
    assert not group.players.filter(name="Cleo").exists()


def test_a_player_in_a_session_stays_in_the_history(
    group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    cleo = group.players.get(name="Cleo")
    services.start_session(campaign, [cleo])
    as_role("owner").post(page(group, f"players/{cleo.pk}/"), {"remove": "1"})
    assert group.players.filter(name="Cleo").exists()


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("viewer", 403), ("outsider", 404)])
def test_only_owners_change_players(group: Group, as_role: AsRole, role: str, status: int) -> None:
    ann = group.players.get(name="Ann")
    response = as_role(role).post(page(group, f"players/{ann.pk}/"), {"name": "Anne"})
    ann.refresh_from_db()
    assert response.status_code == status and ann.name == "Ann"


def test_changing_a_player_needs_a_post(group: Group, as_role: AsRole) -> None:
    ann = group.players.get(name="Ann")
    assert as_role("owner").get(page(group, f"players/{ann.pk}/")).status_code == 405
