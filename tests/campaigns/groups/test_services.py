"""The group's services (campaigns.groups.services): its owner, sessions, players and
members, one behaviour per test."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from campaigns.errors import CampaignError
from campaigns.groups.services import (
    add_member,
    add_player,
    change_role,
    create_group,
    edit_session,
    fill_in_session,
    join,
    players_named,
    remove_member,
    remove_player,
    rename_player,
)
from campaigns.models import NOTES_LENGTH, Campaign, Group, Membership
from tests.campaigns.shapes import Play


def test_the_creator_owns_the_group(group: Group, alice: User) -> None:
    assert group.memberships.get(user=alice).role == Membership.Role.OWNER
    assert list(group.players.values_list("name", flat=True)) == ["Ann", "Ben", "Cleo"]


def test_the_last_owner_stays_owner(group: Group, alice: User) -> None:
    with pytest.raises(CampaignError):
        change_role(group, group.memberships.get(user=alice), "member")


def test_the_last_owner_cannot_leave(group: Group, alice: User) -> None:
    with pytest.raises(CampaignError):
        remove_member(group, group.memberships.get(user=alice))
    assert group.memberships.filter(user=alice, role=Membership.Role.OWNER).exists()


# --- sessions and players -----------------------------------------------------------------


def test_filling_in_a_session_fills_the_one_an_attempt_started(
    campaign: Campaign, play: Play, group: Group
) -> None:
    played = play(campaign, "failed").session
    players = list(group.players.all())
    session = fill_in_session(campaign, players)
    assert session == played and list(session.players.all()) == players


def test_filling_in_twice_keeps_one_session(campaign: Campaign, group: Group) -> None:
    ann = group.players.get(name="Ann")
    first = fill_in_session(campaign, [ann], date(2026, 11, 27))
    second = fill_in_session(campaign, [ann], date(2026, 11, 27))
    assert first == second and campaign.sessions.count() == 1


def test_a_session_played_with_its_players_is_not_filled_in_again(
    campaign: Campaign, play: Play, group: Group
) -> None:
    ann = group.players.get(name="Ann")
    first = fill_in_session(campaign, [ann])
    play(campaign, "failed", session=first)
    assert fill_in_session(campaign, [ann]) != first
    assert campaign.sessions.count() == 2


def test_filling_in_keeps_the_notes_unless_new_ones_are_given(
    campaign: Campaign, group: Group
) -> None:
    fill_in_session(campaign, [], notes="Cleo's birthday")
    session = fill_in_session(campaign, list(group.players.all()))
    session.refresh_from_db()
    assert session.notes == "Cleo's birthday"
    fill_in_session(campaign, [], notes="Ben brought cake")
    session.refresh_from_db()
    assert session.notes == "Ben brought cake"


def test_a_session_refuses_another_groups_player(campaign: Campaign, alice: User) -> None:
    other = create_group(alice, "Fridays", ["Zed"])
    with pytest.raises(CampaignError) as error:
        fill_in_session(campaign, list(other.players.all()))
    assert error.value.field == "players" and not campaign.sessions.exists()


def test_too_long_notes_are_refused_at_their_field(campaign: Campaign) -> None:
    with pytest.raises(CampaignError) as error:
        fill_in_session(campaign, [], notes="x" * (NOTES_LENGTH + 1))
    assert error.value.field == "notes" and not campaign.sessions.exists()


def test_editing_a_session_changes_its_date_players_and_notes(
    campaign: Campaign, group: Group
) -> None:
    session = fill_in_session(campaign, list(group.players.all()), date(2026, 11, 27))
    ann = group.players.get(name="Ann")
    edit_session(session, date(2026, 11, 28), [ann], "moved")
    session.refresh_from_db()
    assert (session.date, list(session.players.all()), session.notes) == (
        date(2026, 11, 28),
        [ann],
        "moved",
    )


def test_players_are_found_by_name(group: Group) -> None:
    players = players_named(group, ["Ben", "Ann"])
    assert sorted(p.name for p in players) == ["Ann", "Ben"]


def test_an_unknown_player_name_is_refused(group: Group) -> None:
    with pytest.raises(CampaignError) as error:
        players_named(group, ["Ann", "Zed"])
    assert error.value.field == "players"


def test_a_new_player_joins_the_table(group: Group) -> None:
    add_player(group, " Dina ")
    assert group.players.filter(name="Dina").exists()


def test_a_player_listed_twice_is_refused(group: Group) -> None:
    with pytest.raises(CampaignError) as error:
        add_player(group, "Ann")
    assert error.value.field == "name" and group.players.filter(name="Ann").count() == 1


def test_a_player_is_renamed(group: Group) -> None:
    ann = group.players.get(name="Ann")
    rename_player(ann, "Anne")
    ann.refresh_from_db()
    assert ann.name == "Anne"


def test_a_rename_to_a_listed_name_keeps_the_old_name(group: Group) -> None:
    ann = group.players.get(name="Ann")
    with pytest.raises(CampaignError):
        rename_player(ann, "Ben")
    ann.refresh_from_db()
    assert ann.name == "Ann"


def test_a_player_who_never_played_is_removed(group: Group) -> None:
    remove_player(group.players.get(name="Cleo"))
    assert not group.players.filter(name="Cleo").exists()


def test_a_player_who_opened_an_attempt_stays(group: Group, campaign: Campaign, play: Play) -> None:
    cleo = group.players.get(name="Cleo")
    play(campaign, "failed", opener=cleo)
    with pytest.raises(CampaignError):
        remove_player(cleo)
    assert group.players.filter(name="Cleo").exists()


# --- members ------------------------------------------------------------------------------


def test_owners_add_a_member_by_username(group: Group, charlie: User) -> None:
    membership = add_member(group, "charlie", Membership.Role.VIEWER)
    assert (membership.user, membership.role) == (charlie, Membership.Role.VIEWER)


def test_an_unknown_username_is_refused_at_its_field(group: Group) -> None:
    with pytest.raises(CampaignError) as error:
        add_member(group, "nobody", Membership.Role.MEMBER)
    assert error.value.field == "username"


def test_the_invite_link_joins_as_a_member(group: Group, charlie: User) -> None:
    join(group, charlie)
    assert group.memberships.get(user=charlie).role == Membership.Role.MEMBER


def test_joining_again_keeps_ones_role(group: Group, dave: User) -> None:
    join(group, dave)
    assert group.memberships.get(user=dave).role == Membership.Role.VIEWER
