"""A group's history back in: ``check_history`` checks an exported history's shape and limits
before anything is written, and ``write_history`` replays it through the state machine in
short transactions, so an imported group is as consistent as one recorded at the table.
``import_history`` does both. A long history is replayed by the worker instead
(``campaigns.history.import_jobs``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from time import monotonic, sleep
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils.translation import gettext as _
from rest_framework import serializers

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError, error_text
from campaigns.groups.services import create_group, restore_campaign
from campaigns.history.exports import FORMAT, READABLE_VERSIONS
from campaigns.history.sections import Restored, sections
from campaigns.models import (
    MAX_PLAYERS_LISTED,
    NAME_LENGTH,
    NOTES_LENGTH,
    Attempt,
    Campaign,
    Event,
    Group,
    Membership,
    Session,
)
from campaigns.play.services import record_attempt, retrieve, skip
from campaigns.play.state import campaign_state
from rules.errors import RulesError


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise CampaignError(message, "history")


# What a history may hold: the limits of the API and the pages, so an import cannot bring in
# what the table could not have recorded (13 players, a 5,000-character note, a duration of
# 1e300 minutes), and bounds on its size that no real group's years of play come near.
MAX_CAMPAIGNS = 100
MAX_SESSIONS = 5_000  # per campaign
MAX_EVENTS = 20_000  # per campaign
MAX_TRANSCRIPTIONS = 1_000
# An import records its events in short transactions, so that the other writers (a table
# recording tonight's attempt, a worker saving a hint) are never kept waiting long: SQLite
# has one write lock for the whole database. A batch ends after IMPORT_BATCH events or
# BATCH_SECONDS, whichever comes first; then, on SQLite, the import pauses BATCH_PAUSE,
# longer than SQLite's busy handler ever sleeps between two tries (100 ms), so that every
# writer waiting for the lock gets it before the next batch takes it again. (No pause inside
# one transaction, as an import in the request is: it would hold the lock while it sleeps.)
IMPORT_BATCH = 100
BATCH_SECONDS = 0.5
BATCH_PAUSE = 0.12


class _EventIn(serializers.Serializer):
    event = serializers.ChoiceField(choices=Event.Kind.choices)
    at = serializers.DateTimeField(required=False)  # when it was recorded (version 2 on)
    clock = serializers.CharField(max_length=500)  # a retrieval names its clocks, comma-separated
    players = serializers.IntegerField(min_value=2, max_value=4, required=False)
    session = serializers.IntegerField(min_value=0, max_value=MAX_SESSIONS, required=False)
    layout = serializers.CharField(
        max_length=400, required=False, allow_blank=True, allow_null=True, trim_whitespace=False
    )
    opener = serializers.CharField(
        max_length=NAME_LENGTH, required=False, allow_blank=True, allow_null=True
    )
    duration_min = serializers.IntegerField(
        min_value=0, max_value=24 * 60, required=False, allow_null=True
    )
    notes = serializers.CharField(
        max_length=NOTES_LENGTH, required=False, allow_blank=True, allow_null=True
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["event"] in (Event.Kind.PASSED, Event.Kind.FAILED):
            for key in ("players", "session"):
                if key not in data:
                    raise serializers.ValidationError({key: [_("This field is required.")]})
        return data


class _SessionIn(serializers.Serializer):
    date = serializers.DateField()
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH),
        max_length=MAX_PLAYERS_LISTED,
        required=False,
    )
    notes = serializers.CharField(max_length=NOTES_LENGTH, required=False, allow_blank=True)


class _CampaignIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Campaign.Kind.choices)
    passed_at_start = serializers.ListField(
        child=serializers.CharField(max_length=20), max_length=41, required=False
    )
    sessions = serializers.ListField(child=_SessionIn(), max_length=MAX_SESSIONS)
    history = serializers.ListField(child=_EventIn(), max_length=MAX_EVENTS)


class _TranscriptionIn(serializers.Serializer):
    clock = serializers.CharField(max_length=20)
    version = serializers.IntegerField(min_value=1, required=False)
    definition = serializers.DictField()


class HistoryIn(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LENGTH)
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH),
        max_length=MAX_PLAYERS_LISTED,
        required=False,
    )
    transcriptions = serializers.ListField(
        child=_TranscriptionIn(), max_length=MAX_TRANSCRIPTIONS, required=False
    )
    campaigns = serializers.ListField(child=_CampaignIn(), min_length=1, max_length=MAX_CAMPAIGNS)


def _first_error(errors: Any, path: str = "") -> str:
    """The first reason in a serializer's (nested) errors, with where it is:
    ``campaigns[0].history[3].duration_min: Ensure this value is …``."""
    if isinstance(errors, dict):
        key, value = next(iter(errors.items()))
        if key == "non_field_errors":
            return _first_error(value, path)
        step = f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
        return _first_error(value, path + step)
    if isinstance(errors, list):
        for item in errors:
            if item:
                return _first_error(item, path)
    return f"{path}: {errors}" if path else str(errors)


def check_history(data: Any) -> dict[str, Any]:
    """The history's shape and limits, checked before anything is written: the validated
    history, or CampaignError (field ``history``) saying what is wrong."""
    _require(
        isinstance(data, dict) and data.get("format") == FORMAT,
        _("This is not a Timekeeper history."),
    )
    _require(data.get("version") in READABLE_VERSIONS, _("This history has an unknown version."))
    shape = HistoryIn(data=data)
    if not shape.is_valid():
        raise CampaignError(_first_error(shape.errors), "history")
    history = dict(shape.validated_data)
    # The other apps' sections (the solver's hints), checked against the history's own rows.
    for section in sections():
        if data.get(section.name) is not None:
            history[section.name] = section.check(data[section.name], history)
    return history


def count_events(history: dict[str, Any]) -> int:
    """How many attempts, skips and retrievals a checked history replays."""
    return sum(len(raw["history"]) for raw in history["campaigns"])


def import_history(
    user: User,
    data: Any,
    *,
    on_group: Callable[[Group], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_done: Callable[[Group], None] | None = None,
) -> Group:
    """A new group owned by ``user`` from an exported history; CampaignError (field
    ``history``) for anything that is not a valid history, or that breaks a limit."""
    return write_history(
        user, check_history(data), on_group=on_group, on_progress=on_progress, on_done=on_done
    )


def copy_name(user: User, name: str) -> str:
    """The name of an imported group: the history's own, or "Name (2)", "Name (3)"… when the
    person already has a group of that name (importing the same file twice makes a copy the
    table can tell apart, and delete, rather than two groups nobody can tell apart)."""
    name = name.strip()
    taken = {
        n.casefold()
        for n in Group.objects.filter(memberships__user=user).values_list("name", flat=True)
    }
    if name.casefold() not in taken:
        return name
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name[: NAME_LENGTH - len(suffix)] + suffix
        if candidate.casefold() not in taken:
            return candidate
        number += 1


def write_history(
    user: User,
    history: dict[str, Any],
    *,
    on_group: Callable[[Group], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    on_done: Callable[[Group], None] | None = None,
) -> Group:
    """The group of a history ``check_history`` accepted.

    The history is replayed through the state machine in batches of IMPORT_BATCH events,
    each its own transaction, so a long history never holds the database's write lock for
    long. The group has no member until its whole history is in: nobody sees it half
    imported, and if any event is refused the group is deleted again (all or nothing).
    ``on_group(group)`` hears of the hidden group as soon as it exists, and
    ``on_progress(events_done)`` after each batch (``campaigns.history.import_jobs`` keeps both),
    and ``on_done(group)`` in the very transaction that shows the group to its owner: an
    import is marked finished exactly when its group is, whatever stops the process after."""
    group: Group | None = None
    try:
        with transaction.atomic():
            group = create_group(
                user,
                copy_name(user, history["name"]),
                history.get("players", []),
                first_campaign=False,
            )
            # Hidden until the last batch is in: the owner joins at the very end.
            group.memberships.all().delete()
            for item in history.get("transcriptions", []):
                transcribe(group, item["clock"], item["definition"], user)
        if on_group is not None:
            on_group(group)
        players = {p.name: p for p in group.players.all()}
        previous: Campaign | None = None
        progress = _Progress(on_progress)
        restored = Restored()
        for raw in history["campaigns"]:
            previous = _import_campaign(group, user, raw, players, previous, progress, restored)
        with transaction.atomic():
            # The other apps' sections, with the owner: a group is never shown without them.
            for section in sections():
                if section.name in history:
                    section.write(group, user, history[section.name], restored)
            Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
            if on_done is not None:
                on_done(group)
    except Exception as error:
        if group is not None:
            Group.objects.filter(pk=group.pk).delete()
        if isinstance(error, CampaignError):  # the event's refusal, said of the history
            raise CampaignError(error.message, "history") from None
        if isinstance(error, RulesError):  # a transcription the rules engine refuses: say why
            raise CampaignError(error_text(error), "history") from None
        if isinstance(error, (KeyError, TypeError, ValueError, AttributeError, IndexError)):
            raise CampaignError(_("The history is incomplete or malformed."), "history") from None
        raise
    return group


class _Progress:
    """Counts the events written so far, across campaigns, and reports after each batch."""

    def __init__(self, report: Callable[[int], None] | None) -> None:
        self.report = report
        self.done = 0

    def add(self, count: int) -> None:
        self.done += count
        if self.report is not None:
            self.report(self.done)


def _import_campaign(
    group: Group,
    user: User,
    raw: dict[str, Any],
    players: dict[str, Any],
    previous: Campaign | None,
    progress: _Progress,
    restored: Restored,
) -> Campaign:
    if raw["kind"] == Campaign.Kind.REBIRTH:
        _require(
            previous is not None
            and (
                previous.kind == Campaign.Kind.REBIRTH or campaign_state(previous).rebirth_unlocked
            ),
            _("A Rebirth campaign follows a campaign that unlocked Rebirth."),
        )
    passed = raw.get("passed_at_start", [])
    with transaction.atomic():
        campaign = restore_campaign(group, raw["kind"], passed)
        sessions = []
        for item in raw["sessions"]:
            session = Session.objects.create(
                campaign=campaign, date=item["date"], notes=item.get("notes", "")
            )
            session.players.set(players[name] for name in item.get("players", []))
            sessions.append(session)
    position = len(restored.campaigns)
    restored.campaigns.append(campaign)
    events = raw["history"]
    done = 0
    while done < len(events):
        if done and connection.vendor == "sqlite" and not connection.in_atomic_block:
            sleep(BATCH_PAUSE)
        ends = monotonic() + BATCH_SECONDS
        started = done
        with transaction.atomic():
            for item in events[done : done + IMPORT_BATCH]:
                attempt = _import_event(campaign, user, item, players, sessions)
                if attempt is not None:
                    restored.attempts[position, done] = attempt
                done += 1
                if monotonic() > ends:
                    break
        progress.add(done - started)
    return campaign


def _import_event(
    campaign: Campaign,
    user: User,
    item: dict[str, Any],
    players: dict[str, Any],
    sessions: list[Session],
) -> Attempt | None:
    """Replay one event; the attempt it recorded, if it is one."""
    kind = item["event"]
    attempt = None
    if kind in (Event.Kind.PASSED, Event.Kind.FAILED):
        minutes = item.get("duration_min")
        attempt = record_attempt(
            campaign,
            user,
            item["clock"],
            kind,
            item["players"],
            layout=item.get("layout") or "",
            opener=players[item["opener"]] if item.get("opener") else None,
            duration=None if minutes is None else timedelta(minutes=minutes),
            notes=item.get("notes") or "",
            session=sessions[item["session"]],
        )
        event_id = attempt.event_id
        if "at" in item:
            Attempt.objects.filter(pk=attempt.pk).update(created=item["at"])
    elif kind == Event.Kind.SKIPPED:
        event_id = skip(campaign, user, item["clock"]).pk
    else:
        event_id = retrieve(campaign, user, item["clock"].split(",")).pk
    # The time it was recorded at the table, not the time of the import.
    if "at" in item:
        Event.objects.filter(pk=event_id).update(created=item["at"])
    return attempt
