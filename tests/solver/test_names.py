"""Names at the table: the hint form asks who sits where (from the group's players, then
its last seating), the API takes ``names`` in seat order, and the plan speaks to people by
name in every language. Bad names are refused with a reason (400 / form error / exit 2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import solver.core.search.search
from campaigns.groups.services import create_group
from campaigns.models import Group
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.core.words import all_words, plan_words
from solver.errors import HintError
from solver.hint_inputs import parse_input, parse_names
from solver.models import HintRequest, Seating
from solver.results import result_json
from solver.seating import suggested_names

pytestmark = pytest.mark.usefixtures("commit_at_once")

CLOCK = get_clock("1-1")  # segment 1: exactly one Sun, so its only Sun holder covers it
COLOURS = "MMMM/SSMM/MMSS"  # Bea (seat 2) holds the Suns for segment 1
SEATS = parse_colours(COLOURS)
NAMES = ["Ann", "Bea", "Cas"]


# --- the words --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "owner", "opener"),
    [
        ("en", "Bea, you hold 2 Suns: segment 1 is yours", "Ann opens."),
        ("nl", "Bea, jij hebt 2 zonnen: segment 1 is van jou", "Ann begint."),
        ("ja", "Beaは太陽2枚を持っているので、区画1を担当", "Annから始めます。"),
    ],
)
def test_the_plan_speaks_to_people_by_name_in_every_language(
    lang: str, owner: str, opener: str
) -> None:
    plan = baseline_plan(CLOCK, SEATS, 3)
    named = all_words(plan, CLOCK, SEATS, 3, NAMES)[lang]
    assert owner in named and opener in named
    unnamed = all_words(plan, CLOCK, SEATS, 3)[lang]
    seat = {"en": "Seat 2", "nl": "Stoel 2", "ja": "席2"}[lang]
    assert seat in unnamed and seat not in named  # without names: the seat wording
    assert "Bea" not in unnamed


def test_the_opener_is_named_by_its_seat() -> None:
    plan = baseline_plan(CLOCK, SEATS, 3).with_(opener=3)
    assert "Cas opens." in plan_words(plan, CLOCK, SEATS, 3, "en", NAMES)


# --- checking names ---------------------------------------------------------------------------


def test_names_are_trimmed_and_kept_in_seat_order() -> None:
    assert parse_names([" Ann ", "Bea  Lee", "Cas"], 3) == ("Ann", "Bea Lee", "Cas")
    assert parse_names(None, 3) == ()
    assert parse_input("1-1", COLOURS, 3, names=NAMES).names == tuple(NAMES)


@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["Ann", "Bea"], "2 names for 3 seats"),
        (["Ann", "Bea", "Cas", "Dee"], "4 names for 3 seats"),
        ([], "0 names for 3 seats"),
        (["Ann", "  ", "Cas"], "Seat 2 has no name"),
        (["Ann", "Bea", "ann"], "ann sits at two seats"),
        (["Ann", "Bea", "x" * 81], "at most 80 characters"),
        ("Ann,Bea,Cas", "as a list of text"),
        (["Ann", 2, "Cas"], "as a list of text"),
    ],
)
def test_bad_names_are_refused_with_the_reason(names: Any, reason: str) -> None:
    with pytest.raises(HintError, match=reason) as caught:
        parse_input("1-1", COLOURS, 3, names=names)
    assert caught.value.field == "names"


# --- the API ----------------------------------------------------------------------------------


@pytest.fixture
def four_player_group(alice: User) -> Group:
    return create_group(alice, "Tuesday table", ["Ann", "Bea", "Cas", "Dee"])


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def finish(hint: HintRequest) -> HintRequest:
    """Store a solver result (the baseline plan, worded without names) on ``hint``."""
    plan = baseline_plan(CLOCK, SEATS, 3)
    result = HintResult(
        plan, 0.6, (0.55, 0.65), 0.4, 0.9, 1000, all_words(plan, CLOCK, SEATS, 3), False
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        status=HintRequest.Status.DONE, progress=100, result=result_json(result, "en"),
        finished_at=timezone.now(),
    )  # fmt: skip
    hint.refresh_from_db()
    return hint


@pytest.mark.django_db
def test_the_api_takes_names_in_seat_order_and_the_result_speaks_to_them(
    alice: User, four_player_group: Group, sent: list[int]
) -> None:
    body = {"clock": "1-1", "colours": COLOURS, "group": four_player_group.pk, "names": NAMES}
    response = api(alice).post("/api/hints/", body, format="json")
    assert response.status_code == 202 and response.json()["names"] == NAMES
    hint = finish(HintRequest.objects.get())
    result = api(alice).get(f"/api/hints/{hint.pk}/", HTTP_ACCEPT_LANGUAGE="nl").json()["result"]
    assert "Bea, jij hebt 2 zonnen" in result["words"] and "Ann begint." in result["words"]
    assert "Bea, you hold 2 Suns" in result["words_all"]["en"]
    assert "Annから始めます。" in result["words_all"]["ja"]
    assert Seating.objects.get(group=four_player_group).names == NAMES  # the group's last seating


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["Ann", "Bea"], "2 names for 3 seats"),
        (["Ann", "Bea", "Bea"], "Bea sits at two seats"),
        (["Ann", "", "Cas"], "Seat 2 has no name"),
        ({"1": "Ann"}, "as a list of text"),
    ],
)
def test_the_api_refuses_bad_names_with_400_and_the_reason(
    alice: User, names: Any, reason: str, sent: list[int]
) -> None:
    body = {"clock": "1-1", "colours": COLOURS, "names": names}
    response = api(alice).post("/api/hints/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["names"] and reason in response.json()["names"][0]
    assert not HintRequest.objects.exists() and sent == []


@pytest.mark.django_db
def test_a_result_reused_for_another_table_speaks_to_that_table(
    alice: User, bob: User, sent: list[int]
) -> None:
    first = api(alice).post(
        "/api/hints/", {"clock": "1-1", "colours": COLOURS, "names": NAMES}, format="json"
    )
    finish(HintRequest.objects.get(pk=first.json()["id"]))
    others = ["Xia", "Yves", "Zoe"]
    body = {"clock": "1-1", "colours": COLOURS, "names": others}
    reused = api(bob).post("/api/hints/", body, format="json").json()
    assert reused["status"] == "done"
    assert (
        "Yves, you hold 2 Suns" in reused["result"]["words"]
        and "Bea" not in reused["result"]["words"]
    )


# --- the form ---------------------------------------------------------------------------------


def seat_names(client: Client, url: str) -> list[str]:
    return [seat["name"] for seat in client.get(url).context["form"].seats()]


@pytest.mark.django_db
def test_the_form_starts_from_the_groups_players_then_its_last_seating(
    alice: User, four_player_group: Group, login: Callable[[User], Client], sent: list[int]
) -> None:
    client = login(alice)
    url = f"/hints/new/?group={four_player_group.pk}&players=3"
    assert seat_names(client, url) == ["Ann", "Bea", "Cas"]
    ask = {
        "group": four_player_group.pk,
        "clock": "1-1",
        "players": "3",
        "colours": COLOURS,
        "face_up": "3",
    }
    response = client.post("/hints/new/", {**ask, "names": ["Dee", "Ann", "Cas"]})
    assert response.status_code == 302
    assert HintRequest.objects.get().names == ["Dee", "Ann", "Cas"]
    assert seat_names(client, url) == ["Dee", "Ann", "Cas"]  # remembered
    assert seat_names(client, f"/hints/new/?group={four_player_group.pk}&players=4") == [
        "Dee", "Ann", "Cas", "Bea",
    ]  # fmt: skip
    html = client.get(url).content.decode()
    assert html.count('name="names"') == 3 and 'value="Dee"' in html


@pytest.mark.django_db
def test_a_redraw_of_the_seats_keeps_the_names_typed_so_far(
    alice: User, four_player_group: Group
) -> None:
    assert suggested_names(four_player_group, 4, ["Zoe", "", "Ann"]) == ["Zoe", "Ann", "Bea", "Cas"]
    assert suggested_names(four_player_group, 2) == ["Ann", "Bea"]
    lonely = create_group(alice, "Alone", [])
    assert suggested_names(lonely, 3) == ["", "", ""]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["Ann", "Ann", "Cas"], "Ann sits at two seats"),
        (["Ann", "", "Cas"], "Seat 2 has no name"),
    ],
)
def test_the_form_refuses_bad_names_with_the_reason(
    alice: User, login: Callable[[User], Client], names: list[str], reason: str, sent: list[int]
) -> None:
    ask = {"clock": "1-1", "players": "3", "colours": COLOURS, "face_up": "3", "names": names}
    response = login(alice).post("/hints/new/", ask)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not HintRequest.objects.exists() and sent == []


@pytest.mark.django_db
def test_without_names_the_form_keeps_the_seat_wording(
    alice: User, login: Callable[[User], Client], sent: list[int]
) -> None:
    ask = {
        "clock": "1-1",
        "players": "3",
        "colours": COLOURS,
        "face_up": "3",
        "names": ["", "", ""],
    }
    client = login(alice)
    assert client.post("/hints/new/", ask).status_code == 302
    hint = finish(HintRequest.objects.get())
    assert hint.names == []
    assert "Seat 2, you hold 2 Suns" in client.get(f"/hints/{hint.pk}/").content.decode()


@pytest.mark.django_db
def test_names_are_escaped_on_the_result_page(
    alice: User, login: Callable[[User], Client], sent: list[int]
) -> None:
    evil = ["<b>Ann</b>", "Bea", "Cas"]
    ask = {"clock": "1-1", "players": "3", "colours": COLOURS, "face_up": "3", "names": evil}
    client = login(alice)
    assert client.post("/hints/new/", ask).status_code == 302
    hint = finish(HintRequest.objects.get())
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "&lt;b&gt;Ann&lt;/b&gt; opens." in html and "<b>Ann</b>" not in html


# --- the command ------------------------------------------------------------------------------


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    real = solver.core.search.search.recommend

    def fast(*args: object, **kwargs: object) -> HintResult:
        kwargs["effort"] = 0.05
        kwargs["compute_odds"] = False
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("solver.management.commands.hint.recommend", fast)


@pytest.mark.django_db  # the command reads the clock's stored prior
def test_hint_names_speaks_to_the_players(quick: None) -> None:
    out = StringIO()
    call_command(
        "hint",
        "1-1",
        "--colours",
        COLOURS,
        "--names",
        "Ann, Bea,Cas",
        "--json",
        "--lang",
        "nl",
        stdout=out,
    )
    words = json.loads(out.getvalue())["words"]
    # The opener, and where the plan gives segment 1's Sun to one seat, that seat, by name.
    assert any(f"{name} begint" in words for name in ("Ann", "Bea", "Cas"))
    assert "Stoel" not in words


@pytest.mark.parametrize(
    ("names", "reason"), [("Ann,Bea", "2 names for 3 seats"), ("Ann,Bea,ANN", "sits at two seats")]
)
def test_hint_refuses_bad_names_with_exit_2(quick: None, names: str, reason: str) -> None:
    with pytest.raises(CommandError, match=reason) as caught:
        call_command("hint", "1-1", "--colours", COLOURS, "--names", names, stdout=StringIO())
    assert caught.value.returncode == 2
