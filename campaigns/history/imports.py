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
from typing import Any, NamedTuple

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext as _

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError
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
from config.errors import refusal_text
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


# The shape of a history, checked with plain Python and Django's form fields (whose messages
# come translated), key by key in the order written here: the first fault is the refusal,
# said with where it is (``campaigns[0].history[3].duration_min: Ensure this value is …``).
# Keys a shape does not name are dropped; an optional key left out stays out.


class _Fault(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


Check = Callable[[Any, str], Any]  # (value, where it is) → the value cleaned, or _Fault


def _field(field: forms.Field, *, strings_only: bool = False) -> Check:
    """One of Django's form fields as a check. Dates, times and choices take strings only
    (a form field would read a number's attributes); text and numbers take either, as JSON
    has them. A list or an object where one value belongs is refused with the field's own
    word for a bad value (for text, "Not a valid string.")."""
    wrong = field.error_messages.get("invalid") or _("Not a valid string.")

    def check(value: Any, path: str) -> Any:
        scalar = isinstance(value, str) or (
            not strings_only and isinstance(value, (int, float)) and not isinstance(value, bool)
        )
        if not scalar:
            raise _Fault(path, str(wrong))
        try:
            return field.clean(value if isinstance(value, str) else str(value))
        except ValidationError as error:
            raise _Fault(path, error.messages[0]) from None

    return check


def _text(max_length: int, *, blank: bool = False, strip: bool = True) -> Check:
    return _field(forms.CharField(max_length=max_length, required=not blank, strip=strip))


def _whole(low: int, high: int | None = None) -> Check:
    return _field(forms.IntegerField(min_value=low, max_value=high))


def _choice(choices: Any) -> Check:
    return _field(forms.ChoiceField(choices=choices), strings_only=True)


def _list(child: Check, max_length: int, min_length: int = 0) -> Check:
    def check(value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            kind = type(value).__name__
            raise _Fault(
                path, _('Expected a list of items but got type "%(type)s".') % {"type": kind}
            )
        if len(value) > max_length:
            message = _("Ensure this field has no more than %(count)d elements.")
            raise _Fault(path, message % {"count": max_length})
        if len(value) < min_length:
            message = _("Ensure this field has at least %(count)d elements.")
            raise _Fault(path, message % {"count": min_length})
        return [child(item, f"{path}[{index}]") for index, item in enumerate(value)]

    return check


def _mapping(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        kind = type(value).__name__
        raise _Fault(
            path, _("Invalid data. Expected a dictionary, but got %(type)s.") % {"type": kind}
        )
    return value


class _Key(NamedTuple):
    check: Check
    required: bool = True
    null: bool = False


def _record(
    keys: dict[str, _Key], *, needs: Callable[[dict[str, Any]], tuple[str, ...]] | None = None
) -> Check:
    """A JSON object of ``keys``; ``needs(cleaned)`` names the keys that its values make
    required (an attempt's players and session)."""

    def check(value: Any, path: str) -> dict[str, Any]:
        _mapping(value, path)
        cleaned: dict[str, Any] = {}
        for name, key in keys.items():
            where = f"{path}.{name}" if path else name
            if name not in value:
                if key.required:
                    raise _Fault(where, _("This field is required."))
            elif value[name] is None:
                if not key.null:
                    raise _Fault(where, _("This field may not be null."))
                cleaned[name] = None
            else:
                cleaned[name] = key.check(value[name], where)
        for name in needs(cleaned) if needs else ():
            if name not in cleaned:
                raise _Fault(f"{path}.{name}", _("This field is required."))
        return cleaned

    return check


def _attempt_needs(event: dict[str, Any]) -> tuple[str, ...]:
    return (
        ("players", "session") if event["event"] in (Event.Kind.PASSED, Event.Kind.FAILED) else ()
    )


_NAMES = _Key(_list(_text(NAME_LENGTH), MAX_PLAYERS_LISTED), required=False)
_EVENT = _record(
    {
        "event": _Key(_choice(Event.Kind.choices)),
        "at": _Key(
            _field(forms.DateTimeField(), strings_only=True), required=False
        ),  # version 2 on
        "clock": _Key(_text(500)),  # a retrieval names its clocks, comma-separated
        "players": _Key(_whole(2, 4), required=False),
        "session": _Key(_whole(0, MAX_SESSIONS), required=False),
        "layout": _Key(_text(400, blank=True, strip=False), required=False, null=True),
        "opener": _Key(_text(NAME_LENGTH, blank=True), required=False, null=True),
        "duration_min": _Key(_whole(0, 24 * 60), required=False, null=True),
        "notes": _Key(_text(NOTES_LENGTH, blank=True), required=False, null=True),
    },
    needs=_attempt_needs,
)
_SESSION = _record(
    {
        "date": _Key(_field(forms.DateField(), strings_only=True)),
        "players": _NAMES,
        "notes": _Key(_text(NOTES_LENGTH, blank=True), required=False),
    }
)
_CAMPAIGN = _record(
    {
        "kind": _Key(_choice(Campaign.Kind.choices)),
        "passed_at_start": _Key(_list(_text(20), 41), required=False),
        "sessions": _Key(_list(_SESSION, MAX_SESSIONS)),
        "history": _Key(_list(_EVENT, MAX_EVENTS)),
    }
)
_TRANSCRIPTION = _record(
    {
        "clock": _Key(_text(20)),
        "version": _Key(_whole(1), required=False),
        "definition": _Key(_mapping),
    }
)
HISTORY = _record(
    {
        "name": _Key(_text(NAME_LENGTH)),
        "players": _NAMES,
        "transcriptions": _Key(_list(_TRANSCRIPTION, MAX_TRANSCRIPTIONS), required=False),
        "campaigns": _Key(_list(_CAMPAIGN, MAX_CAMPAIGNS, min_length=1)),
    }
)


def check_history(data: Any) -> dict[str, Any]:
    """The history's shape and limits, checked before anything is written: the validated
    history, or CampaignError (field ``history``) saying what is wrong."""
    _require(
        isinstance(data, dict) and data.get("format") == FORMAT,
        _("This is not a Timekeeper history."),
    )
    _require(data.get("version") in READABLE_VERSIONS, _("This history has an unknown version."))
    try:
        history: dict[str, Any] = HISTORY(data, "")
    except _Fault as fault:
        raise CampaignError(str(fault), "history") from None
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
            raise CampaignError(refusal_text(error), "history") from None
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
