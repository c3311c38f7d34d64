"""Groups, their campaigns through the 40 clocks, and what happened at the table.

The clocks themselves are not rows: their definitions come from ``rules.catalogue`` (the
shipped files), overridden per group by a ``ClockTranscription`` (versioned). State changes
of a campaign go through its services (``campaigns.play.services``,
``campaigns.groups.services``), which lock the campaign row and write an ``Event`` for each
change so the last one can be undone.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.game import MAX_PLAYERS_LISTED as MAX_PLAYERS_LISTED  # the one cap, re-exported
from rules.kinds import rule_from_json
from rules.kinds.described import normalise_text

NAME_LENGTH = 80
# What a person may type as the notes of a session or an attempt (forms, API, services).
NOTES_LENGTH = 2000


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


# How long an invite link stays open, in days: an owner chooses when making a new link.
INVITE_DAYS = (1, 7, 30)
INVITE_DAYS_DEFAULT = 7


def invite_expiry(days: int = INVITE_DAYS_DEFAULT) -> Any:
    return timezone.now() + timedelta(days=days)


def whole_minutes(duration: timedelta | None) -> int | None:
    """A duration as the table says it: whole minutes (an attempt's, a session's total)."""
    return None if duration is None else round(duration.total_seconds() / 60)


class Group(models.Model):
    """People who play together. Everything below belongs to one group."""

    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    # Anyone logged in who holds this token may join as a member (members page, "link")
    # until ``invite_expires``. A new link (an owner's, or a member's removal) revokes it.
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    invite_expires = models.DateTimeField(default=invite_expiry)
    created = models.DateTimeField(default=timezone.now)
    # Community figures (other tables' statistics and clock transcriptions) flow both ways or
    # not at all: a group that opts out neither contributes to them nor sees them.
    share_with_community = models.BooleanField(_("share with other tables"), default=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def invite_open(self) -> bool:
        return self.invite_expires > timezone.now()

    def current_campaign(self) -> Campaign:
        """The campaign being played: the newest. Every group has one from its creation on
        (``services.create_group``; an imported history brings its own in the same
        transaction), so a group without one is a bug: Campaign.DoesNotExist."""
        return self.campaigns.latest("id")


# The choices of fields that a CheckConstraint also guards are defined at module level: a
# model's Meta cannot see names defined in the model's own body.


class MembershipRole(models.TextChoices):
    OWNER = "owner", _("owner")
    MEMBER = "member", _("member")
    VIEWER = "viewer", _("viewer")


class Membership(models.Model):
    Role = MembershipRole
    # Who may write to a group (record, transcribe, ask hints for it): the one home of the
    # rule, read by ``can_write`` and by the queries that filter on roles.
    WRITERS = (MembershipRole.OWNER, MembershipRole.MEMBER)

    group = models.ForeignKey(Group, models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="membership_one_per_user"),
            models.CheckConstraint(
                condition=Q(role__in=MembershipRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} (user {self.user_id}, group {self.group_id})"

    @property
    def can_write(self) -> bool:
        return self.role in self.WRITERS

    @property
    def is_owner(self) -> bool:
        return self.role == self.Role.OWNER


class Player(models.Model):
    """Someone at the table; an account is optional."""

    group = models.ForeignKey(Group, models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], name="player_name_unique_in_group")
        ]

    def __str__(self) -> str:
        return self.name


class CampaignKind(models.TextChoices):
    NORMAL = "normal", _("normal")
    REBIRTH = "rebirth", _("Rebirth")


class Campaign(models.Model):
    """One play-through of the clocks. ``bonus_tokens`` is the number flipped face up now;
    ``stack_top`` the clocks put back on top of the stack from the Sleeve, first played first."""

    Kind = CampaignKind

    group = models.ForeignKey(Group, models.CASCADE, related_name="campaigns")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.NORMAL)
    bonus_tokens = models.PositiveSmallIntegerField(default=0)
    stack_top = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(default=timezone.now)
    completed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(bonus_tokens__gte=0) & Q(bonus_tokens__lte=BONUS_TOKENS),
                name="campaign_bonus_tokens_0_to_3",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=CampaignKind.values), name="campaign_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.group} #{self.pk}"


class ProgressStatus(models.TextChoices):
    UPCOMING = "upcoming", _("upcoming")
    PASSED = "passed", _("passed")
    SLEEVE = "sleeve", _("in the Sleeve of Regrets")


class ClockProgress(models.Model):
    """Where one clock stands in one campaign; created for every clock with the campaign."""

    Status = ProgressStatus

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="progress")
    clock_id = models.CharField(max_length=8)
    # Play order of the stack (0 = 1-1 … 39 = 10-4, 40 = rebirth in a Rebirth campaign).
    position = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.UPCOMING)
    attempts = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "clock_id"], name="progress_one_per_clock"),
            models.UniqueConstraint(
                fields=["campaign", "position"], name="progress_one_per_position"
            ),
            models.CheckConstraint(
                condition=Q(failures__lte=F("attempts")), name="progress_failures_le_attempts"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ProgressStatus.values),
                name="progress_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.clock_id}: {self.get_status_display()}"

    @property
    def attempted(self) -> bool:
        return self.attempts > 0 or self.status == self.Status.PASSED

    @property
    def retrying(self) -> bool:
        return self.status == self.Status.UPCOMING and self.failures > 0


class Session(models.Model):
    """A game night: the date and who was at the table."""

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="sessions")
    date = models.DateField(_("date"), default=timezone.localdate)
    players = models.ManyToManyField(Player, blank=True, related_name="sessions")
    notes = models.TextField(_("notes"), blank=True, max_length=NOTES_LENGTH)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [
            # The dashboard and the group page look up each campaign's latest session.
            models.Index(fields=["campaign", "-date", "-id"], name="session_latest_idx")
        ]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d}"


class Event(models.Model):
    """One change of a campaign's state. ``before`` holds what the change overwrote, so
    ``services.undo`` can put it back (an undo's own ``before`` holds what it overwrote, so
    ``redo`` can put that back); ``request_key`` makes a resubmitted form harmless."""

    class Kind(models.TextChoices):
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped")
        RETRIEVED = "retrieved", _("put back on the stack")
        # An undo is a change too: it gives the campaign a new version (its last event id),
        # which tells the other phones at the table to refresh their board.
        UNDONE = "undone", _("undo")
        # A redo puts back the change an undo reverted (its ``before`` names the undo).
        REDONE = "redone", _("redo")

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # One clock, or every clock put back by one retrieval, comma-separated: the whole Sleeve
    # of a Rebirth campaign ("1-1,1-2,…,10-4,rebirth") is 171 characters.
    clock_id = models.CharField(max_length=200)
    before: models.JSONField[Any] = models.JSONField(default=dict)
    request_key = models.CharField(max_length=64, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    undone = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="event_request_key_once",
            )
        ]
        indexes = [
            # services.undo: the campaign's last event not undone yet.
            models.Index(fields=["campaign", "undone", "-id"], name="event_last_idx")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.clock_id} (#{self.pk})"


class AttemptOutcome(models.TextChoices):
    PASSED = "passed", _("passed")
    FAILED = "failed", _("failed")


class Attempt(models.Model):
    """One attempt at a clock. ``face_up`` = ``players`` + ``bonus_tokens`` (flipped before)."""

    Outcome = AttemptOutcome

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="attempts")
    session = models.ForeignKey(Session, models.CASCADE, related_name="attempts")
    event = models.OneToOneField(Event, models.CASCADE, related_name="attempt")
    clock_id = models.CharField(max_length=8)
    players = models.PositiveSmallIntegerField()
    bonus_tokens = models.PositiveSmallIntegerField()
    face_up = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=6, choices=Outcome.choices)
    layout = models.CharField(_("layout"), max_length=400, blank=True)
    verdict = models.JSONField(null=True, blank=True)
    opener = models.ForeignKey(
        Player, models.SET_NULL, null=True, blank=True, related_name="openings"
    )
    duration = models.DurationField(_("duration"), null=True, blank=True)
    notes = models.TextField(_("notes"), blank=True, max_length=NOTES_LENGTH)
    # The definition it was judged by: 0 = the shipped catalogue, n = the group's version n.
    clock_version = models.PositiveIntegerField(default=0)
    # Was it winnable? For a failed attempt with a layout: the object of
    # ``manage.py postmortem --json`` (campaigns.winnable), else null.
    postmortem = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=PLAYER_COUNTS[0]) & Q(players__lte=PLAYER_COUNTS[-1]),
                name="attempt_players_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(bonus_tokens__lte=BONUS_TOKENS), name="attempt_bonus_tokens_le_3"
            ),
            models.CheckConstraint(
                condition=Q(face_up=F("players") + F("bonus_tokens")),
                name="attempt_face_up_is_players_plus_tokens",
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=AttemptOutcome.values), name="attempt_outcome_valid"
            ),
        ]
        indexes = [
            # Clock page and statistics: a campaign's attempts at one clock.
            models.Index(fields=["campaign", "clock_id"], name="attempt_clock_idx")
        ]

    def __str__(self) -> str:
        return f"{self.clock_id}: {self.get_outcome_display()} (#{self.pk})"

    @property
    def minutes(self) -> int | None:
        """The duration in whole minutes, as the table typed it (pages and exports)."""
        return whole_minutes(self.duration)


class ClockTranscription(models.Model):
    """A group's transcription of a clock from its own box. Never edited: a new version is
    a new row, so each attempt keeps the version it was judged by.

    ``fingerprint`` names its canonical definition (``rules.canonical``); ``latest`` marks
    the group's newest version, the only one that counts for the other tables; ``adopted``
    a version taken from another table's definition, which never counts as typed."""

    group = models.ForeignKey(Group, models.CASCADE, related_name="transcriptions")
    clock_id = models.CharField(max_length=8)
    version = models.PositiveIntegerField()
    definition = models.JSONField()
    fingerprint = models.CharField(max_length=16, blank=True, default="")
    latest = models.BooleanField(default=False)
    adopted = models.BooleanField(default=False)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["clock_id", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "clock_id", "version"], name="transcription_version_once"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="transcription_version_ge_1"),
            models.UniqueConstraint(
                fields=["group", "clock_id"],
                condition=Q(latest=True),
                name="transcription_one_latest",
            ),
        ]
        indexes = [
            # campaigns.definitions.community.shared_definitions: the groups behind each distinct
            # definition of one clock, counting every group's latest version once. Adopted
            # and group ride along so the count is read from the index alone.
            models.Index(
                fields=["clock_id", "fingerprint", "adopted", "group"],
                condition=Q(latest=True),
                name="transcription_community_idx",
            ),
            # The per-user limit on new versions (typed or adopted) in the last hour.
            models.Index(fields=["author", "created"], name="transcription_author_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.clock_id} version {self.version} (group {self.group_id})"


class CommunityDefinition(models.Model):
    """One distinct canonical definition of a clock that some table transcribed, shared with
    the tables that reached that clock. Staff may ``hide`` it (it is then offered to nobody)
    or ``promote`` it: the site-wide default for its clock, used like a shipped definition
    by every group that has none of its own (the shipped files stay as they are)."""

    clock_id = models.CharField(max_length=8)
    fingerprint = models.CharField(max_length=16)
    definition = models.JSONField()
    hidden = models.BooleanField(_("hidden"), default=False)
    promoted = models.BooleanField(_("site-wide default"), default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["clock_id", "fingerprint"]
        constraints = [
            models.UniqueConstraint(
                fields=["clock_id", "fingerprint"], name="community_definition_once"
            ),
            models.UniqueConstraint(
                fields=["clock_id"],
                condition=Q(promoted=True),
                name="community_definition_one_promoted",
            ),
            models.CheckConstraint(
                condition=~(Q(hidden=True) & Q(promoted=True)),
                name="community_definition_hidden_not_promoted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.clock_id} {self.fingerprint}"


class DefinitionReport(models.Model):
    """A member telling the staff that a shared definition looks wrong, and why."""

    definition = models.ForeignKey(CommunityDefinition, models.CASCADE, related_name="reports")
    group = models.ForeignKey(Group, models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    reason = models.TextField(_("reason"), max_length=500)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["definition", "user"], name="report_once_per_user")
        ]

    def __str__(self) -> str:
        return f"report on definition {self.definition_id} (#{self.pk})"


class CommunityClock(models.Model):
    """Other tables' attempts to pass one clock, as the last community refresh counted them
    (``campaigns.statistics.community.refresh_community``, a periodic task). Statistics read these
    rows instead of scanning every group's history per request."""

    clock_id = models.CharField(max_length=8, unique=True)
    groups = models.PositiveIntegerField()  # distinct sharing groups that passed the clock
    # {attempts to pass: campaigns that took that many}, over every sharing group.
    histogram: models.JSONField[Any] = models.JSONField(default=dict)
    refreshed = models.DateTimeField()

    def __str__(self) -> str:
        return self.clock_id


class CommunityShare(models.Model):
    """One group's part of a ``CommunityClock`` histogram at the same refresh, so the figures
    a group sees leave out its own campaigns."""

    group = models.ForeignKey(Group, models.CASCADE, related_name="+")
    clock_id = models.CharField(max_length=8)
    histogram: models.JSONField[Any] = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["group", "clock_id"], name="community_share_one_per_clock"
            )
        ]

    def __str__(self) -> str:
        return f"{self.clock_id} (group {self.group_id})"


class ImportStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("importing")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class HistoryImport(models.Model):
    """A long history being imported by the worker (``campaigns.history.import_jobs``): a
    history with more events than a web request should replay is checked, stored here and
    replayed by a Celery task, which reports how far it got. ``group`` is the hidden group
    being filled in (no members until the last event is in); a rerun after a killed worker
    deletes it and starts again. The history itself is dropped once the import has ended."""

    Status = ImportStatus

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="history_imports"
    )
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default="queued")
    history = models.JSONField(null=True, blank=True)
    events_total = models.PositiveIntegerField(default=0)
    events_done = models.PositiveIntegerField(default=0)
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.SET_NULL)
    error = models.TextField(blank=True)
    language = models.CharField(max_length=10, default="en")  # refusals are worded in it
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ImportStatus.values), name="history_import_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def ended(self) -> bool:
        return self.status in (ImportStatus.DONE, ImportStatus.FAILED)

    @property
    def percent(self) -> int:
        return 100 if self.ended else int(100 * self.events_done / max(self.events_total, 1))


class DescribedRuleKind(models.Model):
    """Staff's word that a rule tables typed in their own words (kind ``described``) is now
    expressible as a kind Timekeeper checks. Groups using those words are offered ``rule`` in
    their editor (``campaigns.definitions.described``); nothing is changed without them."""

    text = models.CharField(
        _("words"),
        max_length=200,
        unique=True,
        help_text=_("The rule's words, normalised (as the staff list shows them)."),
    )
    rule = models.JSONField(
        _("now expressible as"),
        help_text=_('A rule of a kind Timekeeper checks, e.g. {"kind": "max_cards", …}.'),
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["text"]
        verbose_name = _("described rule now expressible")
        verbose_name_plural = _("described rules now expressible")

    def __str__(self) -> str:
        return self.text

    def clean(self) -> None:
        self.text = normalise_text(self.text or "")
        if not self.text:
            raise ValidationError({"text": _("Give the rule's words.")})
        try:
            rule = rule_from_json(self.rule)
        except RulesError as error:
            raise ValidationError({"rule": error.message}) from None
        if not rule.judged:
            raise ValidationError({"rule": _("Choose a kind Timekeeper checks.")})
        self.rule = rule.to_json()
