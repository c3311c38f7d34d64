"""Canonical clock definitions: equal rules give equal JSON and an equal fingerprint, however
they were typed; any real difference gives another fingerprint."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.canonical import canonical, canonical_json, differences, fingerprint
from rules.clock import Clock
from rules.errors import RulesError
from rules.kinds import rule_from_json
from rules.svg import clock_svg

TWO_ONE: dict[str, Any] = {
    "id": "2-1",
    "start": 3,
    "cap": 24,
    "rules": [
        {"kind": "forbidden_values", "segment": 2, "values": [7, 3]},
        {"kind": "card_count", "segment": 6, "count": 3},
        {"kind": "equal_neighbours", "segments": [5, 4]},
        {"kind": "first_cards", "segments": [4, 1]},
    ],
}


def clock(data: dict[str, Any]) -> Clock:
    return Clock.from_json(data)


def test_reordered_rules_and_reordered_sets_give_the_same_fingerprint() -> None:
    typed_elsewhere = {
        **TWO_ONE,
        "rules": [
            {"kind": "equal_neighbours", "segments": [4, 5]},
            {"kind": "first_cards", "segments": [4, 1]},
            {"kind": "card_count", "segment": 6, "count": 3},
            {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
        ],
    }
    assert fingerprint(clock(TWO_ONE)) == fingerprint(clock(typed_elsewhere))
    assert canonical_json(clock(TWO_ONE)) == canonical_json(clock(typed_elsewhere))


def test_defaults_filled_in_and_a_rule_typed_twice_give_the_same_fingerprint() -> None:
    short = {"id": "2-1", "rules": [{"kind": "card_count", "segment": 6, "count": 3}]}
    full = {
        "id": "2-1",
        "chapter": 2,
        "number": 1,
        "start": 1,
        "cap": 24,
        "transcribed": False,
        "rules": [
            {"kind": "card_count", "segment": 6, "count": 3},
            {"kind": "card_count", "segment": 6, "count": 3},
        ],
    }
    assert fingerprint(clock(short)) == fingerprint(clock(full))
    assert canonical_json(clock(short)) == {
        "id": "2-1",
        "chapter": 2,
        "number": 1,
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "card_count", "segment": 6, "count": 3}],
    }


def test_the_order_of_the_first_and_second_card_is_a_real_difference() -> None:
    swapped = {
        **TWO_ONE,
        "rules": [*TWO_ONE["rules"][:3], {"kind": "first_cards", "segments": [1, 4]}],
    }
    assert fingerprint(clock(TWO_ONE)) != fingerprint(clock(swapped))


@pytest.mark.parametrize(
    "change",
    [
        {"start": 4},
        {"cap": None},
        {"rules": TWO_ONE["rules"][1:]},
        {"rules": [*TWO_ONE["rules"], {"kind": "strictly_rising"}]},
        {"rules": [{**TWO_ONE["rules"][0], "values": [3, 8]}, *TWO_ONE["rules"][1:]]},
        {
            "rules": [
                TWO_ONE["rules"][0],
                {**TWO_ONE["rules"][1], "count": 2},
                *TWO_ONE["rules"][2:],
            ]
        },
        {
            "rules": [
                TWO_ONE["rules"][0],
                {**TWO_ONE["rules"][1], "kind": "min_cards"},
                *TWO_ONE["rules"][2:],
            ]
        },
        {"id": "2-2"},
    ],
    ids=[
        "hand",
        "limit",
        "one-rule-less",
        "one-rule-more",
        "a-value",
        "a-count",
        "a-kind",
        "clock",
    ],
)
def test_any_real_difference_changes_the_fingerprint(change: dict[str, Any]) -> None:
    assert fingerprint(clock({**TWO_ONE, **change})) != fingerprint(clock(TWO_ONE))


def test_a_fingerprint_is_twelve_hex_digits() -> None:
    value = fingerprint(clock(TWO_ONE))
    assert len(value) == 12 and int(value, 16) >= 0


# --- properties ---------------------------------------------------------------------------

RULES = st.one_of(
    st.builds(
        lambda s, c: {"kind": "card_count", "segment": s, "count": c},
        st.integers(1, 6),
        st.integers(1, 3),
    ),
    st.builds(
        lambda s, c: {"kind": "max_cards", "segment": s, "count": c},
        st.integers(1, 6),
        st.integers(1, 4),
    ),
    st.builds(
        lambda s, sun, moon: {"kind": "colours", "segment": s, "sun": sun, "moon": moon},
        st.integers(1, 6),
        st.integers(0, 2),
        st.integers(1, 2),
    ),
    st.builds(
        lambda s, lo, span: {"kind": "value_range", "segment": s, "min": lo, "max": lo + span},
        st.integers(1, 6),
        st.integers(0, 30),
        st.integers(0, 10),
    ),
    st.builds(
        lambda s, values: {"kind": "forbidden_values", "segment": s, "values": values},
        st.integers(1, 6),
        st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True),
    ),
    st.builds(
        lambda a, right: {
            "kind": "equal_neighbours",
            "segments": [a, a % 6 + 1][:: 1 if right else -1],
        },
        st.integers(1, 6),
        st.booleans(),
    ),
    st.builds(
        lambda a, b: {"kind": "first_cards", "segments": [a, b]},
        st.integers(1, 6),
        st.integers(1, 6),
    ),
    st.builds(
        lambda s, c: {"kind": "single_colour", "segment": s, **({"colour": c} if c else {})},
        st.integers(1, 6),
        st.sampled_from([None, "S", "M"]),
    ),
    st.just({"kind": "strictly_rising"}),
)


@st.composite
def clocks(draw: st.DrawFn) -> Clock:
    data = {
        "id": draw(st.sampled_from(["2-1", "3-4", "10-2"])),
        "start": draw(st.integers(1, 6)),
        "cap": draw(st.sampled_from([24, None])),
        "rules": draw(st.lists(RULES, max_size=5)),
    }
    try:
        return Clock.from_json(data)
    except RulesError:  # rules that contradict each other are not a clock
        assume(False)
        raise


@given(clocks(), st.randoms(use_true_random=False))
def test_typing_order_never_changes_the_canonical_form(typed: Clock, rnd: Any) -> None:
    rules = [rule.to_json() for rule in typed.rules]
    rnd.shuffle(rules)
    for rule in rules:  # sets typed in another order, a symmetric pair the other way round
        if rule["kind"] in ("forbidden_values",):
            rnd.shuffle(rule["values"])
        if rule["kind"] == "equal_neighbours":
            rule["segments"].reverse()
    retyped = Clock.from_json({**typed.to_json(), "rules": rules})
    assert canonical_json(retyped) == canonical_json(typed)
    assert fingerprint(retyped) == fingerprint(typed)


@given(clocks())
def test_the_canonical_form_round_trips_through_json(typed: Clock) -> None:
    text = json.dumps(canonical_json(typed))
    back = Clock.from_json(json.loads(text))
    assert back == canonical(typed)
    assert canonical(back) == back
    assert fingerprint(back) == fingerprint(typed)


@given(clocks(), clocks())
def test_fingerprints_are_equal_exactly_when_canonical_forms_are(a: Clock, b: Clock) -> None:
    assert (fingerprint(a) == fingerprint(b)) == (canonical_json(a) == canonical_json(b))


@given(clocks(), RULES)
def test_a_rule_added_or_removed_changes_the_fingerprint(typed: Clock, raw: dict[str, Any]) -> None:
    rule = rule_from_json(raw)
    try:
        more = replace(typed, rules=(*typed.rules, rule))
    except RulesError:
        assume(False)
        raise
    if rule.normalised() in canonical(typed).rules:
        assert fingerprint(more) == fingerprint(typed)
    else:
        assert fingerprint(more) != fingerprint(typed)
    if typed.rules:
        fewer = canonical(typed).rules[1:]
        assert fingerprint(replace(typed, rules=fewer)) != fingerprint(typed)


# --- differences between two definitions --------------------------------------------------


def test_differences_name_the_rules_hand_and_limit_that_set_theirs_apart() -> None:
    ours = clock(TWO_ONE)
    theirs = clock(
        {**TWO_ONE, "start": 2, "rules": [*TWO_ONE["rules"][1:], {"kind": "strictly_rising"}]}
    )
    found = differences(theirs, ours)
    assert [r.kind for r in found.added] == ["strictly_rising"]
    assert [r.kind for r in found.missing] == ["forbidden_values"]
    assert found.start and not found.cap
    assert not differences(clock({**TWO_ONE, "rules": TWO_ONE["rules"][::-1]}), ours)
    assert not differences(theirs, None)


def test_the_face_draws_what_differs_in_a_contrasting_ink() -> None:
    ours = clock(TWO_ONE)
    theirs = clock({**TWO_ONE, "start": 2, "cap": None, "rules": [{"kind": "strictly_rising"}]})
    svg = clock_svg(theirs, differences=differences(theirs, ours))
    assert svg.count('class="rule differs"') == 2  # the new centre rule and the lifted limit
    assert 'class="start-outline differs"' in svg
    plain = clock_svg(ours, differences=differences(ours, ours))
    assert "differs" not in plain
