"""The campaign state machine: every change of a campaign goes through here.

HTML views and the API call the same functions. Each change runs in one transaction that
first locks the campaign row (``select_for_update``), so two phones recording at the same
table cannot interleave; each writes an ``Event`` holding what it overwrote, which is what
``undo`` puts back. A ``request_key`` (one per rendered form, or an API client's
``Idempotency-Key``) makes a double submit return the first result instead of recording twice.

Rules (docs/game.md, "After an attempt", "End of the game"):
- a failure flips one Bonus token (never more than 3); a pass or a skip turns them face down;
- the next clock is the first of the stack not passed nor in the Sleeve; clocks put back from
  the Sleeve go on top of the stack (only between clocks: with no Bonus token flipped);
- a clock is skipped into the Sleeve after it was attempted; passing it takes it out;
- a chapter opens once every clock of the chapters before is passed or in the Sleeve;
- complete when every clock is passed; Rebirth unlocks once all 40 have been attempted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import winnable
from campaigns.models import (
    INVITE_DAYS,
    INVITE_DAYS_DEFAULT,
    MAX_PLAYERS_LISTED,
    NAME_LENGTH,
    NOTES_LENGTH,
    Attempt,
    Campaign,
    ClockProgress,
    ClockTranscription,
    CommunityDefinition,
    Event,
    Group,
    Membership,
    Player,
    Session,
    invite_expiry,
    new_invite_token,
)
from config.errors import DomainError, LimitReached
from config.i18n import current_lang
from rules.canonical import canonical_json, fingerprint
from rules.catalogue import CLOCK_IDS, get_clock
from rules.clock import REBIRTH, Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.inputs import check_layout
from rules.validate import Verdict

NUMBERED_CLOCKS: tuple[str, ...] = tuple(c for c in CLOCK_IDS if c != REBIRTH)
CHAPTERS = range(1, 11)
Status = ClockProgress.Status


class CampaignError(DomainError):
    """A refused change to a group or its campaign (the API answers 400
    ``{field: [message]}``, forms show it at that field)."""


def error_text(error: CampaignError | RulesError) -> str:
    """What a person reads for a refusal, in the active language (a CampaignError is
    already worded in it; a RulesError carries its wording in every language)."""
    if isinstance(error, RulesError):
        return error.in_language(current_lang())
    return error.message


def _signed_in(user: Any) -> User | None:
    """The user a row names as its author: nobody for an anonymous caller."""
    return user if user is not None and user.is_authenticated else None


# --- clocks for a group -------------------------------------------------------------------


def known_clock(clock_id: object, field_name: str = "clock") -> str:
    """The canonical id of a catalogue clock, or CampaignError naming ``field_name``."""
    if not isinstance(clock_id, str):
        raise CampaignError(_("Give a clock id like 1-1."), field_name)
    try:
        return get_clock(clock_id).id
    except RulesError:
        raise CampaignError(
            _("Unknown clock %(clock)s: clocks are 1-1 … 10-4 and rebirth.")
            % {"clock": clock_id[:20]},
            field_name,
        ) from None


@dataclass(frozen=True)
class DefinitionChoice:
    """The rules a group plays a clock by, and where they come from: ``own`` (its latest
    version ``version``), ``promoted`` (the site-wide default staff chose), ``shipped``
    (the catalogue file; ``clock.transcribed`` False when its special rules are unknown), or
    ``community`` (a confirmed definition of other tables, typed by ``groups`` of them:
    offered by ``community.best_definition``, never chosen here)."""

    source: str
    clock: Clock
    version: int = 0
    fingerprint: str = ""
    groups: int = 0

    OWN = "own"
    PROMOTED = "promoted"
    SHIPPED = "shipped"
    COMMUNITY = "community"


def played_definition(group: Group, clock_id: str) -> DefinitionChoice:
    """The definition a group plays ``clock_id`` by: its own latest version, else the
    promoted one, else the shipped one. Other tables' definitions are only ever offered
    (``community.best_definition``), never played behind the group's back."""
    own = (
        ClockTranscription.objects.filter(group=group, clock_id=clock_id, latest=True)
        .only("definition", "version", "fingerprint")
        .first()
    )
    if own is not None:
        clock = Clock.from_json(own.definition)
        return DefinitionChoice(DefinitionChoice.OWN, clock, own.version, own.fingerprint)
    promoted = CommunityDefinition.objects.filter(clock_id=clock_id, promoted=True).first()
    if promoted is not None:
        clock = Clock.from_json(promoted.definition)
        return DefinitionChoice(DefinitionChoice.PROMOTED, clock, 0, promoted.fingerprint)
    shipped = get_clock(clock_id)
    return DefinitionChoice(DefinitionChoice.SHIPPED, shipped, 0, fingerprint(shipped))


def clock_for_group(group: Group, clock_id: str) -> tuple[Clock, int]:
    """The definition a group plays ``clock_id`` by, and its version (0 = not the group's
    own: the promoted or the shipped definition)."""
    choice = played_definition(group, clock_id)
    return choice.clock, choice.version


MAX_VERSIONS_PER_HOUR = 30  # per user, typed and adopted versions together


class TranscriptionLimitReached(CampaignError, LimitReached):
    """A user saved or adopted too many versions in the last hour (429)."""


def check_transcription_limits(user: User | None, clock: Clock) -> None:
    """At most MAX_VERSIONS_PER_HOUR new versions per user (typed or adopted), which keeps
    what tables share with each other usable. (The rule count is bounded where every clock
    definition is read: rules.clock.MAX_RULES.)"""
    if user is None:
        return
    since = timezone.now() - timedelta(hours=1)
    if (
        ClockTranscription.objects.filter(author=user, created__gte=since).count()
        >= MAX_VERSIONS_PER_HOUR
    ):
        raise TranscriptionLimitReached(
            _("You saved %(n)d clock versions in the last hour; try again later.")
            % {"n": MAX_VERSIONS_PER_HOUR},
            "rules",
        )


def save_version(
    group: Group, clock: Clock, user: User | None, adopted: bool = False
) -> ClockTranscription:
    """Store ``clock`` as the group's next version of its clock, in canonical form, and make
    it the latest (the one other tables count). A version typed to equal one the group
    adopted earlier stays adopted: retyping what one copied is not independent."""
    definition = canonical_json(clock)
    print_ = fingerprint(clock)
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)  # versions are numbered in order
        versions = ClockTranscription.objects.filter(group=group, clock_id=clock.id)
        last = versions.order_by("-version").values_list("version", flat=True).first()
        adopted = adopted or versions.filter(fingerprint=print_, adopted=True).exists()
        versions.filter(latest=True).update(latest=False)
        # get_or_create takes care of another table saving the same definition at once.
        CommunityDefinition.objects.get_or_create(
            clock_id=clock.id, fingerprint=print_, defaults={"definition": definition}
        )
        return ClockTranscription.objects.create(
            group=group,
            clock_id=clock.id,
            version=(last or 0) + 1,
            definition=definition,
            fingerprint=print_,
            latest=True,
            adopted=adopted,
            author=user,
        )


def transcribe(
    group: Group, clock_id: str, definition: dict[str, Any], user: User | None
) -> ClockTranscription:
    """Save a new version of the group's definition of ``clock_id`` (RulesError if invalid,
    CampaignError past the limits), in canonical form."""
    clock_id = known_clock(clock_id)
    definition = {**definition, "id": clock_id}
    definition.pop("transcribed", None)
    clock = Clock.from_json(definition)  # validates; RulesError names the field
    author = _signed_in(user)
    check_transcription_limits(author, clock)
    return save_version(group, clock, author)


# --- state --------------------------------------------------------------------------------


@dataclass
class CampaignState:
    """What the table needs to know, computed from the progress rows (one query)."""

    campaign: Campaign
    rows: list[ClockProgress]
    by_id: dict[str, ClockProgress] = field(init=False)

    def __post_init__(self) -> None:
        self.by_id = {row.clock_id: row for row in self.rows}

    @property
    def bonus_tokens(self) -> int:
        return self.campaign.bonus_tokens

    def stack(self) -> list[str]:
        """Clocks still to play, in order: those put back on top, then the stack."""
        top = [c for c in self.campaign.stack_top if self.by_id[c].status == Status.UPCOMING]
        rest = [
            r.clock_id for r in self.rows if r.status == Status.UPCOMING and r.clock_id not in top
        ]
        return top + rest

    @property
    def next_clock(self) -> str | None:
        stack = self.stack()
        return stack[0] if stack else None

    @property
    def passed(self) -> list[str]:
        return [r.clock_id for r in self.rows if r.status == Status.PASSED]

    @property
    def sleeve(self) -> list[str]:
        return [r.clock_id for r in self.rows if r.status == Status.SLEEVE]

    @property
    def attempted(self) -> int:
        """Numbered clocks attempted (passed, or played at least once)."""
        return sum(1 for r in self.rows if r.clock_id != REBIRTH and r.attempted)

    @property
    def attempts(self) -> int:
        return sum(r.attempts for r in self.rows)

    @property
    def completed(self) -> bool:
        return all(r.status == Status.PASSED for r in self.rows)

    @property
    def rebirth_unlocked(self) -> bool:
        return self.attempted == len(NUMBERED_CLOCKS)

    def chapter_open(self, chapter: int) -> bool:
        """A chapter opens once every clock of the chapters before it is passed or skipped."""
        return all(
            self.by_id[f"{c}-{n}"].status != Status.UPCOMING
            for c in range(1, chapter)
            for n in range(1, 5)
        )

    @property
    def chapter(self) -> int:
        """The chapter the group has reached (the highest open one)."""
        return max(c for c in CHAPTERS if self.chapter_open(c))

    def face_up(self, players: int) -> int:
        return players + self.bonus_tokens

    def to_json(self) -> dict[str, Any]:
        """The public ``GET /api/groups/{id}/progress/`` object (docs/api.md)."""
        return {
            "campaign": self.campaign.pk,
            "kind": self.campaign.kind,
            "chapter": self.chapter,
            "clock": self.next_clock,
            "bonus_tokens": self.bonus_tokens,
            "passed": self.passed,
            "sleeve": self.sleeve,
            "attempted": self.attempted,
            "attempts": self.attempts,
            "completed": self.completed,
            "rebirth_unlocked": self.rebirth_unlocked,
            "version": campaign_version(self.campaign),
        }


def campaign_state(campaign: Campaign) -> CampaignState:
    return CampaignState(campaign, list(campaign.progress.order_by("position")))


def _clock_ids(kind: str) -> list[str]:
    return [*NUMBERED_CLOCKS, REBIRTH] if kind == Campaign.Kind.REBIRTH else list(NUMBERED_CLOCKS)


# --- groups and campaigns -----------------------------------------------------------------


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
        for position, clock_id in enumerate(_clock_ids(kind))
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
    """A campaign of an exported history, about to be replayed (``exports.import_history``):
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


def start_session(
    campaign: Campaign, players: Sequence[Player], date: Any = None, notes: str = ""
) -> Session:
    """A new session of the campaign on ``date`` (today by default) with these players."""
    _check_notes(notes)
    _check_players(campaign.group_id, players)
    with transaction.atomic():
        session = Session.objects.create(
            campaign=campaign, date=date or timezone.localdate(), notes=notes
        )
        session.players.set(players)
    return session


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
    _check_notes(notes)
    _check_players(campaign.group_id, players)
    day = date or timezone.localdate()
    with transaction.atomic():
        _locked(campaign.pk)
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
    return session


def edit_session(session: Session, date: Any, players: Sequence[Player], notes: str) -> Session:
    """Correct a session's date, notes and who was there (its attempts stay with it)."""
    _check_notes(notes)
    _check_players(session.campaign.group_id, players)
    with transaction.atomic():
        session.date = date
        session.notes = notes
        session.save(update_fields=["date", "notes"])
        session.players.set(players)
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


def _check_notes(notes: str) -> None:
    if len(notes) > NOTES_LENGTH:
        raise CampaignError(
            _("Notes have at most %(max)d characters.") % {"max": NOTES_LENGTH}, "notes"
        )


# --- players ------------------------------------------------------------------------------


def add_player(group: Group, name: object) -> Player:
    """Someone new at the table (an account is optional); names are unique in a group."""
    name = _check_name(name)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=name)
    except IntegrityError:
        raise CampaignError(_("This player is already listed."), "name") from None


def rename_player(player: Player, name: object) -> Player:
    """Correct a player's name; the history shows the new one everywhere."""
    new_name = _check_name(name)
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(name=new_name)
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


# --- the state machine --------------------------------------------------------------------


def _locked(campaign_id: int) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign_id)


class StaleWrite(CampaignError):
    """A change made from a board older than a change to the same clock (another phone got
    there first). The API answers 409 with the current progress; pages show the fresh board
    with ``message``."""

    status = 409

    def __init__(self, message: str, event: Event) -> None:
        super().__init__(message, "expected_event")
        self.event = event

    def body(self) -> dict[str, object]:
        """The campaign's progress as it is now (read after the refused change rolled
        back), with ``detail`` saying what happened."""
        campaign = Campaign.objects.get(pk=self.event.campaign_id)
        return {**campaign_state(campaign).to_json(), "detail": self.message}


def campaign_version(campaign: Campaign) -> int:
    """The campaign's version: the id of its last event (undos included), 0 before any."""
    return campaign.events.order_by("-id").values_list("id", flat=True).first() or 0


def _check_fresh(campaign: Campaign, expected_event: int | None, clocks: Iterable[str]) -> None:
    """Refuse a change made against ``expected_event`` (the version the phone's board was
    drawn from) when a newer event touched one of ``clocks``: two phones tapping for one real
    attempt must record it once. Newer events at other clocks are no reason to refuse.
    Called inside the campaign lock, so of two racing phones exactly one gets through."""
    if expected_event is None:
        return
    touched = set(clocks)
    newer = campaign.events.filter(pk__gt=expected_event).order_by("id")
    for event in newer:
        if touched & set(event.clock_id.split(",")):
            raise StaleWrite(_stale_message(event), event)


def _stale_message(event: Event) -> str:
    when = timezone.localtime(event.created).strftime("%H:%M")
    if event.kind == Event.Kind.UNDONE:
        return _(
            "Another phone undid the last change at %(clock)s at %(time)s. Check the board and "
            "tap again if this is still right."
        ) % {"clock": event.clock_id, "time": when}
    return _(
        "Another phone already recorded “%(what)s” at %(clock)s at %(time)s. Check the board "
        "and tap again if this was another attempt."
    ) % {"what": event.get_kind_display(), "clock": event.clock_id, "time": when}


def _replayed(campaign: Campaign, request_key: str) -> Event | None:
    """The event already recorded under this key (a double submit), if any."""
    if not request_key:
        return None
    if len(request_key) > 64:
        raise CampaignError(_("The request key is too long."), "request_key")
    event = campaign.events.filter(request_key=request_key).first()
    if event is not None and event.undone is not None:
        raise CampaignError(
            _("This was already recorded, then undone; reload the page."), "request_key"
        )
    return event


def _snapshot(campaign: Campaign, rows: Iterable[ClockProgress]) -> dict[str, Any]:
    return {
        "bonus_tokens": campaign.bonus_tokens,
        "stack_top": list(campaign.stack_top),
        "completed": campaign.completed.isoformat() if campaign.completed else None,
        "progress": {
            r.clock_id: {"status": r.status, "attempts": r.attempts, "failures": r.failures}
            for r in rows
        },
    }


def _event(
    campaign: Campaign, kind: str, clock_id: str, before: dict[str, Any], user: Any, key: str
) -> Event:
    return Event.objects.create(
        campaign=campaign,
        kind=kind,
        clock_id=clock_id,
        before=before,
        request_key=key,
        user=_signed_in(user),
    )


def judge_layout(clock: Clock, layout: str, outcome: str) -> Verdict:
    """The verdict on ``layout``; CampaignError (field ``layout``) when the text is bad or
    the verdict contradicts ``outcome``. A failure the engine cannot confirm (rules not
    transcribed or not checkable) is accepted: the table knows better."""
    try:
        verdict = check_layout(clock, layout)  # stored with the attempt: in English
    except RulesError as error:
        raise CampaignError(error_text(error), "layout") from None
    if outcome == Attempt.Outcome.PASSED and not verdict.passed:
        shown = check_layout(clock, layout, current_lang())  # the reasons in the reader's words
        reasons = " ".join(v.message for v in shown.violations)
        raise CampaignError(
            _("This layout fails the clock, so it cannot be recorded as passed: %(reasons)s")
            % {"reasons": reasons},
            "layout",
        )
    if outcome == Attempt.Outcome.FAILED and verdict.passed and verdict.conclusive:
        raise CampaignError(
            _("This layout passes the clock, so it cannot be recorded as failed."), "layout"
        )
    return verdict


def record_attempt(
    campaign: Campaign,
    user: Any,
    clock_id: object,
    outcome: object,
    players: object,
    layout: str = "",
    opener: Player | None = None,
    duration: timedelta | None = None,
    notes: str = "",
    session: Session | None = None,
    request_key: str = "",
    expected_event: int | None = None,
) -> Attempt:
    """Record one attempt at the next clock and move the campaign on: ``passed`` turns the
    Bonus tokens face down and takes the clock out of the game (and out of the Sleeve),
    ``failed`` flips one more token (at most 3). The attempt's ``face_up`` is the players
    plus the tokens flipped before it. ``expected_event``: see ``_check_fresh``."""
    clock = known_clock(clock_id)
    if outcome not in Attempt.Outcome.values:
        raise CampaignError(_("The outcome is passed or failed."), "outcome")
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        raise CampaignError(_("Take Time is played by 2 to 4 players."), "players")
    layout = (layout or "").strip()
    _check_notes(notes)
    if duration is not None and duration < timedelta(0):
        raise CampaignError(_("A duration cannot be negative."), "duration")
    if opener is not None and opener.group_id != campaign.group_id:
        raise CampaignError(_("The opener is not a player of this group."), "opener")
    # Judged outside the lock: parsing and validating is the slow part.
    definition, version = clock_for_group(campaign.group, clock)
    verdict = judge_layout(definition, layout, str(outcome)).to_json() if layout else None
    # Could its cards have passed? Asked of the solver (campaigns.winnable), also unlocked.
    postmortem = (
        winnable.judge_failure(definition, layout, players)
        if layout and outcome == Attempt.Outcome.FAILED
        else None
    )

    with transaction.atomic():
        campaign = _locked(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return Attempt.objects.get(event=replay)
        _check_fresh(campaign, expected_event, [clock])
        state = campaign_state(campaign)
        _check_playable(state, clock)
        row = state.by_id[clock]
        before = _snapshot(campaign, [row])
        tokens = campaign.bonus_tokens
        row.attempts += 1
        if outcome == Attempt.Outcome.PASSED:
            row.status = Status.PASSED
            campaign.bonus_tokens = 0
            campaign.stack_top = [c for c in campaign.stack_top if c != clock]
            if state.completed:
                campaign.completed = timezone.now()
        else:
            row.failures += 1
            campaign.bonus_tokens = min(BONUS_TOKENS, tokens + 1)
        row.save(update_fields=["status", "attempts", "failures"])
        campaign.save(update_fields=["bonus_tokens", "stack_top", "completed"])
        event = _event(campaign, str(outcome), clock, before, user, request_key)
        if session is None:
            session = current_session(campaign)
        elif session.campaign_id != campaign.pk:
            raise CampaignError(_("That session belongs to another campaign."), "session")
        return Attempt.objects.create(
            campaign=campaign,
            session=session,
            event=event,
            clock_id=clock,
            players=players,
            bonus_tokens=tokens,
            face_up=players + tokens,
            outcome=outcome,
            layout=layout,
            verdict=verdict,
            postmortem=postmortem,
            opener=opener,
            duration=duration,
            notes=notes,
            clock_version=version,
        )


def _check_playable(state: CampaignState, clock: str) -> None:
    row = state.by_id.get(clock)
    if row is None:
        raise CampaignError(_("The Rebirth clock is played in a Rebirth campaign."), "clock")
    if row.status == Status.PASSED:
        raise CampaignError(
            _("Clock %(clock)s is already passed in this campaign.") % {"clock": clock}, "clock"
        )
    if row.status == Status.SLEEVE:
        raise CampaignError(
            _("Clock %(clock)s is in the Sleeve of Regrets: put it back on top of the stack first.")
            % {"clock": clock},
            "clock",
        )
    if clock != state.next_clock:
        raise CampaignError(
            _("The next clock is %(next)s, not %(clock)s.")
            % {"next": state.next_clock, "clock": clock},
            "clock",
        )


def skip(
    campaign: Campaign,
    user: Any,
    clock_id: object,
    request_key: str = "",
    expected_event: int | None = None,
) -> Event:
    """Put the clock being played into the Sleeve of Regrets after a failure, turn the Bonus
    tokens face down and go on with the next clock."""
    clock = known_clock(clock_id)
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return replay
        _check_fresh(campaign, expected_event, [clock])
        state = campaign_state(campaign)
        _check_playable(state, clock)
        row = state.by_id[clock]
        if row.attempts == 0:
            raise CampaignError(
                _("A clock goes into the Sleeve after a failed attempt; play %(clock)s first.")
                % {"clock": clock},
                "clock",
            )
        before = _snapshot(campaign, [row])
        row.status = Status.SLEEVE
        row.save(update_fields=["status"])
        campaign.bonus_tokens = 0
        campaign.stack_top = [c for c in campaign.stack_top if c != clock]
        campaign.save(update_fields=["bonus_tokens", "stack_top"])
        return _event(campaign, Event.Kind.SKIPPED, clock, before, user, request_key)


def retrieve(
    campaign: Campaign,
    user: Any,
    clock_ids: Sequence[object],
    request_key: str = "",
    expected_event: int | None = None,
) -> Event:
    """Put clocks from the Sleeve on top of the stack, the first given played first. Only
    between clocks (no Bonus token flipped), as at the start of a session."""
    if not clock_ids:
        raise CampaignError(_("Choose at least one clock from the Sleeve."), "clocks")
    clocks = [known_clock(c, "clocks") for c in clock_ids]
    if len(set(clocks)) != len(clocks):
        raise CampaignError(_("A clock is listed twice."), "clocks")
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return replay
        _check_fresh(campaign, expected_event, clocks)
        state = campaign_state(campaign)
        for clock in clocks:
            if clock not in state.by_id or state.by_id[clock].status != Status.SLEEVE:
                raise CampaignError(
                    _("Clock %(clock)s is not in the Sleeve of Regrets.") % {"clock": clock},
                    "clocks",
                )
        if campaign.bonus_tokens:
            raise CampaignError(
                _("Finish or skip the clock being played before taking clocks from the Sleeve."),
                "clocks",
            )
        rows = [state.by_id[c] for c in clocks]
        before = _snapshot(campaign, rows)
        for row in rows:
            row.status = Status.UPCOMING
            row.save(update_fields=["status"])
        campaign.stack_top = clocks + [c for c in campaign.stack_top if c not in clocks]
        campaign.save(update_fields=["stack_top"])
        return _event(campaign, Event.Kind.RETRIEVED, ",".join(clocks), before, user, request_key)


def last_undoable(campaign: Campaign) -> Event | None:
    """The change an Undo would revert: the last one not undone (an undo is not undone)."""
    return (
        campaign.events.filter(undone__isnull=True)
        .exclude(kind=Event.Kind.UNDONE)
        .order_by("-id")
        .first()
    )


def undo(
    campaign: Campaign,
    user: Any,
    event_id: int | None = None,
    expected_event: int | None = None,
) -> Event:
    """Revert the campaign's last change not undone yet (and delete its attempt), and record
    the undo as an event of its own (the campaign's new version).

    With ``event_id`` (what the Undo button shows), only that change is undone, and undoing
    it again is harmless: a double tap on Undo does not also undo the change before it."""
    with transaction.atomic():
        campaign = _locked(campaign.pk)
        event = last_undoable(campaign)
        if event_id is not None and (event is None or event.pk != event_id):
            done = campaign.events.filter(pk=event_id, undone__isnull=False).first()
            if done is not None:
                return done
            raise CampaignError(
                _("Something else was recorded meanwhile; reload the page."), "event"
            )
        if event is None:
            raise CampaignError(_("There is nothing to undo."))
        _check_fresh(campaign, expected_event, event.clock_id.split(","))
        before = event.before
        campaign.bonus_tokens = before["bonus_tokens"]
        campaign.stack_top = before["stack_top"]
        campaign.completed = before["completed"]
        campaign.save(update_fields=["bonus_tokens", "stack_top", "completed"])
        for clock_id, values in before["progress"].items():
            ClockProgress.objects.filter(campaign=campaign, clock_id=clock_id).update(**values)
        Attempt.objects.filter(event=event).delete()
        event.undone = timezone.now()
        event.save(update_fields=["undone"])
        _event(campaign, Event.Kind.UNDONE, event.clock_id, {"event": event.pk}, user, "")
        return event


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


def join(group: Group, user: User) -> Membership:
    """Join through the group's invite link: as a member, or with the role one already has.
    CampaignError once the link has expired."""
    if not group.invite_open and not group.memberships.filter(user=user).exists():
        raise CampaignError(
            _("This invite link has expired. Ask an owner of the group for a new one."), "token"
        )
    membership, _created = Membership.objects.get_or_create(
        group=group, user=user, defaults={"role": Membership.Role.MEMBER}
    )
    return membership
