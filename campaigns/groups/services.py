"""Groups and their campaigns, sessions, players and members: every change of them goes
through here (pages and API alike); refusals are CampaignError at a field."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import live
from campaigns.definitions.services import known_clock
from campaigns.errors import CampaignError
from campaigns.models import (
    INVITE_DAYS,
    INVITE_DAYS_DEFAULT,
    MAX_PLAYERS_LISTED,
    NAME_LENGTH,
    NOTES_LENGTH,
    Campaign,
    ClockProgress,
    Group,
    Membership,
    Player,
    Session,
    invite_expiry,
    new_invite_token,
)
from campaigns.play.state import Status, campaign_state, clock_ids, lock_campaign
from rules.clock import REBIRTH
from rules.game import CHAPTERS


def _check_name(name: object, field_name: str = "name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise CampaignError(_("Give a name."), field_name)
    name = name.strip()
    if len(name) > NAME_LENGTH:
        raise CampaignError(
            _("Names have at most %(max)d characters.") % {"max": NAME_LENGTH}, field_name
        )
    return name


def create_group(
    user: User, name: str, players: Iterable[str] = (), first_campaign: bool = True
) -> Group:
    """A group owned by ``user`` with its players and (unless an import brings its own)
    a first campaign at chapter 1."""
    name = _check_name(name)
    names: list[str] = []
    for player in players:
        player_name = _check_name(player, "players")
        if player_name.casefold() in (n.casefold() for n in names):
            raise CampaignError(_("%(name)s is listed twice.") % {"name": player_name}, "players")
        names.append(player_name)
    if len(names) > MAX_PLAYERS_LISTED:
        raise CampaignError(_("List at most 12 players."), "players")
    with transaction.atomic():
        group = Group.objects.create(name=name)
        Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
        Player.objects.bulk_create(Player(group=group, name=n) for n in names)
        if first_campaign:
            _create_campaign(group, Campaign.Kind.NORMAL, 1)
    return group


def _create_campaign(
    group: Group, kind: str, start_chapter: int, passed: Iterable[str] = ()
) -> Campaign:
    campaign = Campaign.objects.create(group=group, kind=kind)
    live.changed(group.pk)
    also_passed = set(passed)
    ClockProgress.objects.bulk_create(
        ClockProgress(
            campaign=campaign,
            clock_id=clock_id,
            position=position,
            status=(
                Status.PASSED
                if clock_id in also_passed
                or (clock_id != REBIRTH and int(clock_id.split("-")[0]) < start_chapter)
                else Status.UPCOMING
            ),
        )
        for position, clock_id in enumerate(clock_ids(kind))
    )
    return campaign


def new_campaign(
    group: Group,
    kind: str = Campaign.Kind.NORMAL,
    start_chapter: int = 1,
    passed: Sequence[object] = (),
) -> Campaign:
    """Start a new play-through (the old one stays in the history). It may start mid-game:
    ``start_chapter`` > 1 marks every clock of the chapters before it passed, and ``passed``
    marks more clocks passed (e.g. the first two of the start chapter). A Rebirth campaign
    needs the current campaign to have unlocked Rebirth (or to be one)."""
    if kind not in Campaign.Kind.values:
        raise CampaignError(_("Choose a normal or a Rebirth campaign."), "kind")
    if not isinstance(start_chapter, int) or start_chapter not in CHAPTERS:
        raise CampaignError(_("Chapters are 1 to 10."), "start_chapter")
    marked = [known_clock(clock_id, "passed") for clock_id in passed]
    if REBIRTH in marked:
        raise CampaignError(_("The Rebirth clock is played in a Rebirth campaign."), "passed")
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)
        if kind == Campaign.Kind.REBIRTH:
            current = campaign_state(group.current_campaign())
            if current.campaign.kind != Campaign.Kind.REBIRTH and not current.rebirth_unlocked:
                raise CampaignError(
                    _("The Rebirth envelope opens once all 40 clocks have been attempted."),
                    "kind",
                )
        return _create_campaign(group, kind, start_chapter, marked)


def restore_campaign(group: Group, kind: object, passed: Sequence[object] = ()) -> Campaign:
    """A campaign of an exported history, about to be replayed (``imports.import_history``):
    of ``kind``, with ``passed`` marked passed before its first event. Unlike
    ``new_campaign`` it does not look at the group's current campaign: the import checks
    that a Rebirth campaign follows one of the history's campaigns that unlocked it."""
    if not isinstance(kind, str) or kind not in Campaign.Kind.values:
        raise CampaignError(_("A campaign has an unknown kind."), "history")
    marked = [known_clock(clock_id) for clock_id in passed]
    return _create_campaign(group, kind, 1, marked)


# --- sessions -----------------------------------------------------------------------------


def current_session(campaign: Campaign) -> Session:
    """Today's session of the campaign, started if there is none."""
    today = timezone.localdate()
    session = campaign.sessions.filter(date=today).order_by("-id").first()
    return session or Session.objects.create(campaign=campaign, date=today)


def fill_in_session(
    campaign: Campaign, players: Sequence[Player], date: Any = None, notes: str = ""
) -> Session:
    """Say who is at the table on ``date`` (today by default): the sessions page's "Start
    session" and ``POST /api/groups/{id}/sessions/`` (which answers 201 with this session).

    The day's session that has no players or no attempts yet is filled in rather than a
    second one started: an attempt recorded before anyone said who is playing starts an
    empty session for the day (``record_attempt``), and a double tap on "Start session"
    would otherwise split one evening over two sessions. A session already played with its
    players stays as it is, and a new one starts. ``notes``, when given, replace the
    session's. The campaign row is locked, as for an attempt, so two phones fill in one
    session."""
    check_notes(notes)
    _check_players(campaign.group_id, players)
    day = date or timezone.localdate()
    with transaction.atomic():
        lock_campaign(campaign.pk)
        session = (
            campaign.sessions.filter(date=day)
            .filter(Q(players__isnull=True) | Q(attempts__isnull=True))
            .distinct()
            .order_by("-id")
            .first()
        )
        if session is None:
            session = Session.objects.create(campaign=campaign, date=day, notes=notes)
        elif notes:
            session.notes = notes
            session.save(update_fields=["notes"])
        session.players.set(players)
        live.changed(campaign.group_id)  # the board says who is at the table
    return session


def edit_session(session: Session, date: Any, players: Sequence[Player], notes: str) -> Session:
    """Correct a session's date, notes and who was there (its attempts stay with it)."""
    check_notes(notes)
    _check_players(session.campaign.group_id, players)
    with transaction.atomic():
        session.date = date
        session.notes = notes
        session.save(update_fields=["date", "notes"])
        session.players.set(players)
        live.changed(session.campaign.group_id)
    return session


def players_named(group: Group, names: Sequence[str]) -> list[Player]:
    """The group's players with these names (the API names players, the pages pick them)."""
    players = list(group.players.filter(name__in=names))
    if len(players) != len(set(names)):
        raise CampaignError(_("Every player must be a player of this group."), "players")
    return players


def _check_players(group_id: int, players: Sequence[Player]) -> None:
    if any(player.group_id != group_id for player in players):
        raise CampaignError(_("Every player must be a player of this group."), "players")


def check_notes(notes: str) -> None:
    if len(notes) > NOTES_LENGTH:
        raise CampaignError(
            _("Notes have at most %(max)d characters.") % {"max": NOTES_LENGTH}, "notes"
        )


# --- players ------------------------------------------------------------------------------


def add_player(group: Group, name: object) -> Player:
    """Someone new at the table (an account is optional); names are unique in a group, and a
    group lists at most MAX_PLAYERS_LISTED (counted under the group's row lock, so two
    owners adding at once cannot pass it together)."""
    name = _check_name(name)
    try:
        with transaction.atomic():
            Group.objects.select_for_update().filter(pk=group.pk).first()
            if Player.objects.filter(group=group).count() >= MAX_PLAYERS_LISTED:
                raise CampaignError(
                    _("A group lists at most %(max)d players.") % {"max": MAX_PLAYERS_LISTED},
                    "name",
                )
            live.changed(group.pk)  # the board's form offers the players as openers
            return Player.objects.create(group=group, name=name)
    except IntegrityError:
        raise CampaignError(_("This player is already listed."), "name") from None


def rename_player(player: Player, name: object) -> Player:
    """Correct a player's name; the history shows the new one everywhere."""
    new_name = _check_name(name)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(name=new_name)
            live.changed(player.group_id)
    except IntegrityError:
        raise CampaignError(_("This player is already listed."), "name") from None
    player.name = new_name
    return player


def remove_player(player: Player) -> None:
    """Remove a player who never played: one who was at a session or opened an attempt is
    part of the history, which keeps them."""
    if player.sessions.exists() or player.openings.exists():
        raise CampaignError(
            _("%(name)s has played with you: the history keeps them.") % {"name": player},
            "player",
        )
    player.delete()
    live.changed(player.group_id)


# --- members ------------------------------------------------------------------------------


def add_member(group: Group, username: str, role: str) -> Membership:
    """Add the account called ``username`` to the group with ``role`` (owners do this)."""
    if role not in Membership.Role.values:
        raise CampaignError(_("Choose owner, member or viewer."), "role")
    user = User.objects.filter(username=username).first()
    if user is None:
        raise CampaignError(_("No account has this username."), "username")
    membership, created = Membership.objects.get_or_create(
        group=group, user=user, defaults={"role": role}
    )
    if not created:
        raise CampaignError(_("%(user)s is already in this group.") % {"user": user}, "username")
    return membership


def change_role(group: Group, membership: Membership, role: str) -> Membership:
    """Change a member's role; a group always keeps at least one owner."""
    if role not in Membership.Role.values:
        raise CampaignError(_("Choose owner, member or viewer."), "role")
    with transaction.atomic():
        _lock_keeping_an_owner(group, membership, role)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def remove_member(group: Group, membership: Membership) -> None:
    """Remove a member; the invite link changes too, so they cannot rejoin with the one they
    had (the new link stays open as long as the old one would have)."""
    with transaction.atomic():
        _lock_keeping_an_owner(group, membership, None)
        membership.delete()
        group.invite_token = new_invite_token()
        group.save(update_fields=["invite_token"])


def rotate_invite(group: Group, days: int = INVITE_DAYS_DEFAULT) -> Group:
    """A new invite link, open for ``days`` days (one of INVITE_DAYS); the old one is revoked
    at once (owners do this)."""
    if days not in INVITE_DAYS:
        raise CampaignError(_("Choose how long the link stays open."), "days")
    group.invite_token = new_invite_token()
    group.invite_expires = invite_expiry(days)
    group.save(update_fields=["invite_token", "invite_expires"])
    return group


def _lock_keeping_an_owner(group: Group, membership: Membership, role: str | None) -> None:
    """Lock the group for a change of ``membership`` to ``role`` (None: it is removed);
    CampaignError if that would leave the group without an owner."""
    Group.objects.select_for_update().get(pk=group.pk)
    owners = group.memberships.filter(role=Membership.Role.OWNER).count()
    if membership.is_owner and role != Membership.Role.OWNER and owners == 1:
        raise CampaignError(_("A group needs at least one owner."), "role")


class Invite(StrEnum):
    """What a group's invite link is to someone: the one rule of invites is that the link
    lets you in while it is open, or whenever you are already a member."""

    MEMBER = "member"  # already in the group: the link leads them in, open or not
    OPEN = "open"
    EXPIRED = "expired"


def invite_for(group: Group, user: User | AnonymousUser) -> Invite:
    """The group's invite link as ``user`` meets it (the join page, the join itself, the
    invite the dashboard offers again after a sign-up)."""
    if user.is_authenticated and group.memberships.filter(user=user).exists():
        return Invite.MEMBER
    return Invite.OPEN if group.invite_open else Invite.EXPIRED


def join(group: Group, user: User) -> Membership:
    """Join through the group's invite link: as a member, or with the role one already has.
    CampaignError once the link has expired."""
    if invite_for(group, user) == Invite.EXPIRED:
        raise CampaignError(
            _("This invite link has expired. Ask an owner of the group for a new one."), "token"
        )
    membership, _created = Membership.objects.get_or_create(
        group=group, user=user, defaults={"role": Membership.Role.MEMBER}
    )
    return membership
