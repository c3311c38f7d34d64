"""Every rule kind: parameters, pass and fail at the boundaries, wording, JSON round trip."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from rules.errors import RulesError
from rules.i18n import LANGUAGES
from rules.kinds import RULE_KINDS, Resolution, Rule, register, rule_from_json
from rules.kinds.base import Segment
from rules.layout import Layout, parse_layout
from rules.validate import reading_order

# Sums 3, 5, 5, 9, 14, 21; segment 5 is S2 M12, segment 6 is S1 S7 M1 M2 M3 M7.
EXAMPLE = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7"


def resolve(layout: Layout | str, start: int = 1) -> Resolution:
    if isinstance(layout, str):
        layout = parse_layout(layout)
    values = tuple(layout.sums[segment - 1] for segment in reading_order(start))
    return Resolution(layout, start, values)


def rule(**data: Any) -> Rule:
    return rule_from_json(data)


def holds(data: dict[str, Any], layout: str = EXAMPLE, start: int = 1) -> bool:
    built = rule(**data)
    result = built.check(resolve(layout, start))
    assert (result is None) == built.holds(resolve(layout, start))
    return result is None


REQUIRED = {
    "card_count",
    "colours",
    "value_range",
    "first_cards",
    "max_cards",
    "min_cards",
    "single_colour",
    "forbidden_values",
    "equal_neighbours",
    "strictly_rising",
    "described",
}

SAMPLES: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "colours", "segment": 1, "sun": 1, "moon": 0},
    {"kind": "value_range", "segment": 3, "min": 5, "max": 10},
    {"kind": "first_cards", "segments": [2, 5]},
    {"kind": "max_cards", "segment": 2, "count": 2},
    {"kind": "min_cards", "segment": 4, "count": 3},
    {"kind": "single_colour", "segment": 5},
    {"kind": "single_colour", "segment": 5, "colour": "M"},
    {"kind": "forbidden_values", "segment": 2, "values": [7, 8]},
    {"kind": "equal_neighbours", "segments": [6, 1]},
    {"kind": "strictly_rising"},
    {"kind": "described", "text": "The segment nearest to 10 wins"},
    {"kind": "described", "text": "区画3は7に最も近い", "segment": 3},
]


def test_every_required_kind_is_registered() -> None:
    assert set(RULE_KINDS) >= REQUIRED


@pytest.mark.parametrize("data", SAMPLES, ids=lambda data: data["kind"])
def test_a_rule_round_trips_through_json(data: dict[str, Any]) -> None:
    assert rule(**data).to_json() == data
    assert rule_from_json(rule(**data).to_json()) == rule(**data)


@pytest.mark.parametrize("data", SAMPLES, ids=lambda data: data["kind"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_is_worded_in_every_language(data: dict[str, Any], lang: str) -> None:
    text = rule(**data).describe(lang)
    assert text and "{" not in text
    assert rule(**data).label()


def test_wording_is_readable_in_english() -> None:
    assert rule(**SAMPLES[0]).describe() == "Segment 6 must hold exactly 3 cards."
    assert rule(**SAMPLES[1]).describe() == (
        "Segment 1 must hold exactly 1 Sun card and no Moon card."
    )
    assert rule(**SAMPLES[1]).describe("nl") == (
        "Segment 1 moet precies 1 zonkaart en geen maankaart hebben."
    )


# --- parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize("data", SAMPLES, ids=lambda data: data["kind"])
def test_a_kinds_dataclass_fields_are_exactly_its_parameters(data: dict[str, Any]) -> None:
    cls = RULE_KINDS[data["kind"]]
    assert set(cls.__dataclass_fields__) == set(cls.parameters()) >= set(data) - {"kind"}


def test_parameters_say_what_they_take() -> None:
    assert RULE_KINDS["card_count"].parameters() == {
        "segment": "segment 1–6",
        "count": "number of cards 0–12",
    }
    assert RULE_KINDS["single_colour"].parameters()["colour"] == '"S" or "M" (optional)'
    assert RULE_KINDS["forbidden_values"].parameters()["values"] == "list of card value 1–12"
    assert RULE_KINDS["strictly_rising"].parameters() == {}


def test_check_accepts_a_layout_and_a_start_segment() -> None:
    layout = parse_layout("S3 | S5 | M6 | S9 | S2 M12 | S1 S7 M1 M2 M3 M8")
    rising = rule(kind="strictly_rising")
    assert rising.check(layout) is None
    violation = rising.check(layout, start=2)
    assert violation is not None and violation.segment == 1
    assert rule(kind="card_count", segment=1, count=2).check(layout, "nl") is not None


@pytest.mark.parametrize(
    ("data", "reason", "field"),
    [
        ({"kind": "nope"}, "Unknown rule kind 'nope'", "kind"),
        ({"segment": 1}, "Unknown rule kind None", "kind"),
        ({"kind": "card_count", "segment": 6}, "needs the parameter 'count'", "count"),
        ({"kind": "card_count", "segment": 6, "count": 3, "x": 1}, "no parameter 'x'", "x"),
        ({"kind": "card_count", "segment": 7, "count": 3}, "Segment 7 does not exist", "segment"),
        ({"kind": "card_count", "segment": 0, "count": 3}, "Segment 0 does not exist", "segment"),
        ({"kind": "card_count", "segment": "1", "count": 3}, "segment is a number", "segment"),
        ({"kind": "card_count", "segment": 1, "count": 13}, "from 0 to 12", "count"),
        ({"kind": "card_count", "segment": 1, "count": 0}, "needs a card", "count"),
        ({"kind": "card_count", "segment": 1, "count": True}, "whole number", "count"),
        ({"kind": "colours", "segment": 1, "sun": 0, "moon": 0}, "at least 1", "sun"),
        ({"kind": "colours", "segment": 1, "sun": 7, "moon": 6}, "at most 12", "sun"),
        ({"kind": "value_range", "segment": 1, "min": 9, "max": 8}, "cannot be greater", "min"),
        ({"kind": "value_range", "segment": 1, "min": -1, "max": 8}, "from 0 to 144", "min"),
        ({"kind": "first_cards", "segments": [1]}, "two segments", "segments"),
        ({"kind": "first_cards", "segments": [1, 9]}, "Segment 9 does not exist", "segments"),
        ({"kind": "first_cards", "segments": 1}, "must be a list", "segments"),
        ({"kind": "max_cards", "segment": 1, "count": 0}, "needs a card", "count"),
        ({"kind": "min_cards", "segment": 1, "count": 0}, "from 1 to 12", "count"),
        ({"kind": "single_colour", "segment": 1, "colour": "X"}, "'S' or 'M'", "colour"),
        ({"kind": "forbidden_values", "segment": 1, "values": []}, "at least one", "values"),
        ({"kind": "forbidden_values", "segment": 1, "values": [3, 3]}, "once", "values"),
        ({"kind": "forbidden_values", "segment": 1, "values": [13]}, "from 1 to 12", "values"),
        ({"kind": "equal_neighbours", "segments": [1, 3]}, "not neighbours", "segments"),
        ({"kind": "equal_neighbours", "segments": [2, 2]}, "not neighbours", "segments"),
        ({"kind": "strictly_rising", "segment": 1}, "no parameter 'segment'", "segment"),
        ({"kind": "described", "text": ""}, "1 to 200 characters, not 0", "text"),
        ({"kind": "described", "text": "   "}, "1 to 200 characters, not 0", "text"),
        ({"kind": "described", "text": "x" * 201}, "not 201", "text"),
        ({"kind": "described", "text": 7}, "must be text", "text"),
        ({"kind": "described", "text": "ok", "segment": 7}, "Segment 7", "segment"),
        ({"kind": "described", "segment": 2}, "needs the parameter 'text'", "text"),
    ],
)
def test_bad_parameters_are_refused_with_a_reason(
    data: dict[str, Any], reason: str, field: str
) -> None:
    with pytest.raises(RulesError, match=reason) as error:
        rule_from_json(data)
    assert error.value.field == field


def test_a_rule_is_a_json_object() -> None:
    with pytest.raises(RulesError, match="JSON object"):
        rule_from_json(["card_count"])


# --- card_count, max_cards, min_cards -------------------------------------------------------


@pytest.mark.parametrize(("count", "kept"), [(5, False), (6, True), (7, False)])
def test_card_count_is_exact(count: int, kept: bool) -> None:
    assert holds({"kind": "card_count", "segment": 6, "count": count}) is kept


@pytest.mark.parametrize(("count", "kept"), [(5, False), (6, True), (7, True)])
def test_max_cards_allows_up_to_the_count(count: int, kept: bool) -> None:
    assert holds({"kind": "max_cards", "segment": 6, "count": count}) is kept


@pytest.mark.parametrize(("count", "kept"), [(5, True), (6, True), (7, False)])
def test_min_cards_needs_at_least_the_count(count: int, kept: bool) -> None:
    assert holds({"kind": "min_cards", "segment": 6, "count": count}) is kept


def test_card_count_explains_what_it_found() -> None:
    violation = rule(kind="card_count", segment=6, count=3).check(resolve(EXAMPLE))
    assert violation is not None
    assert violation.rule == "card_count" and violation.segment == 6
    assert violation.message == "Segment 6 must hold exactly 3 cards, but it holds 6."


# --- colours, single_colour -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("sun", "moon", "kept"), [(1, 1, True), (2, 0, False), (0, 2, False), (1, 2, False)]
)
def test_colours_counts_each_colour_exactly(sun: int, moon: int, kept: bool) -> None:
    assert holds({"kind": "colours", "segment": 5, "sun": sun, "moon": moon}) is kept


def test_colours_says_what_the_segment_holds() -> None:
    violation = rule(kind="colours", segment=5, sun=2, moon=0).check(resolve(EXAMPLE))
    assert violation is not None
    assert violation.message.endswith("but it holds 1 Sun card and 1 Moon card.")


@pytest.mark.parametrize(
    ("segment", "colour", "kept"),
    [(1, None, True), (5, None, False), (1, "S", True), (3, "S", False), (3, "M", True)],
)
def test_single_colour(segment: int, colour: str | None, kept: bool) -> None:
    data: dict[str, Any] = {"kind": "single_colour", "segment": segment}
    if colour:
        data["colour"] = colour
    assert holds(data) is kept


def test_single_colour_names_the_card_of_the_wrong_colour() -> None:
    violation = rule(kind="single_colour", segment=5, colour="S").check(resolve(EXAMPLE))
    assert violation is not None and "M12" in violation.message


# --- value_range, forbidden_values, equal_neighbours ----------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "kept"),
    [(14, 14, True), (15, 20, False), (10, 13, False), (0, 14, True), (14, 144, True)],
)
def test_value_range_includes_both_bounds(low: int, high: int, kept: bool) -> None:
    assert holds({"kind": "value_range", "segment": 5, "min": low, "max": high}) is kept


def test_value_range_says_the_value() -> None:
    violation = rule(kind="value_range", segment=5, min=1, max=10).check(resolve(EXAMPLE))
    assert violation is not None and violation.message.endswith("but it is 14.")


@pytest.mark.parametrize(("values", "kept"), [([12], False), ([11, 12], False), ([1, 3], True)])
def test_forbidden_values_at_the_segment(values: list[int], kept: bool) -> None:
    assert holds({"kind": "forbidden_values", "segment": 5, "values": values}) is kept


def test_forbidden_values_of_either_colour() -> None:
    assert not holds({"kind": "forbidden_values", "segment": 5, "values": [2]})
    assert holds({"kind": "forbidden_values", "segment": 4, "values": [2, 12]})


def test_equal_neighbours() -> None:
    assert holds({"kind": "equal_neighbours", "segments": [2, 3]})
    assert not holds({"kind": "equal_neighbours", "segments": [3, 4]})
    violation = rule(kind="equal_neighbours", segments=[6, 1]).check(resolve(EXAMPLE))
    assert violation is not None
    assert violation.segment == 6 and "21 and 3" in violation.message


# --- strictly_rising ------------------------------------------------------------------------


def test_strictly_rising_refuses_ties() -> None:
    violation = rule(kind="strictly_rising").check(resolve(EXAMPLE))
    assert violation is not None
    assert violation.segment == 3 and violation.message.endswith("segment 3 has 5 after 5.")


def test_strictly_rising_passes_rising_values_and_reads_from_the_start() -> None:
    rising = "S3 | S5 | M6 | S9 | S2 M12 | S1 S7 M1 M2 M3 M8"
    assert holds({"kind": "strictly_rising"}, rising)
    # From segment 2 the values read 5, 6, 9, 14, 22, 3: the wrap-around breaks it.
    violation = rule(kind="strictly_rising").check(resolve(rising, start=2))
    assert violation is not None and violation.segment == 1


def test_strictly_rising_is_a_centre_rule() -> None:
    assert rule(kind="strictly_rising").first_segment() is None
    assert rule(kind="strictly_rising").anchors() == ((None, "<"),)


# --- first_cards (placement) ----------------------------------------------------------------

MOVES = "S3@1 S5@2 M5@3 S9@4 S2@5 M12@5 S1@6 S7@6 M1@6 M2@6 M3@6 M7@6"


def test_first_cards_is_a_placement_rule() -> None:
    assert rule(kind="first_cards", segments=[1, 2]).restricts_placement
    assert not rule(kind="card_count", segment=1, count=1).restricts_placement


@pytest.mark.parametrize(
    ("segments", "kept", "named"), [([1, 2], True, None), ([2, 2], False, 2), ([1, 3], False, 3)]
)
def test_first_cards_checks_the_first_two_moves(
    segments: list[int], kept: bool, named: int | None
) -> None:
    violation = rule(kind="first_cards", segments=segments).check(resolve(MOVES))
    assert (violation is None) is kept
    if violation is not None:
        assert violation.segment == named


def test_first_cards_explains_the_misplaced_card() -> None:
    violation = rule(kind="first_cards", segments=[1, 3]).check(resolve(MOVES))
    assert violation is not None
    assert violation.message == (
        "The group's second card must go to segment 3, but it went to segment 2."
    )


def test_first_cards_restricts_only_the_first_two_moves() -> None:
    first = rule(kind="first_cards", segments=[4, 4])
    moves = parse_layout(MOVES).moves
    assert moves is not None
    assert first.check_move((), moves[0]) == "The group's first card must go to segment 4."
    assert first.check_move((), moves[3]) is None
    assert first.check_move(moves[3:4], moves[0]) is not None
    assert first.check_move(moves[3:5], moves[0]) is None


def test_other_kinds_accept_every_move() -> None:
    moves = parse_layout(MOVES).moves
    assert moves is not None
    assert rule(kind="card_count", segment=1, count=1).check_move((), moves[0]) is None


# --- the registry ---------------------------------------------------------------------------


def test_a_new_kind_registers_with_the_decorator_alone() -> None:
    @register
    @dataclass(frozen=True, slots=True)
    class OddSegment(Rule):
        kind = "test_odd_segment"
        wording = {"en": "Segment {segment} must be odd.", "nl": "x", "ja": "x"}

        segment: Segment

        def holds(self, resolution: Resolution) -> bool:
            return resolution.layout.sums[self.segment - 1] % 2 == 1

        def explain(self, resolution: Resolution, lang: str) -> str:
            return self.describe(lang)

    try:
        built = rule_from_json({"kind": "test_odd_segment", "segment": 1})
        assert built.check(resolve(EXAMPLE)) is None
        assert built.describe() == "Segment 1 must be odd."
        with pytest.raises(RulesError, match="Segment 8"):
            rule_from_json({"kind": "test_odd_segment", "segment": 8})
    finally:
        del RULE_KINDS["test_odd_segment"]


def test_a_kind_name_cannot_be_registered_twice() -> None:
    with pytest.raises(TypeError, match="twice"):

        @register
        class Impostor(Rule):
            kind = "card_count"
