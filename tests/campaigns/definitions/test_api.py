"""The definitions' API (campaigns.definitions.api): clocks, transcriptions, the layout
check."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.models import Group
from tests.campaigns.shapes import BAD_CARD, FAILING_1_1, PASSING_1_1, ApiAs, url


def test_clocks_are_listed_and_shown(group: Group, api_as: ApiAs) -> None:
    client = api_as("outsider")
    clocks = client.get("/api/clocks/").json()
    assert len(clocks) == 41 and clocks[0]["id"] == "1-1" and clocks[-1]["id"] == "rebirth"
    assert client.get("/api/clocks/1-1/").json()["cap"] is None
    assert client.get("/api/clocks/11-1/").status_code == 404


def test_layout_check_answers_the_check_layout_object(api_as: ApiAs, group: Group) -> None:
    response = api_as("viewer").post("/api/layouts/check/", {"clock": "1-1", "layout": FAILING_1_1})
    assert response.status_code == 200
    body = response.json()
    assert body["passed"] is False and body["violations"][0]["rule"] == "card_count"
    assert len(body["values"]) == 6


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"clock": "99-1", "layout": PASSING_1_1}, "clock"),
        ({"clock": "1-1", "layout": "S1"}, "layout"),
        ({"clock": "1-1"}, "layout"),
    ],
)
def test_layout_check_refuses_bad_input(
    api_as: ApiAs, group: Group, payload: dict[str, Any], field: str
) -> None:
    response = api_as("owner").post("/api/layouts/check/", payload)
    assert response.status_code == 400 and field in response.json()


def test_transcriptions_are_versioned(group: Group, api_as: ApiAs) -> None:
    client = api_as("member")
    rule = {"kind": "card_count", "segment": 2, "count": 2}
    first = client.post(url(group, "transcriptions/"), {"clock": "5-2", "rules": [rule]})
    second = client.post(url(group, "transcriptions/"), {"clock": "5-2", "start": 3, "rules": []})
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json()["version"] == 2
    bad = client.post(url(group, "transcriptions/"), {"clock": "5-2", "rules": [{"kind": "nope"}]})
    assert bad.status_code == 400


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "'S13' is not a card: values go from 1 to 12."),
        ("nl", "'S13' is geen kaart: de waarden lopen van 1 tot en met 12."),
        ("ja", "'S13'はカードではありません。数字は1から12までです。"),
    ],
)
def test_the_layout_check_api_refuses_in_the_callers_language(
    api_as: ApiAs, group: Group, lang: str, expected: str
) -> None:
    response = api_as("viewer").post(
        "/api/layouts/check/",
        {"clock": "1-1", "layout": BAD_CARD},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert response.json() == {"card": [expected]}


def test_a_bad_transcription_is_refused_in_japanese(api_as: ApiAs, group: Group) -> None:
    rule = {"kind": "value_range", "segment": 2, "min": 20, "max": 10}
    response = api_as("member").post(
        f"/api/groups/{group.pk}/transcriptions/",
        {"clock": "5-2", "rules": [rule]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    expected = "「min」（20）は「max」（10）より大きくできません。"
    assert response.json() == {"rules[0].min": [expected]}
