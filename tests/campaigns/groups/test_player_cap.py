"""One cap on the players a group lists (rules.game.MAX_PLAYERS_LISTED), whichever way they
are added: so every group can re-import its own export."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.errors import CampaignError
from campaigns.groups.services import add_player, create_group
from campaigns.history import exports, imports
from campaigns.models import Group
from rules.game import MAX_PLAYERS_LISTED

pytestmark = pytest.mark.django_db


def test_add_player_on_the_members_page_stops_at_the_cap(
    alice: User, login: Callable[[User], Client]
) -> None:
    names = [f"Player {n}" for n in range(MAX_PLAYERS_LISTED - 1)]
    group = create_group(alice, "Big table", names)
    client = login(alice)
    url = f"/groups/{group.pk}/members/"
    assert client.post(url, {"name": "The twelfth"}).status_code == 302
    response = client.post(url, {"name": "The thirteenth"})
    assert response.status_code == 400
    assert "at most 12 players" in response.content.decode()
    assert group.players.count() == MAX_PLAYERS_LISTED
    # A full group still re-imports its own export.
    again = imports.import_history(alice, exports.export_history(group))
    assert again.players.count() == MAX_PLAYERS_LISTED
    assert Group.objects.count() == 2


def test_the_service_refuses_a_player_beyond_the_cap(alice: User) -> None:
    group = create_group(alice, "Big table", [f"P{n}" for n in range(MAX_PLAYERS_LISTED)])
    with pytest.raises(CampaignError) as refused:
        add_player(group, "One more")
    assert refused.value.field == "name"
    assert group.players.count() == MAX_PLAYERS_LISTED


def test_every_path_reads_the_one_cap() -> None:
    from campaigns import forms, models
    from campaigns.groups import services

    assert models.MAX_PLAYERS_LISTED is MAX_PLAYERS_LISTED
    assert forms.MAX_PLAYERS_LISTED is services.MAX_PLAYERS_LISTED is MAX_PLAYERS_LISTED
    assert imports.MAX_PLAYERS_LISTED is MAX_PLAYERS_LISTED
