"""The sessions pages: starting an evening with its players, editing it, its BG Stats link."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from campaigns.groups.services import fill_in_session
from campaigns.models import Campaign, Group, Session

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
PageUrl = Callable[..., str]  # the group_url fixture (tests/campaigns/conftest.py)
Tap = Callable[..., Any]  # the tap fixture
Evening = Callable[[Group, list[str]], Session]


def test_the_session_page_links_to_bgstats_createplay(
    group_url: PageUrl, group: Group, as_role: AsRole, evening: Evening
) -> None:
    session = evening(group, ["passed"])
    body = as_role("viewer").get(group_url(group, f"sessions/{session.pk}/")).content.decode()
    assert 'href="https://app.bgstatsapp.com/createPlay.html?data=' in body


def test_the_session_page_shows_minutes_not_a_timedelta(
    group_url: PageUrl, group: Group, as_role: AsRole, evening: Evening
) -> None:
    session = evening(group, ["failed", "passed"])
    body = as_role("owner").get(group_url(group, f"sessions/{session.pk}/")).content.decode()
    assert "14 minutes" in body and "0:07:00" not in body


def test_starting_tonights_session_fills_the_one_a_tap_already_started(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")  # before anyone said who is playing
    players = [p.pk for p in group.players.all()]
    client.post(
        group_url(group, "sessions/"),
        {"date": timezone.localdate().isoformat(), "players": players},
    )
    session = campaign.sessions.get()
    assert session.attempts.count() == 1 and session.players.count() == 3


def test_a_double_tap_on_start_session_starts_one_session(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    ann = group.players.get(name="Ann")
    for _ in range(2):
        client.post(group_url(group, "sessions/"), {"date": "2026-11-27", "players": [ann.pk]})
    assert campaign.sessions.count() == 1


def test_a_second_session_after_a_played_one_on_the_same_day_is_new(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole, evening: Evening
) -> None:
    played = evening(group, ["failed"])
    ann = group.players.get(name="Ann")
    as_role("owner").post(
        group_url(group, "sessions/"), {"date": played.date.isoformat(), "players": [ann.pk]}
    )
    assert campaign.sessions.count() == 2


@pytest.mark.parametrize("language", ["nl", "ja"])
def test_the_session_date_input_keeps_its_date_in_every_language(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole, language: str
) -> None:
    session = fill_in_session(campaign, [], date(2026, 11, 27))
    client = as_role("owner")
    client.cookies["django_language"] = language
    body = client.get(group_url(group, f"sessions/{session.pk}/")).content.decode()
    assert re.search(r'<input type="date" name="date" value="2026-11-27"', body)


@pytest.mark.parametrize("player", ["99999999999999999999", "x", "-1"])
def test_a_session_with_an_impossible_player_id_is_a_form_error(
    group_url: PageUrl, group: Group, as_role: AsRole, player: str
) -> None:
    response = as_role("owner").post(
        group_url(group, "sessions/"), {"date": "2026-11-27", "players": [player]}
    )
    assert response.status_code == 400 and response.context["form"].has_error("players")


def test_sessions_are_started_and_edited(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    ann = group.players.get(name="Ann")
    response = client.post(
        group_url(group, "sessions/"), {"date": "2026-11-27", "players": [ann.pk]}
    )
    session = Session.objects.get()
    assert response.status_code == 302 and list(session.players.all()) == [ann]
    client.post(group_url(group, f"sessions/{session.pk}/"), {"date": "2026-11-28", "players": []})
    session.refresh_from_db()
    assert str(session.date) == "2026-11-28" and not session.players.exists()


def test_the_session_page_offers_bg_stats(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "passed", duration_min=12)
    session = Session.objects.get()
    session.players.set(group.players.all())
    assert b"bgstats.json" in client.get(group_url(group, f"sessions/{session.pk}/")).content
    play = client.get(group_url(group, f"sessions/{session.pk}/bgstats.json")).json()
    assert play["game"]["cooperative"] is True and play["game"]["noPoints"] is True
    assert play["durationMin"] == 12 and [p["winner"] for p in play["players"]] == [True] * 3


def test_starting_a_session_lands_on_the_board(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    ann = group.players.get(name="Ann")
    response = as_role("owner").post(
        group_url(group, "sessions/"), {"date": "2026-11-27", "players": [ann.pk]}
    )
    assert response.status_code == 302 and response["Location"] == group_url(group, "")


def test_who_was_there_starts_from_the_last_sessions_players(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    ann, ben, cleo = (group.players.get(name=n) for n in ("Ann", "Ben", "Cleo"))
    fill_in_session(campaign, [ann, cleo], date(2026, 11, 20))
    fill_in_session(campaign, [], date(2026, 11, 24))  # nobody ticked: not a seating
    form = as_role("owner").get(group_url(group, "sessions/")).context["form"]
    assert sorted(form.initial["players"]) == sorted([ann.pk, cleo.pk])
    assert ben.pk not in form.initial["players"]
