"""Dates and times are written one way per language on every page: "12/07/2026" on Sessions
and Versions, "Dec. 14, 2026, 12:45 p.m." on Members and "at 13:01" in the two-phones
message once stood side by side in one English browser."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest
from django.test import Client
from django.utils import translation

from campaigns.definitions.services import transcribe
from campaigns.groups.services import fill_in_session
from campaigns.models import ClockTranscription, Event, Group
from campaigns.play.services import _stale_message

pytestmark = pytest.mark.django_db

# Tuesday 8 December 2026 (the session), Wednesday 9 December 2026, 15:00 UTC (the rest).
WRITTEN = {
    "en": ("8 Dec 2026", "9 Dec 2026, 15:00"),
    "nl": ("8 dec 2026", "9 dec 2026 15:00"),
    "ja": ("2026年12月8日", "2026年12月9日 15:00"),
}
WHEN = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)


def _page(client: Client, url: str, lang: str) -> str:
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_sessions_versions_and_members_write_dates_one_way(
    group: Group, as_role: Callable[[str], Client], lang: str
) -> None:
    day, moment = WRITTEN[lang]
    session = fill_in_session(group.current_campaign(), list(group.players.all()))
    session.date = date(2026, 12, 8)
    session.save(update_fields=["date"])
    group.invite_expires = WHEN
    group.save(update_fields=["invite_expires"])
    transcribe(group, "1-1", {"id": "1-1", "rules": []}, None)
    ClockTranscription.objects.filter(group=group).update(created=WHEN)
    owner = as_role("owner")
    assert day in _page(owner, f"/groups/{group.pk}/sessions/", lang)
    assert moment in _page(owner, f"/groups/{group.pk}/members/", lang)
    assert moment in _page(owner, f"/groups/{group.pk}/clocks/1-1/", lang)


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_two_phones_message_writes_the_time_as_the_pages_do(group: Group, lang: str) -> None:
    event = Event(
        kind=Event.Kind.FAILED, clock_id="1-1", created=datetime(2026, 12, 9, 13, 1, tzinfo=UTC)
    )
    with translation.override(lang):
        assert "13:01" in _stale_message(event)
