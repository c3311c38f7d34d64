"""A hint for a clock the group has not transcribed uses the best definition available: the
group's own, else the one other tables confirmed, else the base rules; it says which, and
records it. The broker is replaced by a list of sent ids (the solver itself is tested
elsewhere)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import Group
from rules.canonical import fingerprint
from rules.clock import Clock
from solver.models import HintRequest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit_at_once")]
RULES: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
]
CONFIRMED = fingerprint(Clock.from_json({"id": "2-1", "rules": RULES}))
ASK = {"players": "3", "colours": "SSMM/MMSS/SMSM", "face_up": "3", "clock": "2-1"}


@pytest.fixture
def group_typed_alike(alice: User) -> Group:
    """Alice's table at chapter 2; three other tables typed the same rules for clock 2-1."""
    group = create_group(alice, "Tuesday table", first_campaign=False)
    new_campaign(group, start_chapter=2)
    for n in range(3):
        other = create_group(User.objects.create_user(f"t{n}"), f"T{n}")
        new_campaign(other, start_chapter=2)
        transcribe(other, "2-1", {"rules": RULES[:: 1 if n else -1]}, None)
    return group


def test_the_form_offers_the_confirmed_definition_with_a_note(
    group_typed_alike: Group, login: Callable[[User], Client], alice: User
) -> None:
    page = login(alice).get(f"/hints/new/?group={group_typed_alike.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    # the offer names no hash: people cannot tell "484ad29d3950" from another
    assert 'class="note community-offer"' in html and CONFIRMED not in html
    assert 'name="community"' in html and "checked" in html.split('name="community"')[1][:40]


def test_the_hint_uses_the_confirmed_definition_and_says_so(
    group_typed_alike: Group, login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    client = login(alice)
    response = client.post("/hints/new/", {**ASK, "group": group_typed_alike.pk, "community": "on"})
    assert response.status_code == 302
    hint = HintRequest.objects.get()
    assert (hint.definition_source, hint.definition_fingerprint) == ("community", CONFIRMED)
    assert fingerprint(Clock.from_json(hint.clock_definition)) == CONFIRMED
    assert not hint.base_rules and sent == [hint.pk]
    detail = client.get(response["Location"]).content.decode()
    assert "rules other tables transcribed, first typed on" in detail and CONFIRMED not in detail


def test_without_the_offer_it_plays_the_base_rules_and_says_so(
    group_typed_alike: Group, login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    # The community box unticked: no definition known to the table, so the base rules, with
    # no "use the base rules only" tick to find first.
    client = login(alice)
    response = client.post("/hints/new/", {**ASK, "group": group_typed_alike.pk})
    assert response.status_code == 302
    hint = HintRequest.objects.get()
    assert (hint.definition_source, hint.base_rules, sent) == ("base_rules", True, [hint.pk])
    detail = client.get(response["Location"]).content.decode()
    assert "Rules used: the base rules only" in detail and CONFIRMED not in detail


def test_a_clock_nobody_transcribed_is_preselected_and_played_by_the_base_rules(
    alice: User, login: Callable[[User], Client], sent: list[int]
) -> None:
    table = create_group(alice, "Fresh table", first_campaign=False)
    new_campaign(table, start_chapter=2)
    client = login(alice)
    form_page = client.get(f"/hints/new/?group={table.pk}")
    assert form_page.context["form"]["clock"].value() == "2-1"  # the group's next clock
    html = form_page.content.decode()
    assert 'class="note base-rules-note"' in html and 'name="base_rules"' not in html
    response = client.post("/hints/new/", {**ASK, "group": table.pk, "community": "on"})
    assert response.status_code == 302
    hint = HintRequest.objects.get()
    assert (hint.definition_source, hint.base_rules) == ("base_rules", True)
    assert hint.clock().rules == ()  # played by the three rules of every clock only


def test_the_groups_own_transcription_wins_over_the_offer(
    group_typed_alike: Group, login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    transcribe(group_typed_alike, "2-1", {"rules": [{"kind": "strictly_rising"}]}, alice)
    client = login(alice)
    assert (
        "community-offer"
        not in client.get(f"/hints/new/?group={group_typed_alike.pk}").content.decode()
    )
    client.post("/hints/new/", {**ASK, "group": group_typed_alike.pk, "community": "on"})
    hint = HintRequest.objects.get()
    assert hint.definition_source == "own"
    assert Clock.from_json(hint.clock_definition).rules[0].kind == "strictly_rising"


def test_the_api_uses_the_confirmed_definition_unless_told_not_to(
    group_typed_alike: Group, alice: User, sent: list[int]
) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(alice)
    body: dict[str, Any] = {
        "clock": "2-1",
        "colours": "SSMM/MMSS/SMSM",
        "group": group_typed_alike.pk,
    }
    response = client.post("/api/hints/", body, format="json")
    assert response.status_code == 202
    data = response.json()
    assert (data["definition_source"], data["definition_fingerprint"]) == ("community", CONFIRMED)
    for opt_out in ({"community": False}, {"base_rules": True}):
        HintRequest.objects.all().delete()
        response = client.post("/api/hints/", {**body, **opt_out}, format="json")
        assert response.status_code == 202
        assert (response.json()["definition_source"], response.json()["base_rules"]) == (
            "base_rules",
            True,
        )


def test_the_api_result_says_which_definition_was_used(
    group_typed_alike: Group, alice: User, sent: list[int], fake_result: Callable[..., Any]
) -> None:
    from rest_framework.test import APIClient

    from solver.results import result_json

    client = APIClient()
    client.force_authenticate(alice)
    body: dict[str, Any] = {
        "clock": "2-1",
        "colours": "SSMM/MMSS/SMSM",
        "group": group_typed_alike.pk,
    }
    hint_id = client.post("/api/hints/", body, format="json").json()["id"]
    HintRequest.objects.filter(pk=hint_id).update(
        status=HintRequest.Status.DONE, result=result_json(fake_result(), "en")
    )
    result = client.get(f"/api/hints/{hint_id}/", HTTP_ACCEPT_LANGUAGE="nl").json()["result"]
    assert result["definition"]["source"] == "community"
    assert result["definition"]["fingerprint"] == CONFIRMED
    assert result["definition"]["words"].startswith(
        "regels die andere tafels overnamen, voor het eerst getypt op "
    )
