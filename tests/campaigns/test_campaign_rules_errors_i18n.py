"""The rules engine's refusals (bad cards, layouts, rules) reach people in their language."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from campaigns import services
from campaigns.models import Group
from rules.catalogue import get_clock

AsRole = Callable[[str], Client]
ApiAs = Callable[[str], APIClient]
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"
BAD_CARD = PASSING_1_1.replace("S1", "S13")


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


def test_the_live_check_shows_parse_errors_in_dutch(group: Group, as_role: AsRole) -> None:
    response = as_role("owner").post(
        f"/groups/{group.pk}/check/",
        {"clock": "1-1", "layout": "S1 X9"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert response.status_code == 200
    assert response.context["verdict_error"] == (
        "Een kaartverdeling in segmentvorm heeft zes groepen gescheiden door '|' "
        "(segmenten 1–6); deze heeft er 1."
    )


def test_the_editor_explains_a_bad_new_rule_in_japanese(group: Group, as_role: AsRole) -> None:
    data = {"start": 1, "rules": "", "new_kind": "card_count", "p_segment": 4, "p_count": "99"}
    response = as_role("member").post(
        f"/groups/{group.pk}/clocks/5-1/edit/",
        {**data, "action": "add"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    assert response.context["new_rule_error"] == (
        "パラメータ「count」（カードの枚数）は0から12まででなければなりません（99ではありません）。"
    )


def test_recording_a_bad_layout_is_refused_in_the_active_language() -> None:
    clock = get_clock("1-1")
    with translation.override("nl"), pytest.raises(services.CampaignError) as error:
        services.judge_layout(clock, BAD_CARD, "passed")
    assert error.value.field == "layout"
    assert error.value.message.startswith("'S13' is geen kaart")
    with translation.override("ja"), pytest.raises(services.CampaignError) as failing:
        services.judge_layout(clock, FAILING_1_1, "passed")
    assert "第6区画" in failing.value.message


def test_error_text_normalises_the_language() -> None:
    with pytest.raises(Exception) as error:
        get_clock("11-1")
    assert isinstance(error.value, services.RulesError)
    with translation.override("ja"):
        assert services.error_text(error.value).startswith("不明な時計盤")
    with translation.override("de"):
        assert services.error_text(error.value) == error.value.message
    assert services.error_text(services.CampaignError("Al gezegd.")) == "Al gezegd."
