"""The player count a tap on the Play page and in table mode records unless someone changes
it: tonight's session, else the group's players (at most 4), else the last attempt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Group
from campaigns.play.services import record_attempt

pytestmark = pytest.mark.django_db


def _preset(client: Client, group: Group, tail: str = "") -> Any:
    response = client.get(f"/groups/{group.pk}/{tail}")
    assert response.status_code == 200
    return response


def _checked(response: Any) -> int:
    return int(response.context["form"]["players"].value())


def test_a_new_four_player_group_is_preset_to_four(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Four", ["Ann", "Ben", "Cleo", "Dirk"])
    response = _preset(login(alice), group)
    assert _checked(response) == 4
    assert "A tap records 4 players, 4 face-up cards" in response.content.decode()


def test_a_group_of_six_is_preset_to_the_table_s_four(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Six", ["A", "B", "C", "D", "E", "F"])
    assert _checked(_preset(login(alice), group)) == 4


def test_tonight_s_session_beats_the_group_s_size(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Four", ["Ann", "Ben", "Cleo", "Dirk"])
    fill_in_session(group.current_campaign(), list(group.players.all()[:2]))
    assert _checked(_preset(login(alice), group)) == 2


def test_without_players_the_last_attempt_says_the_count(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Nameless", [])
    record_attempt(group.current_campaign(), alice, "1-1", "failed", 2)
    assert _checked(_preset(login(alice), group)) == 2


def test_table_mode_records_and_shows_the_same_count(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Four", ["Ann", "Ben", "Cleo", "Dirk"])
    page = _preset(login(alice), group, "table/").content.decode()
    assert '<input type="hidden" name="players" value="4">' in page
    assert "A tap records 4 players, 4 face-up cards" in page
