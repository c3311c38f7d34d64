"""Resolution: the three rules of every clock, special rules, and the verdict's shape."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.errors import RulesError
from rules.i18n import LANGUAGES
from rules.layout import Layout, Move, parse_layout
from rules.validate import passes, validate

EXAMPLE = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7"  # 3, 5, 5, 9, 14, 21
LAST_25 = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M11"  # 3, 5, 5, 9, 14, 25
PLAIN = Clock("4-1", 4, 1)  # the three rules of every clock, nothing else


def clock(**data: Any) -> Clock:
    return Clock.from_json({"id": "5-1", "rules": [], **data})


def check(clock: Clock, text: str, lang: str = "en") -> dict[str, Any]:
    verdict = validate(clock, parse_layout(text), lang)
    assert verdict.passed is passes(clock, parse_layout(text))
    return verdict.to_json()


def test_the_rules_texts_example_passes() -> None:
    assert check(PLAIN, EXAMPLE) == {
        "passed": True,
        "values": [3, 5, 5, 9, 14, 21],
        "violations": [],
        "unchecked": [],
        "special_rules_known": True,
    }


def test_25_on_the_last_segment_fails_on_the_cap() -> None:
    result = check(PLAIN, LAST_25)
    assert result["passed"] is False
    assert result["violations"] == [
        {
            "rule": "over_cap",
            "segment": 6,
            "message": "Segment 6 is worth more than 24 (25); no segment may exceed 24.",
        }
    ]


def test_exactly_24_is_allowed() -> None:
    assert check(PLAIN, "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M10")["passed"]


# The last segment (the largest, values rising) at one below, exactly at and one above a cap.
BELOW_20, AT_20, ABOVE_20 = (
    f"S3 | S5 | M5 | S9 | S2 M12 | {last}"
    for last in ("S1 S6 M1 M2 M3 M6", "S1 S7 M1 M2 M3 M6", "S1 S7 M1 M2 M3 M7")
)
AT_23, AT_24 = (f"S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 {last}" for last in ("M9", "M10"))


def test_a_cap_other_than_24_allows_exactly_the_cap_and_refuses_one_more() -> None:
    cap_20 = clock(cap=20)
    assert check(cap_20, BELOW_20)["values"][-1] == 19 and check(cap_20, BELOW_20)["passed"]
    assert check(cap_20, AT_20)["values"][-1] == 20 and check(cap_20, AT_20)["passed"]
    result = check(cap_20, ABOVE_20)
    assert result["values"][-1] == 21 and result["passed"] is False
    assert result["violations"] == [
        {
            "rule": "over_cap",
            "segment": 6,
            "message": "Segment 6 is worth more than 20 (21); no segment may exceed 20.",
        }
    ]
    # The same 21 passes the usual 24 cap: the clock's own cap decides, not the usual one.
    assert check(PLAIN, ABOVE_20)["passed"]


def test_the_usual_cap_allows_23_and_24_and_refuses_25() -> None:
    assert check(PLAIN, AT_23)["passed"] and check(PLAIN, AT_23)["values"][-1] == 23
    assert check(PLAIN, AT_24)["passed"] and check(PLAIN, AT_24)["values"][-1] == 24
    assert not check(PLAIN, LAST_25)["passed"]


def test_a_lifted_cap_allows_23_24_and_25_alike() -> None:
    lifted = clock(cap=None)
    for text, last in ((AT_23, 23), (AT_24, 24), (LAST_25, 25)):
        result = check(lifted, text)
        assert result["values"][-1] == last
        assert result["passed"] and result["violations"] == []


def test_a_lifted_cap_allows_25_and_more() -> None:
    assert check(clock(cap=None), LAST_25)["passed"]
    assert check(clock(cap=None), "S1 | S2 | S3 | S4 | S5 | S6 S7 S8 S9 S10 S11 S12")["passed"]


def test_ties_are_allowed_but_a_drop_is_not() -> None:
    assert check(PLAIN, "S5 | M5 | S3 M2 | M1 M4 | S2 M3 | S1 S4 S6 M6")["passed"]
    result = check(PLAIN, "S5 | M4 | S3 M2 | M1 M5 | S2 M3 | S1 S4 S6 M6")
    assert [v["rule"] for v in result["violations"]] == ["decreasing"]
    assert result["violations"][0]["segment"] == 2
    assert result["violations"][0]["message"].startswith("Segment 2 is worth 4, less than the 5")


def test_values_are_read_from_the_start_segment() -> None:
    # In segment order 21, 3, 5, 5, 9, 14: rising only when read from segment 2.
    rotated = "S1 S7 M1 M2 M3 M7 | S3 | S5 | M5 | S9 | S2 M12"
    assert not check(PLAIN, rotated)["passed"]
    result = check(clock(start=2), rotated)
    assert result["passed"] and result["values"] == [3, 5, 5, 9, 14, 21]
    assert check(clock(start=3), rotated)["violations"][0]["segment"] == 2


def test_empty_segments_give_one_violation_naming_the_first_and_all_in_its_message() -> None:
    result = check(PLAIN, "S1 | | S2 S3 | | S4 S5 S6 | S7 M1 M2 M3 M4 M5")
    assert result["violations"] == [
        {
            "rule": "empty_segment",
            "segment": 2,
            "message": "Segments 2 and 4 have no card; every segment needs at least one.",
        }
    ]
    assert result["values"] == [1, 0, 5, 0, 15, 22]


def test_an_empty_start_segment_is_named_first() -> None:
    result = check(clock(start=4), "S3 S5 | M5 | S9 | | S2 M12 | S1 S7 M1 M2 M3 M7")
    assert result["violations"][0] == {
        "rule": "empty_segment",
        "segment": 4,
        "message": "Segment 4 has no card; every segment needs at least one.",
    }


def test_several_broken_rules_each_give_one_violation() -> None:
    one_one = get_clock("1-1")
    result = check(
        Clock("1-1", 1, 1, cap=24, rules=one_one.rules),
        "M3 S1 | | M5 | S2 | S9 M12 | S3 S7 M1 M2 M4 M11",
    )
    rules = [violation["rule"] for violation in result["violations"]]
    assert rules == ["empty_segment", "decreasing", "over_cap", "colours", "card_count"]


def test_clock_1_1_with_a_passing_and_a_failing_layout() -> None:
    one_one = get_clock("1-1")
    assert check(one_one, "S1 | M2 | M3 | S4 M1 | S5 M4 S2 S3 | S12 M12 M11")["passed"]
    result = check(one_one, "M1 | M2 | M3 | S4 S1 | S5 M4 S2 S3 | S12 M12 M11")
    assert [v["rule"] for v in result["violations"]] == ["colours"]
    assert result["violations"][0]["segment"] == 1


def test_placement_rules_without_the_play_order_are_listed_as_unchecked() -> None:
    ordered = clock(rules=[{"kind": "first_cards", "segments": [2, 1]}])
    result = check(ordered, EXAMPLE)
    assert result["passed"] and result["violations"] == []
    assert result["unchecked"][0]["rule"] == "first_cards"
    assert "order of play is unknown" in result["unchecked"][0]["message"]
    assert not validate(ordered, parse_layout(EXAMPLE)).conclusive


def test_placement_rules_with_the_play_order_are_checked() -> None:
    ordered = clock(rules=[{"kind": "first_cards", "segments": [2, 1]}])
    good = "S5@2 S3@1 M5@3 S9@4 S2@5 M12@5 S1@6 S7@6 M1@6 M2@6 M3@6 M7@6"
    bad = "S3@1 S5@2 M5@3 S9@4 S2@5 M12@5 S1@6 S7@6 M1@6 M2@6 M3@6 M7@6"
    assert check(ordered, good)["passed"] and check(ordered, good)["unchecked"] == []
    assert check(ordered, bad)["violations"][0]["rule"] == "first_cards"


def test_an_untranscribed_clock_checks_the_base_rules_and_says_the_rest_is_unknown() -> None:
    verdict = validate(get_clock("7-3"), parse_layout(EXAMPLE))
    assert verdict.passed and not verdict.special_rules_known and not verdict.conclusive
    assert verdict.to_json()["special_rules_known"] is False
    assert "not transcribed yet" in verdict.summary()
    assert not validate(get_clock("7-3"), parse_layout(LAST_25)).passed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_exist_in_every_language(lang: str) -> None:
    every = Clock.from_json(
        {
            "id": "9-4",
            "rules": [
                {"kind": "card_count", "segment": 1, "count": 2},
                {"kind": "colours", "segment": 2, "sun": 0, "moon": 2},
                {"kind": "value_range", "segment": 3, "min": 1, "max": 2},
                {"kind": "first_cards", "segments": [3, 3]},
                {"kind": "max_cards", "segment": 6, "count": 2},
                {"kind": "min_cards", "segment": 4, "count": 2},
                {"kind": "single_colour", "segment": 5},
                {"kind": "forbidden_values", "segment": 5, "values": [12]},
                {"kind": "equal_neighbours", "segments": [4, 5]},
                {"kind": "strictly_rising"},
            ],
        }
    )
    moves = "S3@1 S5@2 M5@3 S9@4 S2@5 M12@5 S1@6 S7@6 M1@6 M2@6 M3@6 M11@6"
    verdict = validate(every, parse_layout(moves), lang)
    assert len(verdict.violations) == 11  # every special rule and over_cap
    for violation in verdict.violations:
        assert violation.message and "{" not in violation.message
    assert json.loads(json.dumps(verdict.to_json(), ensure_ascii=False)) == verdict.to_json()
    assert verdict.summary().count("\n") >= 12


def test_validate_refuses_incomplete_layouts_and_unknown_languages() -> None:
    with pytest.raises(RulesError, match="exactly 12 cards"):
        validate(PLAIN, parse_layout("S1@1", complete=False))
    with pytest.raises(RulesError, match="Unknown language"):
        validate(PLAIN, parse_layout(EXAMPLE), "de")


SHUFFLED_CLOCK = Clock.from_json(
    {
        "id": "6-2",
        "start": 3,
        "rules": [
            {"kind": "card_count", "segment": 1, "count": 2},
            {"kind": "colours", "segment": 2, "sun": 1, "moon": 1},
            {"kind": "value_range", "segment": 3, "min": 4, "max": 9},
            {"kind": "single_colour", "segment": 5},
            {"kind": "forbidden_values", "segment": 6, "values": [12, 1]},
            {"kind": "equal_neighbours", "segments": [6, 1]},
            {"kind": "strictly_rising"},
            {"kind": "first_cards", "segments": [1, 2]},
        ],
    }
)


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    cards = draw(st.permutations(DECK))[:12]
    segments = [draw(st.integers(1, 6)) for _ in cards]
    return Layout.from_moves(
        Move(card, segment) for card, segment in zip(cards, segments, strict=True)
    )


@settings(max_examples=60)
@given(layouts(), st.randoms(use_true_random=False), st.sampled_from(LANGUAGES))
def test_verdicts_do_not_depend_on_the_card_order_within_a_segment(
    layout: Layout, rng: random.Random, lang: str
) -> None:
    shuffled = tuple(tuple(rng.sample(group, len(group))) for group in layout.segments)
    plain = Layout(layout.segments, layout.face_up)
    for test_clock in (SHUFFLED_CLOCK, PLAIN, get_clock("1-1")):
        expected = validate(test_clock, plain, lang).to_json()
        assert validate(test_clock, Layout(shuffled, layout.face_up), lang).to_json() == expected
        assert passes(test_clock, plain) is expected["passed"]
