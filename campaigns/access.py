"""Who may see and change a group: every view and API function of a group asks here first.

As in healthchecks' ``_get_check_for_user``: outsiders get 404 (they learn nothing, not even
that the group exists), members who may see but not do get 403.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.crypto import constant_time_compare

from campaigns.definitions.services import known_clock
from campaigns.errors import CampaignError
from campaigns.live import board_version
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


def may_write(user: User | AnonymousUser, group_id: int | None) -> bool:
    """Whether ``user`` may write to the group (``Membership.can_write``): pages use it to
    offer only what the person may do; the writes themselves ask ``get_group_for_user``."""
    if group_id is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(
        group_id=group_id, user=user, role__in=Membership.WRITERS
    ).exists()


def clock_or_404(clock_id: str) -> str:
    """The canonical id of a catalogue clock named in a URL, else Http404 (pages and API)."""
    try:
        return known_clock(clock_id)
    except CampaignError:
        raise Http404 from None


def live_version(request: HttpRequest, group_id: int) -> str | None:
    """The version of the group's live board (``live.board_version``) for a signed-in
    member; None for anyone else (the caller answers 404), before the version is read.

    Phones poll this every few seconds, so it costs two small queries: the session, then the
    membership with the account's password hash. It therefore does not touch
    ``request.user`` (which would load the whole user in a query of its own) and checks the
    session the way ``django.contrib.auth.get_user`` does: an active account whose session
    hash still matches (a password change signs the phone out here too).
    """
    try:
        user_id = int(request.session[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None
    if request.session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return None
    password = (
        Membership.objects.filter(group_id=group_id, user_id=user_id, user__is_active=True)
        .values_list("user__password", flat=True)
        .first()
    )
    if password is None or not _session_verified(request, User(pk=user_id, password=password)):
        return None
    return board_version(group_id)


def _session_verified(request: HttpRequest, user: User) -> bool:
    session_hash = request.session.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return bool(session_hash) and any(constant_time_compare(session_hash, h) for h in hashes)
