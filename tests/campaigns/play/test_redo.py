"""Redo after undo (campaigns.play.redo): the service, the group page, table mode and the API."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.errors import CampaignError
from campaigns.history.exports import export_history
from campaigns.models import Attempt, Campaign, Event, Group
from campaigns.play.redo import last_redoable, redo
from campaigns.play.services import StaleWrite, record_attempt, skip, undo
from campaigns.play.state import campaign_state, campaign_version
from solver import services as hint_services
from solver.hint_inputs import parse_input

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
PageUrl = Callable[..., str]
Tap = Callable[..., Any]
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"


def _undo_last(campaign: Campaign, user: User) -> Event:
    """Undo the last change; the undo's own event (what Redo names)."""
    undo(campaign, user)
    return campaign.events.order_by("-id")[0]


# --- the service --------------------------------------------------------------------------


def test_redo_puts_back_the_failure_and_its_attempt_whole(
    group: Group, campaign: Campaign, alice: User
) -> None:
    ann = group.players.get(name="Ann")
    attempt = record_attempt(
        campaign,
        alice,
        "1-1",
        "failed",
        3,
        layout=FAILING_1_1,
        opener=ann,
        duration=timedelta(minutes=7),
        notes="so close",
    )
    undone = _undo_last(campaign, alice)
    assert not Attempt.objects.exists()
    change = redo(campaign, alice, undone.pk)
    campaign.refresh_from_db()
    assert change.pk == attempt.event_id and change.undone is None
    assert campaign.bonus_tokens == 1 and campaign_state(campaign).by_id["1-1"].failures == 1
    back = Attempt.objects.get()
    assert (back.pk, back.outcome, back.layout, back.opener, back.notes) == (
        attempt.pk,
        "failed",
        FAILING_1_1,
        ann,
        "so close",
    )
    assert back.duration == timedelta(minutes=7) and back.session_id == attempt.session_id
    assert back.verdict == attempt.verdict and back.created == attempt.created
    assert campaign.events.order_by("-id")[0].kind == Event.Kind.REDONE


def test_redo_links_the_attempt_to_its_hint_again(
    group: Group, campaign: Campaign, alice: User, monkeypatch: Any
) -> None:
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    attempt = record_attempt(campaign, alice, "1-1", "failed", 3)
    hint, _created = hint_services.request_hint(
        alice, parse_input("1-1", "SSMM/MMSS/SMSM", None), group=group, attempt=attempt
    )
    redo(campaign, alice, _undo_last(campaign, alice).pk)
    hint.refresh_from_db()
    assert hint.attempt_id == attempt.pk


def test_undos_are_redone_the_last_undone_first(campaign: Campaign, alice: User) -> None:
    record_attempt(campaign, alice, "1-1", "passed", 3)
    record_attempt(campaign, alice, "1-2", "failed", 3)
    _undo_last(campaign, alice)
    first_undone = _undo_last(campaign, alice)  # the pass at 1-1
    redoable = last_redoable(campaign)
    assert redoable is not None and redoable.undo == first_undone
    redo(campaign, alice, first_undone.pk)
    state = campaign_state(campaign)
    assert state.passed == ["1-1"] and state.next_clock == "1-2" and state.bonus_tokens == 0
    redoable = last_redoable(campaign)
    assert redoable is not None and redoable.change.clock_id == "1-2"
    redo(campaign, alice, redoable.undo.pk)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1 and last_redoable(campaign) is None


def test_a_skip_is_redone_into_the_sleeve(campaign: Campaign, alice: User) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    skip(campaign, alice, "1-1")
    redo(campaign, alice, _undo_last(campaign, alice).pk)
    state = campaign_state(Campaign.objects.get(pk=campaign.pk))
    assert state.sleeve == ["1-1"] and state.next_clock == "1-2" and state.bonus_tokens == 0


def test_a_redone_change_can_be_undone_again(campaign: Campaign, alice: User) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    redo(campaign, alice, _undo_last(campaign, alice).pk)
    again = _undo_last(campaign, alice)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 0 and not Attempt.objects.exists()
    redo(campaign, alice, again.pk)
    assert Attempt.objects.count() == 1


def test_a_change_after_the_undo_forgets_the_redo(campaign: Campaign, alice: User) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    record_attempt(campaign, alice, "1-1", "passed", 3)
    assert last_redoable(campaign) is None
    with pytest.raises(StaleWrite) as refused:
        redo(campaign, alice, undone.pk)
    assert refused.value.status == 409 and "nothing left to redo" in refused.value.message
    campaign.refresh_from_db()
    assert campaign.attempts.get().outcome == "passed" and campaign.bonus_tokens == 0


def test_a_redo_from_a_stale_board_is_refused(campaign: Campaign, alice: User) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    with pytest.raises(StaleWrite):
        redo(campaign, alice, undone.pk, expected_event=undone.pk - 1)
    assert not Attempt.objects.exists() and last_redoable(campaign) is not None


def test_a_second_redo_is_harmless_on_the_pages_and_stale_for_the_api(
    campaign: Campaign, alice: User
) -> None:
    record_attempt(campaign, alice, "1-1", "passed", 3)
    record_attempt(campaign, alice, "1-2", "failed", 3)
    _undo_last(campaign, alice)
    undone = _undo_last(campaign, alice)
    change = redo(campaign, alice, undone.pk)
    version = campaign_version(campaign)
    assert redo(campaign, alice, undone.pk) == change  # a double tap: the 1-2 stays undone
    with pytest.raises(StaleWrite):
        redo(campaign, alice, undone.pk, again_is_stale=True)
    assert campaign_version(campaign) == version and campaign.attempts.count() == 1


def test_a_redo_naming_no_undo_is_refused(campaign: Campaign, alice: User) -> None:
    attempt = record_attempt(campaign, alice, "1-1", "failed", 3)
    with pytest.raises(CampaignError) as refused:
        redo(campaign, alice, attempt.event_id)
    assert refused.value.field == "event" and not isinstance(refused.value, StaleWrite)


# --- the pages ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tail", "lang", "label"),
    [
        ("", "en", "Redo “failed” (1\u20111)"),  # a non-breaking hyphen, as Undo's
        ("table/", "nl", "“mislukt” opnieuw doen (1\u20111)"),
        ("", "ja", "「失敗」をやり直す（1\u20111）"),
    ],
)
def test_redo_shows_beside_undo_while_there_is_something_to_redo(
    group_url: PageUrl,
    tap: Tap,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    tail: str,
    lang: str,
    label: str,
) -> None:
    client = as_role("member")
    client.cookies["django_language"] = lang
    tap(client, group, "failed")
    assert "/redo/" not in client.get(group_url(group, tail)).content.decode()
    event = campaign.events.get()
    client.post(group_url(group, "undo/"), {"event": event.pk})
    content = client.get(group_url(group, tail)).content.decode()
    assert label in content and f'name="event" value="{event.pk + 1}"' in content
    tap(client, group, "passed")
    assert "/redo/" not in client.get(group_url(group, tail)).content.decode()


def test_viewers_see_no_redo(
    group_url: PageUrl, group: Group, campaign: Campaign, alice: User, as_role: AsRole
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    _undo_last(campaign, alice)
    assert "/redo/" not in as_role("viewer").get(group_url(group)).content.decode()


@pytest.mark.parametrize("view", ["", "table"])
def test_redo_without_javascript_redirects_to_the_board(
    group_url: PageUrl, group: Group, campaign: Campaign, alice: User, as_role: AsRole, view: str
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    response = as_role("member").post(group_url(group, "redo/"), {"event": undone.pk, "view": view})
    assert response.status_code == 302 and response["Location"] == group_url(
        group, view and "table/"
    )
    assert campaign.attempts.count() == 1


def test_redo_with_htmx_swaps_the_board(
    group_url: PageUrl, group: Group, campaign: Campaign, alice: User, as_role: AsRole
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    response = as_role("member").post(
        group_url(group, "redo/"), {"event": undone.pk, "view": "table"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "timekeeper:recorded" in response["HX-Trigger"]
    content = response.content.decode()
    assert "Redone: failed at 1-1." in content and "/redo/" not in content
    assert campaign.attempts.count() == 1


@pytest.mark.parametrize("body", [{}, {"event": ""}])
def test_a_redo_that_names_no_undo_redoes_nothing(
    group_url: PageUrl, group: Group, campaign: Campaign, alice: User, as_role: AsRole, body: dict
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    _undo_last(campaign, alice)
    response = as_role("member").post(group_url(group, "redo/"), body)
    assert response.status_code == 409 and "nothing was redone" in response.content.decode()
    assert not campaign.attempts.exists()


def test_a_stale_redo_on_the_page_answers_409(
    group_url: PageUrl, group: Group, campaign: Campaign, alice: User, as_role: AsRole
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    record_attempt(campaign, alice, "1-1", "passed", 3)
    response = as_role("member").post(group_url(group, "redo/"), {"event": undone.pk})
    assert response.status_code == 409
    assert campaign.attempts.get().outcome == "passed"


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("outsider", 404)])
def test_viewers_and_outsiders_cannot_redo(
    group_url: PageUrl,
    group: Group,
    campaign: Campaign,
    alice: User,
    as_role: AsRole,
    role: str,
    status: int,
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    undone = _undo_last(campaign, alice)
    for path in (group_url(group, "redo/"), f"/api/groups/{group.pk}/redo/"):
        assert as_role(role).post(path, {"event": undone.pk}).status_code == status
    assert not campaign.attempts.exists()


def test_redo_answers_405_to_get(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    assert client.get(group_url(group, "redo/")).status_code == 405
    assert client.get(f"/api/groups/{group.pk}/redo/").status_code == 405


# --- the API ------------------------------------------------------------------------------


def test_the_api_redoes_the_undo_it_names(
    group: Group, campaign: Campaign, api_as: Callable[[str], Any]
) -> None:
    member = api_as("member")
    url = f"/api/groups/{group.pk}/"
    member.post(url + "attempts/", {"clock": "1-1", "outcome": "failed", "players": 3}, "json")
    event = campaign.events.get()
    member.post(url + "undo/", {"event": event.pk}, "json")
    version = member.get(url + "progress/").json()["version"]  # the undo's id
    body = {"event": version, "expected_event": version}
    response = member.post(url + "redo/", body, "json")
    assert response.status_code == 200, response.content
    assert response.json()["id"] == event.pk and response.json()["undone"] is None
    assert member.get(url + "progress/").json()["bonus_tokens"] == 1
    again = member.post(url + "redo/", body, "json")
    assert again.status_code == 409 and again.json()["bonus_tokens"] == 1


@pytest.mark.parametrize("body", [{}, {"event": 0}, {"event": "x"}])
def test_the_api_requires_the_undo_to_redo(
    group: Group, api_as: Callable[[str], Any], body: dict
) -> None:
    response = api_as("member").post(f"/api/groups/{group.pk}/redo/", body, "json")
    assert response.status_code == 400 and "event" in response.json()


def test_the_export_lists_a_redone_change_once(
    group: Group, campaign: Campaign, alice: User
) -> None:
    record_attempt(campaign, alice, "1-1", "failed", 3)
    redo(campaign, alice, _undo_last(campaign, alice).pk)
    history = export_history(group)["campaigns"][0]["history"]
    assert [item["event"] for item in history] == ["failed"]
