"""campaigns.access: who may see and change a group."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.access import get_group_for_user
from campaigns.models import Group, Membership

pytestmark = pytest.mark.django_db


def test_outsiders_get_404(group: Group, charlie: User) -> None:
    with pytest.raises(Http404):
        get_group_for_user(charlie, group.pk)


def test_viewers_may_read_but_not_write(group: Group, dave: User) -> None:
    assert get_group_for_user(dave, group.pk) == (group, group.memberships.get(user=dave))
    with pytest.raises(PermissionDenied):
        get_group_for_user(dave, group.pk, write=True)


def test_only_owners_manage(group: Group, bob: User) -> None:
    with pytest.raises(PermissionDenied):
        get_group_for_user(bob, group.pk, owner=True)


def test_it_answers_the_members_role(group: Group, bob: User) -> None:
    _group, membership = get_group_for_user(bob, group.pk, write=True)
    assert membership.role == Membership.Role.MEMBER and membership.can_write


def test_anonymous_visitors_get_404(group: Group) -> None:
    with pytest.raises(Http404):
        get_group_for_user(AnonymousUser(), group.pk)


@pytest.mark.parametrize("group_id", ["x", "", "99999999999999999999999"])
def test_an_impossible_group_id_is_404(group: Group, alice: User, group_id: str) -> None:
    with pytest.raises(Http404):
        get_group_for_user(alice, group_id)
