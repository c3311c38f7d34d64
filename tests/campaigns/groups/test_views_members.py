"""The members page: members and their roles, the players at the table, invite links."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import fill_in_session
from campaigns.models import Campaign, Group, Membership

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
PageUrl = Callable[..., str]  # the group_url fixture (tests/campaigns/conftest.py)


def test_owners_invite_by_username(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    User.objects.create_user("erin")
    response = as_role("owner").post(
        group_url(group, "members/"), {"username": "erin", "role": "viewer"}
    )
    assert response.status_code == 302
    assert group.memberships.get(user__username="erin").role == "viewer"


def test_inviting_an_unknown_username_is_a_form_error(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(group_url(group, "members/"), {"username": "nobody"})
    assert response.status_code == 400 and response.context["form"].has_error("username")


def test_owners_add_players(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    as_role("owner").post(group_url(group, "members/"), {"name": "Dina"})
    assert group.players.filter(name="Dina").exists()


def test_the_invite_link_joins_as_a_member(group: Group, as_role: AsRole, charlie: User) -> None:
    client = as_role("outsider")
    link = f"/join/{group.invite_token}/"
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    assert group.memberships.get(user=charlie).role == Membership.Role.MEMBER


def test_a_wrong_invite_token_is_404(as_role: AsRole, group: Group) -> None:
    assert as_role("outsider").get("/join/nope/").status_code == 404


def test_owners_change_a_role(group_url: PageUrl, group: Group, as_role: AsRole, bob: User) -> None:
    member = group.memberships.get(user=bob)
    as_role("owner").post(group_url(group, f"members/{member.pk}/"), {"role": "viewer"})
    member.refresh_from_db()
    assert member.role == "viewer"


def test_the_last_owner_leaving_is_refused_on_the_members_page(
    group_url: PageUrl, group: Group, as_role: AsRole, alice: Any
) -> None:
    owner = group.memberships.get(user=alice)
    response = as_role("owner").post(group_url(group, f"members/{owner.pk}/"), {"remove": "1"})
    assert response.status_code == 302 and response["Location"] == group_url(group, "members/")
    assert group.memberships.filter(user=alice).exists()


def test_an_owner_who_leaves_goes_to_the_dashboard(
    group_url: PageUrl, group: Group, as_role: AsRole, alice: Any, bob: Any
) -> None:
    group.memberships.filter(user=bob).update(role="owner")
    owner = group.memberships.get(user=alice)
    response = as_role("owner").post(group_url(group, f"members/{owner.pk}/"), {"remove": "1"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not group.memberships.filter(user=alice).exists()


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


def test_owners_correct_a_players_name(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    ann = group.players.get(name="Ann")
    response = as_role("owner").post(group_url(group, f"players/{ann.pk}/"), {"name": "Anne"})
    ann.refresh_from_db()
    assert response.status_code == 302 and ann.name == "Anne"


def test_a_rename_to_a_listed_name_is_refused(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    ann = group.players.get(name="Ann")
    client = as_role("owner")
    client.post(group_url(group, f"players/{ann.pk}/"), {"name": "Ben"})
    ann.refresh_from_db()
    assert ann.name == "Ann"
    assert (
        "This player is already listed."
        in client.get(group_url(group, "members/")).content.decode()
    )


def test_a_player_who_never_played_can_be_removed(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    cleo = group.players.get(name="Cleo")
    as_role("owner").post(group_url(group, f"players/{cleo.pk}/"), {"remove": "1"})
    assert not group.players.filter(name="Cleo").exists()


def test_a_player_in_a_session_stays_in_the_history(
    group_url: PageUrl, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    cleo = group.players.get(name="Cleo")
    fill_in_session(campaign, [cleo])
    as_role("owner").post(group_url(group, f"players/{cleo.pk}/"), {"remove": "1"})
    assert group.players.filter(name="Cleo").exists()


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("viewer", 403), ("outsider", 404)])
def test_only_owners_change_players(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str, status: int
) -> None:
    ann = group.players.get(name="Ann")
    response = as_role(role).post(group_url(group, f"players/{ann.pk}/"), {"name": "Anne"})
    ann.refresh_from_db()
    assert response.status_code == status and ann.name == "Ann"


def test_changing_a_player_needs_a_post(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    ann = group.players.get(name="Ann")
    assert as_role("owner").get(group_url(group, f"players/{ann.pk}/")).status_code == 405


def test_owners_get_copy_and_share_buttons_for_the_invite_link(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(group_url(group, "members/")).content.decode()
    link = f"http://testserver/join/{group.invite_token}/"
    assert f'data-copy="{link}"' in body
    assert f'data-share="{link}"' in body
    assert "js/share.js" in body
    # Both wait hidden for the script: without JavaScript only the plain link shows.
    assert "data-invite-actions hidden" in body


@pytest.mark.parametrize("role", ["member", "viewer"])
def test_only_owners_see_the_invite_link_and_its_buttons(
    group_url: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    body = as_role(role).get(group_url(group, "members/")).content.decode()
    assert group.invite_token not in body
    assert "data-copy=" not in body


def test_joining_lands_on_the_group_page(group: Group, login: Callable[[User], Client]) -> None:
    erin = User.objects.create_user("erin")
    response = login(erin).post(f"/join/{group.invite_token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.pk}/"
