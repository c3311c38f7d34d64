"""POST /api/layouts/postmortem/: the object of ``postmortem --json``, its refusals and who
may call it (the same as POST /api/layouts/check/)."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
URL = "/api/layouts/postmortem/"
LOST = "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"
HOPELESS = "M1 M2 | M3 | M4 | M5 M6 | M7 M8 | M9 M10 M11 M12"
ORDERED = {
    "id": "3-1",
    "start": 1,
    "cap": 24,
    "rules": [
        {"kind": "first_cards", "segments": [1, 1]},
        {"kind": "card_count", "segment": 1, "count": 1},
    ],
}
MOVES = "S1@1 S2@2 S3@3 S4@4 S5@5 S6@6 M1@2 M2@3 M3@4 M4@5 M5@6 M6@6"


@pytest.fixture
def alice_api(alice: User) -> APIClient:
    api = APIClient()
    api.force_authenticate(alice)
    return api


def _post(alice_api: APIClient, payload: dict[str, Any], **headers: Any) -> Any:
    return alice_api.post(URL, payload, format="json", **headers)


def test_it_answers_the_object_of_the_command(alice_api: APIClient) -> None:
    response = _post(alice_api, {"clock": "1-1", "layout": LOST})
    assert response.status_code == 200
    out = StringIO()
    call_command("postmortem", "1-1", LOST, "--json", stdout=out)
    assert response.json() == json.loads(out.getvalue())
    body = response.json()
    assert body["winnable"] is True and body["placement_checked"] is False
    check = alice_api.post(
        "/api/layouts/check/", {"clock": "1-1", "layout": body["witness"]}, format="json"
    )
    assert check.status_code == 200 and check.json()["passed"] is True


def test_cards_that_cannot_pass_are_not_winnable(alice_api: APIClient) -> None:
    response = _post(alice_api, {"clock": "1-1", "layout": HOPELESS})
    assert response.status_code == 200
    assert response.json() == {
        "winnable": False,
        "witness": None,
        "placement_checked": False,
        "special_rules_known": True,
        "unchecked": [],
    }


def test_a_clock_definition_and_the_move_form_judge_placement_rules(alice_api: APIClient) -> None:
    by_moves = _post(alice_api, {"clock": ORDERED, "layout": MOVES}).json()
    assert by_moves["winnable"] is False and by_moves["placement_checked"] is True
    segments = "S1 | S2 M1 | S3 M2 | S4 M3 | S5 M4 | S6 M5 M6"
    by_segments = _post(alice_api, {"clock": ORDERED, "layout": segments}).json()
    assert by_segments["winnable"] is True and by_segments["placement_checked"] is False


def test_with_players_the_witness_is_a_game_in_move_form(alice_api: APIClient) -> None:
    played = "S3@1 M5@1 S2@2 M3@3 M9@4 S1@4 S6@5 S8@5 M2@5 M12@6 S9@6 M1@6"
    body = _post(alice_api, {"clock": "1-1", "layout": played, "players": 4}).json()
    assert body["winnable"] is True and body["placement_checked"] is True
    assert body["witness"].count("@") == 12


@pytest.mark.parametrize(
    ("payload", "field", "reason"),
    [
        (
            {"clock": "1-1", "layout": "S3 | M5 | S2 M3 | M9 S1 | S6 S8 M2 | M12 S9"},
            "layout",
            "A layout has exactly 12 cards; this one has 11.",
        ),
        ({"clock": "1-1", "layout": "S3@1 M5@2"}, "layout", "this one has 2"),
        ({"clock": "99-1", "layout": LOST}, "clock", "99-1"),
        ({"clock": 7, "layout": LOST}, "clock", "clock id"),
        ({"clock": "1-1"}, "layout", ""),
        ({"clock": "1-1", "layout": LOST, "players": 5}, "players", ""),
        ({"clock": {"id": "2-1", "rules": [{"kind": "nope"}]}, "layout": LOST}, "", "nope"),
    ],
)
def test_bad_input_is_a_400_with_the_reason(
    alice_api: APIClient, payload: dict[str, Any], field: str, reason: str
) -> None:
    response = _post(alice_api, payload)
    assert response.status_code == 400
    body = response.json()
    assert any(key.startswith(field) for key in body), body
    assert reason in json.dumps(body, ensure_ascii=False)


def test_a_partial_layout_is_refused_in_the_callers_language(alice_api: APIClient) -> None:
    response = _post(
        alice_api, {"clock": "1-1", "layout": "S1 | S2 | S3 | | |"}, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert response.status_code == 400
    assert response.json() == {
        "layout": ["配置のカードはちょうど12枚ですが、この配置には3枚あります。"]
    }


def test_it_is_for_signed_in_users_like_the_check(alice: User) -> None:
    anonymous = APIClient()
    for url in (URL, "/api/layouts/check/"):
        assert anonymous.post(url, {"clock": "1-1", "layout": LOST}, format="json").status_code in (
            401,
            403,
        )
    signed_in = APIClient()
    signed_in.force_authenticate(alice)
    assert signed_in.get(URL).status_code == 405


def test_the_schema_documents_it(alice_api: APIClient) -> None:
    schema = alice_api.get("/api/schema/?format=json").json()
    operation = schema["paths"][URL]["post"]
    assert operation["summary"] == "Was it winnable?"
    assert set(operation["responses"]) >= {"200", "400", "403"}
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    request = schema["components"]["schemas"][body.rsplit("/", 1)[1]]
    assert set(request["properties"]) == {"clock", "layout", "players"}
    assert "oneOf" in request["properties"]["clock"]
