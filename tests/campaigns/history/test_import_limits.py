"""An imported history obeys the limits of the API and the pages (12 players, notes of
2,000 characters, 40 rules a clock, durations of a day, no Rebirth never unlocked), is
refused whole with the reason, and leaves nothing behind when refused."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from campaigns.history import imports
from campaigns.models import Campaign, Group
from campaigns.play.services import record_attempt
from tests.campaigns.history.small_history import EVENT, small_history

pytestmark = pytest.mark.django_db


def _event(**changes: Any) -> dict[str, Any]:
    history = small_history()
    history["campaigns"][0]["history"][0].update(changes)
    return history


def _refused(client: APIClient, history: dict[str, Any]) -> str:
    groups = Group.objects.count()
    response = client.post("/api/groups/import/", history, format="json")
    assert response.status_code == 400, response.content
    assert Group.objects.count() == groups  # nothing half imported is left behind
    return " ".join(response.json()["history"])


def test_a_valid_history_is_imported(owner_api: APIClient) -> None:
    response = owner_api.post("/api/groups/import/", small_history(), format="json")
    assert response.status_code == 201
    group = Group.objects.get(pk=response.json()["id"])
    assert group.current_campaign().attempts.get().duration is not None


@pytest.mark.parametrize("minutes", [1e12, 1e300, 24 * 60 + 1, -1])
def test_a_duration_beyond_a_day_is_refused(owner_api: APIClient, minutes: float) -> None:
    assert "duration_min" in _refused(owner_api, _event(duration_min=minutes))


def test_more_than_12_players_are_refused(owner_api: APIClient) -> None:
    players = [f"Player {n}" for n in range(13)]
    assert "players" in _refused(owner_api, small_history(players=players))


def test_notes_beyond_2000_characters_are_refused(owner_api: APIClient) -> None:
    assert "notes" in _refused(owner_api, _event(notes="x" * 2001))


def test_a_session_note_beyond_2000_characters_is_refused(owner_api: APIClient) -> None:
    history = small_history()
    history["campaigns"][0]["sessions"][0]["notes"] = "x" * 2001
    assert "notes" in _refused(owner_api, history)


def test_a_transcription_of_more_than_40_rules_is_refused(owner_api: APIClient) -> None:
    rule = {"kind": "forbidden_values", "segment": 1, "values": [5]}
    definition = {"start": 1, "cap": 24, "rules": [rule] * 41}
    history = small_history(
        transcriptions=[{"clock": "1-2", "version": 1, "definition": definition}]
    )
    _refused(owner_api, history)


def test_a_rebirth_campaign_never_unlocked_is_refused(owner_api: APIClient) -> None:
    history = small_history()
    rebirth = copy.deepcopy(history["campaigns"][0])
    rebirth["kind"] = "rebirth"
    history["campaigns"].append(rebirth)
    assert "Rebirth" in _refused(owner_api, history)


def test_a_rebirth_campaign_alone_is_refused(owner_api: APIClient) -> None:
    history = small_history()
    history["campaigns"][0]["kind"] = "rebirth"
    assert "Rebirth" in _refused(owner_api, history)


def test_an_event_refused_in_a_later_batch_leaves_no_group(
    owner_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batches commit one by one; a refusal after the first deletes the whole group."""
    monkeypatch.setattr(imports, "IMPORT_BATCH", 1)
    history = small_history()
    history["campaigns"][0]["history"].append({**EVENT, "clock": "4-4"})  # not the next clock
    _refused(owner_api, history)


def test_the_group_has_no_member_until_its_history_is_in(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    members_seen: list[int] = []
    record = record_attempt

    def watching(campaign: Campaign, *args: Any, **kwargs: Any) -> Any:
        members_seen.append(campaign.group.memberships.count())
        return record(campaign, *args, **kwargs)

    monkeypatch.setattr(imports, "record_attempt", watching)
    group = imports.import_history(alice, small_history())
    assert members_seen == [0]
    assert group.memberships.get().user == alice


def test_the_page_upload_applies_the_same_limits(alice: User, login: Callable[[User], Any]) -> None:
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "history.json", json.dumps(_event(duration_min=1e300)).encode(), "application/json"
    )
    response = login(alice).post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)]
    assert "duration_min" in response.content.decode()
    assert not Group.objects.exists()
