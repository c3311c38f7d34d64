"""campaigns.history.exports: the BG Stats push-play of an evening and its createPlay link."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError
from campaigns.groups.services import fill_in_session
from campaigns.history import exports, imports
from campaigns.models import Attempt, Group, Session
from campaigns.play.services import record_attempt
from rules.catalogue import CLOCK_IDS

pytestmark = pytest.mark.django_db
Evening = Callable[[Group, list[str]], Session]


def test_the_bgstats_play_has_the_documented_push_play_shape(
    group: Group, evening: Evening
) -> None:
    session = evening(group, ["failed", "passed"])
    play = exports.bgstats_play(session)
    assert set(play) == {
        "sourceName",
        "sourcePlayId",
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
    assert play["sourcePlayId"] == f"timekeeper-session-{session.pk}"
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
    group: Group, evening: Evening
) -> None:
    play = exports.bgstats_play(evening(group, ["failed", "passed"]))
    assert [p["winner"] for p in play["players"]] == [True, True, True]
    assert all("score" not in p for p in play["players"])


def test_nobody_wins_the_bgstats_play_of_an_evening_without_a_pass(
    group: Group, evening: Evening
) -> None:
    play = exports.bgstats_play(evening(group, ["failed", "failed"]))
    assert [p["winner"] for p in play["players"]] == [False, False, False]


def test_the_bgstats_start_player_is_who_opened_the_first_attempt(
    group: Group, evening: Evening
) -> None:
    play = exports.bgstats_play(evening(group, ["passed"]))
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Ben"]


def test_the_bgstats_comments_list_the_clocks_played(group: Group, evening: Evening) -> None:
    play = exports.bgstats_play(evening(group, ["failed", "passed", "passed"]))
    assert play["comments"] == "1-1 ✗✓ · 1-2 ✓"


def test_the_bgstats_link_carries_the_play_url_encoded(group: Group, evening: Evening) -> None:
    session = evening(group, ["passed"])
    link = exports.bgstats_link(session)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    data = link.removeprefix("https://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(unquote(data)) == exports.bgstats_play(session)


def test_the_bgstats_start_player_skips_attempts_without_an_opener(
    group: Group, alice: Any
) -> None:
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    campaign.refresh_from_db()
    cleo = group.players.get(name="Cleo")
    record_attempt(campaign, alice, "1-1", "passed", 3, session=session, opener=cleo)
    play = exports.bgstats_play(session)
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Cleo"]


def test_an_imported_history_keeps_the_rules_engines_reason_for_a_bad_clock(
    group: Group, alice: User
) -> None:
    rule = {"kind": "value_range", "segment": 2, "min": 1, "max": 10}
    transcribe(group, "5-2", {"start": 1, "cap": 24, "rules": [rule]}, alice)
    history = exports.export_history(group)
    history["transcriptions"][0]["definition"]["rules"][0]["min"] = 20
    with translation.override("ja"), pytest.raises(CampaignError) as error:
        imports.import_history(alice, history)
    assert error.value.field == "history"
    assert error.value.message == "「min」（20）は「max」（10）より大きくできません。"
    assert Group.objects.count() == 1


def test_a_history_restores_a_rebirth_campaign_as_it_was_played(group: Group, alice: User) -> None:
    """Rebirth after a campaign that attempted all 40 clocks (a lone Rebirth campaign, never
    unlocked, is refused: tests/campaigns/history/test_import_limits.py)."""
    history = exports.export_history(group)
    unlocking = history["campaigns"][0]
    unlocking["sessions"] = [{"date": "2026-11-30", "players": [], "notes": ""}]
    unlocking["history"] = [
        {"event": "passed", "clock": clock, "players": 3, "session": 0}
        for clock in CLOCK_IDS
        if clock != "rebirth"
    ]
    history["campaigns"].append({**unlocking, "kind": "rebirth", "history": []})
    copy = imports.import_history(alice, history)
    assert copy.current_campaign().kind == "rebirth"
    assert copy.current_campaign().progress.filter(clock_id="rebirth").exists()


def test_a_history_with_an_unknown_campaign_kind_is_refused(group: Group, alice: User) -> None:
    history = exports.export_history(group)
    history["campaigns"][0]["kind"] = "legendary"
    with pytest.raises(CampaignError) as error:
        imports.import_history(alice, history)
    assert error.value.field == "history" and Group.objects.count() == 1


def test_without_typed_minutes_the_bgstats_duration_comes_from_the_attempts_times(
    group: Group, alice: User
) -> None:
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    first = record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    last = record_attempt(campaign, alice, "1-1", "passed", 3, session=session)
    Attempt.objects.filter(pk=first.pk).update(created=last.created - timedelta(minutes=23))
    assert exports.bgstats_play(session)["durationMin"] == 23


def test_a_single_attempt_without_minutes_sends_no_bgstats_duration(
    group: Group, alice: User
) -> None:
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    assert "durationMin" not in exports.bgstats_play(session)
