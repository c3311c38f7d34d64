"""The clock editor's state machine (``campaigns.definitions.editor``) without a request:
each button of a POST is one step from the rules the form holds, and a step says whether
it is ready to save. The view only checks access, runs the step and renders or saves it."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import QueryDict

from campaigns.definitions.editor import edit, start_editing
from rules.catalogue import get_clock

CARD_COUNT = '{"kind": "card_count", "segment": 4, "count": 2}'


def _post(**data: object) -> QueryDict:
    return QueryDict(urlencode({"start": 1, "rules": "", **data}))


def test_opening_the_editor_shows_the_clock_played() -> None:
    clock = get_clock("1-2")
    step = start_editing(clock)
    assert step.draft == clock and not step.form.is_bound and not step.save
    assert step.status == 200


def test_add_appends_the_rule_and_empties_add_a_rule() -> None:
    step = edit("5-1", _post(new_kind="card_count", p_segment=4, p_count=2, action="add"))
    assert step.form["rules"].value() == CARD_COUNT
    assert step.new_kind == "" and step.new_rule_error is None and not step.save
    assert step.draft is not None and len(step.draft.rules) == 1


def test_remove_drops_the_rule_at_its_index_and_ignores_a_bad_index() -> None:
    assert edit("5-1", _post(rules=CARD_COUNT, remove="0")).form["rules"].value() == ""
    assert edit("5-1", _post(rules=CARD_COUNT, remove="7")).form["rules"].value() == CARD_COUNT


def test_a_refused_new_rule_keeps_its_kind_and_says_why() -> None:
    step = edit("5-1", _post(new_kind="card_count", p_segment=4, p_count=99, action="add"))
    assert step.new_rule_error and step.new_kind == "card_count"
    assert step.form["rules"].value() == "" and step.status == 400


def test_save_adds_a_rule_left_in_add_a_rule_and_is_ready() -> None:
    step = edit("1-2", _post(new_kind="card_count", p_segment=6, p_count=3, action="save"))
    assert step.save and step.draft is not None
    assert [r.to_json() for r in step.draft.rules] == [
        {"kind": "card_count", "segment": 6, "count": 3}
    ]


def test_save_is_not_ready_with_a_refused_rule_or_a_broken_form() -> None:
    refused = edit("1-2", _post(new_kind="forbidden_values", p_values="3, x", action="save"))
    assert not refused.save and refused.status == 400
    broken = edit("1-2", _post(rules="not json", action="save"))
    assert not broken.save and broken.draft is None and broken.status == 400
