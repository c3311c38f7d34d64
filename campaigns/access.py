"""Who may see and change a group: every view and API function of a group asks here first.

As in healthchecks' ``_get_check_for_user``: outsiders get 404 (they learn nothing, not even
that the group exists), members who may see but not do get 403.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Group, Membership


def get_group_for_user(
    user: User | AnonymousUser,
    group_id: int | str,
    *,
    write: bool = False,
    owner: bool = False,
) -> tuple[Group, Membership]:
    """The group and the user's membership of it, else Http404 for anyone not a member.

    PermissionDenied (403) for a member who may not do what is asked: viewers on ``write``,
    anyone but an owner on ``owner``. Used by the campaigns pages and API and by the hint
    pages and API (a hint asked for a group).
    """
    if not user.is_authenticated:
        raise Http404
    try:
        membership = Membership.objects.select_related("group").get(
            group_id=int(group_id), user=user
        )
    except (Membership.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404 from None
    if (write and not membership.can_write) or (owner and not membership.is_owner):
        raise PermissionDenied
    return membership.group, membership
