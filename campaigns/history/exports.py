"""A group's history out (JSON, CSV, BG Stats) and back in (JSON).

The JSON history is the group's own record, not a database dump: players by name, clocks by
id, each campaign's attempts and skips in order. ``import_history`` replays it through the
state machine, so an imported group is as consistent as one recorded at the table, and
``export_history(import_history(x)) == x`` for any exported ``x`` (tests check the round trip).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import time, timedelta
from time import monotonic, sleep
from typing import Any
from urllib.parse import quote

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import serializers

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError, error_text
from campaigns.groups.services import create_group, restore_campaign
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
    whole_minutes,
)
from campaigns.play.services import record_attempt, retrieve, skip
from campaigns.play.state import campaign_state
from config.spreadsheet import SafeWriter
from rules.errors import RulesError

FORMAT = "timekeeper-history"
VERSION = 1


def session_minutes(attempts: Iterable[Attempt]) -> int | None:
    """The attempts' recorded durations added up (None when none was recorded)."""
    durations = [a.duration for a in attempts if a.duration is not None]
    return whole_minutes(sum(durations, timedelta())) if durations else None


def export_history(group: Group) -> dict[str, Any]:
    """The group's whole history: players, transcriptions, campaigns with their sessions and
    events (attempts, skips, retrievals) in the order they happened. Undone events are gone."""
    campaigns = []
    for campaign in group.campaigns.order_by("id"):
        changes = campaign.events.exclude(kind=Event.Kind.UNDONE)
        played = {e.clock_id for e in changes}
        passed_at_start = [c for c in campaign_state(campaign).passed if c not in played]
        rows = list(campaign.sessions.order_by("date", "id").prefetch_related("players"))
        sessions = [
            {
                "date": session.date.isoformat(),
                "players": [p.name for p in session.players.all()],
                "notes": session.notes,
            }
            for session in rows
        ]
        session_index = {s.pk: i for i, s in enumerate(rows)}
        history = []
        events = changes.filter(undone__isnull=True).order_by("id")
        for event in events.select_related("attempt", "attempt__opener"):
            item: dict[str, Any] = {"event": event.kind, "clock": event.clock_id}
            if event.kind in (Event.Kind.PASSED, Event.Kind.FAILED):
                attempt = event.attempt
                item.update(
                    players=attempt.players,
                    session=session_index[attempt.session_id],
                    layout=attempt.layout,
                    opener=attempt.opener.name if attempt.opener else None,
                    duration_min=attempt.minutes,
                    notes=attempt.notes,
                )
            history.append(item)
        campaigns.append(
            {
                "kind": campaign.kind,
                "passed_at_start": passed_at_start,
                "sessions": sessions,
                "history": history,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": group.name,
        "players": [p.name for p in group.players.all()],
        "transcriptions": [
            {"clock": t.clock_id, "version": t.version, "definition": t.definition}
            for t in group.transcriptions.order_by("clock_id", "version")
        ],
        "campaigns": campaigns,
    }


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
# writer waiting for the lock gets it before the next batch takes it again.
IMPORT_BATCH = 100
BATCH_SECONDS = 0.5
BATCH_PAUSE = 0.12


class _EventIn(serializers.Serializer):
    event = serializers.ChoiceField(choices=Event.Kind.choices)
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
    _require(data.get("version") == VERSION, _("This history has an unknown version."))
    shape = HistoryIn(data=data)
    if not shape.is_valid():
        raise CampaignError(_first_error(shape.errors), "history")
    return dict(shape.validated_data)


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
        for raw in history["campaigns"]:
            previous = _import_campaign(group, user, raw, players, previous, progress)
        with transaction.atomic():
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
    events = raw["history"]
    done = 0
    while done < len(events):
        if done and connection.vendor == "sqlite":
            sleep(BATCH_PAUSE)
        ends = monotonic() + BATCH_SECONDS
        started = done
        with transaction.atomic():
            for item in events[done : done + IMPORT_BATCH]:
                _import_event(campaign, user, item, players, sessions)
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
) -> None:
    kind = item["event"]
    if kind in (Event.Kind.PASSED, Event.Kind.FAILED):
        minutes = item.get("duration_min")
        record_attempt(
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
    elif kind == Event.Kind.SKIPPED:
        skip(campaign, user, item["clock"])
    else:
        retrieve(campaign, user, item["clock"].split(","))


CSV_COLUMNS = [
    "campaign",
    "kind",
    "session_date",
    "clock",
    "outcome",
    "players",
    "bonus_tokens",
    "face_up",
    "opener",
    "duration_min",
    "layout",
    "clock_version",
    "notes",
    "recorded",
]


def attempts_csv(group: Group) -> str:
    """Every attempt of every campaign, one row each, oldest first."""
    writer = SafeWriter()
    writer.writerow(CSV_COLUMNS)
    attempts = (
        Attempt.objects.filter(campaign__group=group)
        .select_related("campaign", "session", "opener")
        .order_by("id")
    )
    for a in attempts:
        writer.writerow(
            [
                a.campaign_id,
                a.campaign.kind,
                a.session.date.isoformat(),
                a.clock_id,
                a.outcome,
                a.players,
                a.bonus_tokens,
                a.face_up,
                a.opener.name if a.opener else "",
                "" if a.minutes is None else a.minutes,
                a.layout,
                a.clock_version,
                a.notes,
                a.created.isoformat(),
            ]
        )
    return writer.getvalue()


def attempts_csv_download(group: Group) -> HttpResponse:
    """``attempts_csv`` as a file to save (the export page and ``GET …/export.csv``)."""
    response = HttpResponse(attempts_csv(group), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="timekeeper-{group.pk}.csv"'
    return response


# BG Stats' documented push-play link (bgstatsapp.com, "Push plays to BG Stats from other
# apps or websites"): the app opens this page and offers to save the play in the data.
BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


def bgstats_play(session: Session) -> dict[str, Any]:
    """One play in BG Stats' push-play JSON. Take Time is cooperative without points: no
    score, and every player is a winner when the table passed at least one clock that
    evening. The duration is the sum of the attempts' recorded durations or, when none was
    typed, the time from the evening's first recorded attempt to its last (left out when
    that says nothing: a single attempt). The start player is the opener of the evening's
    first attempt that names one. ``sourcePlayId`` is the session's, so pushing the same
    evening twice updates one play. Take Time's BoardGameGeek id is left out (``bggId`` is
    optional; BG Stats matches the game by name)."""
    attempts = list(session.attempts.select_related("opener").order_by("id"))
    won = any(a.outcome == Attempt.Outcome.PASSED for a in attempts)
    minutes = session_minutes(attempts)
    if minutes is None and len(attempts) > 1:
        span = attempts[-1].created - attempts[0].created
        minutes = max(1, round(span.total_seconds() / 60))
    starter = next((a.opener_id for a in attempts if a.opener_id), None)
    start = timezone.localtime(attempts[0].created).time() if attempts else time(20, 0)
    outcomes: dict[str, str] = {}
    for a in attempts:
        outcomes[a.clock_id] = outcomes.get(a.clock_id, "") + (
            "✓" if a.outcome == Attempt.Outcome.PASSED else "✗"
        )
    summary = " · ".join(f"{clock} {marks}" for clock, marks in outcomes.items())
    group = session.campaign.group
    play: dict[str, Any] = {
        "sourceName": "Timekeeper",
        "sourcePlayId": f"timekeeper-session-{session.pk}",
        "playDate": f"{session.date.isoformat()} {start.strftime('%H:%M:%S')}",
        "board": "",
        "location": group.name,
        "comments": "\n".join(part for part in (summary, session.notes) if part),
        "game": {
            "name": "Take Time",
            "sourceGameId": "take-time",
            "cooperative": True,
            "noPoints": True,
            "highestWins": True,
        },
        "players": [
            {
                "name": player.name,
                "sourcePlayerId": f"timekeeper-player-{player.pk}",
                "role": "",
                "rank": 1,
                "winner": won,
                "startPlayer": player.pk == starter,
            }
            for player in session.players.order_by("name")
        ],
    }
    if minutes is not None:
        play["durationMin"] = minutes
    return play


def bgstats_link(session: Session) -> str:
    """The push-play link that opens BG Stats with this session filled in."""
    data = json.dumps(bgstats_play(session), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_CREATE_PLAY + quote(data, safe="")
