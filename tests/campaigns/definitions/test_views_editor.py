"""The clock editor page (views.transcribe with campaigns.definitions.editor): redraws, rules
added and removed in words, saved versions."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.test import Client

from campaigns.definitions.played import played_definition
from campaigns.models import ClockTranscription, Group

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
PageUrl = Callable[..., str]  # the group_url fixture (tests/campaigns/conftest.py)


def test_the_editor_names_rule_kinds_in_words(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(group_url(group, "clocks/1-2/edit/")).content.decode()
    assert '<option value="value_range">A segment&#x27;s value between two numbers' in body


def test_the_editor_labels_the_parameters_in_words(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = (
        as_role("owner")
        .post(group_url(group, "clocks/1-2/edit/"), {"start": 1, "new_kind": "value_range"})
        .content.decode()
    )
    assert '<label for="p_min">Lowest value</label>' in body


def test_the_editor_keeps_what_was_typed_when_it_refuses_a_rule(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        group_url(group, "clocks/1-2/edit/"),
        {
            "start": 1,
            "new_kind": "value_range",
            "p_segment": "3",
            "p_min": "20",
            "p_max": "10",
            "action": "add",
        },
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert 'value="20"' in body and 'value="10"' in body
    assert '<option value="3" selected>' in body


def test_the_editor_names_a_bad_parameter_in_words(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = (
        as_role("owner")
        .post(
            group_url(group, "clocks/1-2/edit/"),
            {"start": 1, "new_kind": "value_range", "p_segment": 2, "p_min": "x", "action": "add"},
        )
        .content.decode()
    )
    assert "Lowest value: give a whole number." in body


def test_saving_with_a_rule_still_in_add_a_rule_saves_that_rule_too(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        group_url(group, "clocks/1-2/edit/"),
        {"start": 1, "new_kind": "card_count", "p_segment": 6, "p_count": 3, "action": "save"},
    )
    assert response.status_code == 302
    saved = group.transcriptions.get(clock_id="1-2")
    assert saved.definition["rules"] == [{"kind": "card_count", "segment": 6, "count": 3}]


def test_saving_with_a_bad_rule_in_add_a_rule_saves_nothing(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        group_url(group, "clocks/1-2/edit/"),
        {"start": 1, "new_kind": "forbidden_values", "p_values": "3, x", "action": "save"},
    )
    assert response.status_code == 400 and not group.transcriptions.exists()


def test_a_double_tap_on_save_makes_one_version(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    rule = '{"kind": "card_count", "segment": 6, "count": 3}'
    for _ in range(2):
        response = client.post(
            group_url(group, "clocks/1-2/edit/"),
            {"start": 1, "cap_lifted": "on", "rules": rule, "action": "save"},
        )
        assert response.status_code == 302
    assert group.transcriptions.filter(clock_id="1-2").count() == 1


def test_saving_a_changed_clock_makes_a_new_version(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    for start in (1, 2):
        client.post(group_url(group, "clocks/1-2/edit/"), {"start": start, "action": "save"})
    assert group.transcriptions.filter(clock_id="1-2").count() == 2


def test_the_editor_redraws_the_clock_as_the_user_edits(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    rule = json.dumps({"kind": "card_count", "segment": 2, "count": 2})
    response = as_role("member").post(
        group_url(group, "clocks/5-1/edit/"),
        {"start": 3, "rules": rule},
        headers={"HX-Request": "true"},
    )
    content = response.content.decode()
    assert content.lstrip().startswith('<form class="grid grid-2 editor"')
    assert 'data-clock="5-1"' in content and "Segment 2 must hold exactly 2 cards" in content
    assert not ClockTranscription.objects.exists()


def test_the_editor_shows_the_inputs_of_the_chosen_kind(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("member").post(
        group_url(group, "clocks/5-1/edit/"), {"start": 1, "rules": "", "new_kind": "value_range"}
    )
    for name in ("p_segment", "p_min", "p_max"):
        assert f'name="{name}"' in response.content.decode()


def test_the_editor_adds_and_removes_a_rule(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("member")
    data = {"start": 1, "rules": "", "new_kind": "card_count", "p_segment": 4, "p_count": 2}
    added = client.post(group_url(group, "clocks/5-1/edit/"), {**data, "action": "add"})
    assert added.status_code == 200
    assert added.context["form"]["rules"].value() == (
        '{"kind": "card_count", "segment": 4, "count": 2}'
    )
    removed = client.post(
        group_url(group, "clocks/5-1/edit/"),
        {"start": 1, "rules": added.context["form"]["rules"].value(), "remove": "0"},
    )
    assert removed.context["form"]["rules"].value() == ""


def test_the_editor_explains_a_bad_new_rule(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    data = {"start": 1, "rules": "", "new_kind": "card_count", "p_segment": 4, "p_count": "99"}
    response = as_role("member").post(
        group_url(group, "clocks/5-1/edit/"), {**data, "action": "add"}
    )
    assert response.status_code == 400 and response.context["new_rule_error"]
    assert response.context["form"]["rules"].value() == ""


def test_the_editor_refuses_to_save_broken_rules(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("member").post(
        group_url(group, "clocks/5-1/edit/"),
        {"start": 1, "rules": '{"kind": "card_count"}', "action": "save"},
    )
    assert response.status_code == 400 and b"count" in response.content
    assert not ClockTranscription.objects.exists()


def test_the_editor_saves_a_new_version(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    client = as_role("member")
    for start in (2, 3):
        response = client.post(
            group_url(group, "clocks/5-1/edit/"), {"start": start, "rules": "", "action": "save"}
        )
        assert response.status_code == 302
    choice = played_definition(group, "5-1")
    clock, version = choice.clock, choice.version
    assert (clock.start, version) == (3, 2)


def test_saving_the_editor_twice_keeps_one_version(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("member")
    for _tap in range(2):
        response = client.post(
            group_url(group, "clocks/5-1/edit/"), {"start": 2, "rules": "", "action": "save"}
        )
        assert response.status_code == 302
    assert "Nothing changed: still version 1." in client.get(response["Location"]).text
    assert ClockTranscription.objects.filter(group=group, clock_id="5-1").count() == 1


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
