"""Invite links: open for a chosen time (7 days by default), replaced by an owner's new link
(the old one stops working at once), and replaced when a member is removed, so that they
cannot come back with the link they had."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from campaigns.errors import CampaignError
from campaigns.groups import services as groups_services
from campaigns.groups.services import rotate_invite
from campaigns.models import Group, Membership

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]


def join_link(group: Group) -> str:
    return f"/join/{group.invite_token}/"


def test_a_new_group_s_link_is_open_for_seven_days(group: Group) -> None:
    left = group.invite_expires - timezone.now()
    assert timedelta(days=7) - timedelta(minutes=1) < left <= timedelta(days=7)


def test_an_owner_s_new_link_revokes_the_old_one(
    group: Group, as_role: AsRole, charlie: User
) -> None:
    old = join_link(group)
    response = as_role("owner").post(f"/groups/{group.pk}/members/invite/", {"days": "1"})
    assert response.status_code == 302
    group.refresh_from_db()
    assert join_link(group) != old
    left = group.invite_expires - timezone.now()
    assert timedelta(hours=23) < left <= timedelta(days=1)
    outsider = as_role("outsider")
    assert outsider.post(old).status_code == 404
    assert not group.memberships.filter(user=charlie).exists()
    assert outsider.post(join_link(group)).status_code == 302
    assert group.memberships.filter(user=charlie, role=Membership.Role.MEMBER).exists()


@pytest.mark.parametrize("role", ["member", "viewer", "outsider"])
def test_only_owners_make_a_new_link(group: Group, as_role: AsRole, role: str) -> None:
    old = group.invite_token
    response = as_role(role).post(f"/groups/{group.pk}/members/invite/", {"days": "7"})
    assert response.status_code == (404 if role == "outsider" else 403)
    group.refresh_from_db()
    assert group.invite_token == old


def test_a_length_not_offered_is_refused(group: Group, as_role: AsRole) -> None:
    old = group.invite_token
    as_role("owner").post(f"/groups/{group.pk}/members/invite/", {"days": "3650"})
    group.refresh_from_db()
    assert group.invite_token == old
    with pytest.raises(CampaignError):
        rotate_invite(group, 3650)


def test_the_members_page_offers_a_new_link_and_says_until_when(
    group: Group, as_role: AsRole
) -> None:
    html = as_role("owner").get(f"/groups/{group.pk}/members/").content.decode()
    assert f'action="/groups/{group.pk}/members/invite/"' in html
    assert 'name="days"' in html and "Open until" in html


def test_a_time_in_the_afternoon_ends_the_sentence_once(group: Group, as_role: AsRole) -> None:
    """ "Open until 9 Dec 2026, 15:00." (once "3 p.m.." with a second period)."""
    group.invite_expires = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)
    group.save(update_fields=["invite_expires"])
    client = as_role("owner")
    client.cookies["django_language"] = "en"
    html = client.get(f"/groups/{group.pk}/members/").content.decode()
    assert "Open until 9 Dec 2026, 15:00" in html and "15:00.." not in html


def test_an_expired_link_no_longer_joins(group: Group, as_role: AsRole, charlie: User) -> None:
    Group.objects.filter(pk=group.pk).update(invite_expires=timezone.now() - timedelta(seconds=1))
    client = as_role("outsider")
    for response in (client.get(join_link(group)), client.post(join_link(group))):
        assert response.status_code == 410
        assert "This invite link has expired." in response.content.decode()
        assert group.name not in response.content.decode()  # not to someone outside it
    assert not group.memberships.filter(user=charlie).exists()
    # Logged out, too: no invite is kept for the dashboard to offer later.
    anonymous = Client()
    assert anonymous.get(join_link(group)).status_code == 410
    assert "campaigns_invite" not in anonymous.session


def test_an_expired_link_in_the_session_is_not_offered(
    group: Group, charlie: User, login: Callable[[User], Client]
) -> None:
    client = login(charlie)
    session = client.session
    session["campaigns_invite"] = group.invite_token
    session.save()
    assert "You were invited" in client.get("/").content.decode()
    Group.objects.filter(pk=group.pk).update(invite_expires=timezone.now() - timedelta(seconds=1))
    assert "You were invited" not in client.get("/").content.decode()


def test_the_service_refuses_an_expired_link(group: Group, charlie: User, bob: User) -> None:
    group.invite_expires = timezone.now() - timedelta(seconds=1)
    with pytest.raises(CampaignError):
        groups_services.join(group, charlie)
    # Someone already in the group keeps their role.
    assert groups_services.join(group, bob).role == Membership.Role.MEMBER


def test_a_removed_member_cannot_rejoin_with_the_old_link(
    group: Group, as_role: AsRole, bob: User
) -> None:
    old = join_link(group)
    member = group.memberships.get(user=bob)
    assert as_role("owner").post(f"/groups/{group.pk}/members/{member.pk}/", {"remove": "1"})
    assert not group.memberships.filter(user=bob).exists()
    assert as_role("member").post(old).status_code == 404
    assert not group.memberships.filter(user=bob).exists()
    group.refresh_from_db()
    assert join_link(group) != old and group.invite_open
