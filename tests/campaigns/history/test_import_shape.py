"""The shape of an imported history is checked in plain Python (``imports.check_history``):
each fault is refused with where it is and why, in the reader's language, and no value of a
wrong type (a number where a date belongs, a list where a name does) gets past it or
turns into a 500. The API answers 400 with the reason, the page a form error."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from rest_framework.test import APIClient

from campaigns.errors import CampaignError
from campaigns.history import imports
from tests.campaigns.history.small_history import small_history

HISTORY = small_history()
AT = "campaigns[0].history[0]"


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """The history with the value at ``path`` replaced (``...`` as value: removed)."""
    history = copy.deepcopy(HISTORY)
    place: Any = history
    for step in path[:-1]:
        place = place[step]
    if value is ...:
        del place[path[-1]]
    else:
        place[path[-1]] = value
    return history


def _refusal(history: dict[str, Any]) -> str:
    with pytest.raises(CampaignError) as refused:
        imports.check_history(history)
    assert refused.value.field == "history"
    return refused.value.message


EV = ("campaigns", 0, "history", 0)
SESSION = ("campaigns", 0, "sessions", 0)


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (("name",), ..., "name: This field is required."),
        (("name",), "   ", "name: This field is required."),
        (("name",), ["a"], "name: Not a valid string."),
        (("players",), [f"P{n}" for n in range(13)], "players: Ensure this field has no more"),
        (("players",), "Ann", 'players: Expected a list of items but got type "str".'),
        (("players", 1), {"x": 1}, "players[1]: Not a valid string."),
        (("campaigns",), [], "campaigns: Ensure this field has at least 1 elements."),
        (("campaigns", 0), 7, "campaigns[0]: Invalid data. Expected a dictionary, but got int."),
        (("campaigns", 0, "kind"), "legendary", "campaigns[0].kind: Select a valid choice."),
        (("campaigns", 0, "kind"), 1, "campaigns[0].kind: Not a valid string."),
        ((*SESSION, "date"), 20261130, "sessions[0].date: Enter a valid date."),
        ((*SESSION, "date"), "30 Nov", "sessions[0].date: Enter a valid date."),
        ((*SESSION, "notes"), None, "sessions[0].notes: This field may not be null."),
        ((*SESSION, "notes"), "x" * 2001, "sessions[0].notes: Ensure this value has at most 2000"),
        ((*EV, "event"), "won", f"{AT}.event: Select a valid choice."),
        ((*EV, "at"), 5, f"{AT}.at: Enter a valid date/time."),
        ((*EV, "at"), "yesterday", f"{AT}.at: Enter a valid date/time."),
        ((*EV, "clock"), {}, f"{AT}.clock: Not a valid string."),
        ((*EV, "players"), ..., f"{AT}.players: This field is required."),
        ((*EV, "session"), ..., f"{AT}.session: This field is required."),
        ((*EV, "players"), 5, f"{AT}.players: Ensure this value is less than or equal to 4."),
        ((*EV, "players"), True, f"{AT}.players: Enter a whole number."),
        ((*EV, "duration_min"), 1e300, f"{AT}.duration_min: Enter a whole number."),
        ((*EV, "duration_min"), 1e12, f"{AT}.duration_min: Ensure this value is less than"),
        ((*EV, "duration_min"), -1, f"{AT}.duration_min: Ensure this value is greater than"),
        ((*EV, "duration_min"), [12], f"{AT}.duration_min: Enter a whole number."),
        ((*EV, "notes"), "x" * 2001, f"{AT}.notes: Ensure this value has at most 2000"),
        (("transcriptions",), [{"clock": "1-2", "definition": []}], "transcriptions[0].definition"),
    ],
)
def test_a_fault_is_refused_with_where_and_why(
    path: tuple[Any, ...], value: Any, reason: str
) -> None:
    assert reason in _refusal(_with(path, value))


def test_a_valid_history_keeps_its_values_and_drops_unknown_keys() -> None:
    history = _with((*EV, "at"), "2026-11-30T20:00:00+00:00")
    history["campaigns"][0]["history"][0]["extra"] = "ignored"
    checked = imports.check_history(history)
    event = checked["campaigns"][0]["history"][0]
    assert set(checked) == {"name", "players", "transcriptions", "campaigns"}
    assert "extra" not in event
    assert event["at"].isoformat() == "2026-11-30T20:00:00+00:00"
    assert event["opener"] is None and event["duration_min"] == 12
    assert str(checked["campaigns"][0]["sessions"][0]["date"]) == "2026-11-30"


def test_an_optional_key_left_out_stays_out() -> None:
    """The replay tells an event's recorded time by the key's presence (``"at" in item``)."""
    checked = imports.check_history(_with((*EV, "duration_min"), ...))
    event = checked["campaigns"][0]["history"][0]
    assert "at" not in event and "duration_min" not in event


@pytest.mark.parametrize(
    ("lang", "words"),
    [("nl", "Verwacht werd een lijst"), ("ja", "リストが必要ですが")],
)
def test_the_reason_is_in_the_readers_language(lang: str, words: str) -> None:
    with translation.override(lang):
        assert words in _refusal(_with(("players",), "Ann"))


@pytest.mark.django_db
def test_the_api_answers_400_with_the_reason(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post(
        "/api/groups/import/", _with((*SESSION, "date"), 20261130), format="json"
    )
    assert response.status_code == 400
    assert response.json()["history"] == ["campaigns[0].sessions[0].date: Enter a valid date."]
