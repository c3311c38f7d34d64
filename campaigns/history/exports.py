"""A group's history out: JSON, CSV and BG Stats.

The JSON history is the group's own record, not a database dump: players by name, clocks by
id, each campaign's attempts and skips in order. ``imports.import_history`` replays it
through the state machine, and ``export_history(import_history(x)) == x`` for any exported
``x`` (tests check the round trip).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import time, timedelta
from typing import Any
from urllib.parse import quote

from django.utils import timezone

from campaigns.history.sections import Positions, sections
from campaigns.models import (
    Attempt,
    Event,
    Group,
    Session,
    whole_minutes,
)
from campaigns.play.state import campaign_state
from config.spreadsheet import SafeWriter

FORMAT = "timekeeper-history"
# 2: every event says when it was recorded ("at"), so an imported history keeps its evenings'
# times, durations and order in time; 1 (without) still imports.
# 3: the sections of other apps (``campaigns.history.sections``): the solver's "hints", each
# with its request, result and pass curve, and the attempt it was asked for by position.
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)


def session_minutes(attempts: Iterable[Attempt]) -> int | None:
    """The attempts' recorded durations added up (None when none was recorded)."""
    durations = [a.duration for a in attempts if a.duration is not None]
    return whole_minutes(sum(durations, timedelta())) if durations else None


def export_history(group: Group) -> dict[str, Any]:
    """The group's whole history: players, transcriptions, campaigns with their sessions and
    events (attempts, skips, retrievals) in the order they happened. Undone events are gone.
    Then each registered section (``campaigns.history.sections``: the solver's hints)."""
    campaigns: list[dict[str, Any]] = []
    positions = Positions()
    for campaign in group.campaigns.order_by("id"):
        positions.campaigns[campaign.pk] = len(campaigns)
        changes = campaign.events.exclude(kind__in=[Event.Kind.UNDONE, Event.Kind.REDONE])
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
        history: list[dict[str, Any]] = []
        events = changes.filter(undone__isnull=True).order_by("id")
        for event in events.select_related("attempt", "attempt__opener"):
            item: dict[str, Any] = {
                "event": event.kind,
                "clock": event.clock_id,
                "at": event.created.isoformat(),
            }
            if event.kind in (Event.Kind.PASSED, Event.Kind.FAILED):
                attempt = event.attempt
                positions.attempts[attempt.pk] = (len(campaigns), len(history))
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
    exported: dict[str, Any] = {
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
    for section in sections():
        exported[section.name] = section.export(group, positions)
    return exported


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


def attempts_csv_name(group: Group) -> str:
    """The file name the export page and ``GET …/export.csv`` save ``attempts_csv`` under."""
    return f"timekeeper-{group.pk}.csv"


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
