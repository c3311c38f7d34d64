"""A rule Timekeeper does not know yet (``described``): kept in the table's words, never
judged, shared by its normalised words, and left out of what the solver plans with."""

from __future__ import annotations

from typing import Any

import pytest

from rules.canonical import canonical, differences, fingerprint
from rules.clock import Clock
from rules.kinds import rule_from_json
from rules.layout import parse_layout
from rules.svg import clock_svg
from rules.validate import validate

PASSING = "S1 | S2 | S3 M1 | S5 M2 M3 | S8 M4 | S9 M10 S4"  # 1 2 4 10 12 23: rising
NEAREST = "The segment nearest to 10 must hold a Moon"


def clock(*rules: dict[str, Any]) -> Clock:
    return Clock.from_json({"id": "4-2", "rules": list(rules)})


def test_a_described_rule_is_never_judged_and_is_listed_with_its_text() -> None:
    verdict = validate(
        clock({"kind": "described", "text": NEAREST, "segment": 4}), parse_layout(PASSING)
    )
    assert verdict.passed
    assert verdict.special_rules_known
    assert not verdict.conclusive
    (item,) = verdict.to_json()["unchecked"]
    assert item["rule"] == "described"
    assert item["segment"] == 4
    assert NEAREST in item["text"]
    assert "check it yourselves" in item["message"]


def test_known_rules_are_still_judged_beside_a_described_one() -> None:
    definition = clock(
        {"kind": "described", "text": NEAREST},
        {"kind": "card_count", "segment": 1, "count": 2},
    )
    verdict = validate(definition, parse_layout(PASSING))
    assert not verdict.passed
    assert [v.rule for v in verdict.violations] == ["card_count"]
    assert [v.rule for v in verdict.unchecked] == ["described"]


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_check_yourselves_sentence_is_in_every_language(lang: str) -> None:
    verdict = validate(
        clock({"kind": "described", "text": NEAREST}), parse_layout(PASSING), lang=lang
    )
    (item,) = verdict.unchecked
    assert NEAREST in item.message
    assert item.message != NEAREST


def test_the_same_words_typed_differently_share_a_fingerprint() -> None:
    ours = clock({"kind": "described", "text": "The segment  nearest to 10"})
    theirs = clock({"kind": "described", "text": "  the SEGMENT nearest\tto １０ "})
    other = clock({"kind": "described", "text": "The segment nearest to 11"})
    assert fingerprint(ours) == fingerprint(theirs)
    assert fingerprint(ours) != fingerprint(other)
    assert not differences(theirs, ours)
    assert differences(other, ours)


def test_a_described_rule_keeps_its_words_as_typed_until_made_canonical() -> None:
    rule = rule_from_json({"kind": "described", "text": "Nearest  to TEN"})
    assert rule.to_json() == {"kind": "described", "text": "Nearest  to TEN"}
    assert rule.describe("en") == "Nearest to TEN"
    (canon,) = canonical(clock(rule.to_json())).rules
    assert canon.to_json()["text"] == "nearest to ten"


def test_the_face_marks_the_segment_or_the_centre_and_carries_the_words() -> None:
    at_segment = clock_svg(clock({"kind": "described", "text": NEAREST, "segment": 2}))
    assert NEAREST in at_segment
    assert 'data-kind="described"' in at_segment or "described" in at_segment


def test_the_solver_plans_without_the_described_rules_and_knows_their_words() -> None:
    definition = clock(
        {"kind": "described", "text": NEAREST, "segment": 3},
        {"kind": "card_count", "segment": 1, "count": 2},
    )
    known = definition.known_rules()
    assert [rule.kind for rule in known.rules] == ["card_count"]
    assert definition.described_texts("en") == (f"Segment 3: {NEAREST}",)
    assert clock({"kind": "card_count", "segment": 1, "count": 2}).described_texts("en") == ()


def test_a_described_rule_counts_in_the_rule_limit() -> None:
    from rules.errors import RulesError

    many = [{"kind": "described", "text": f"rule {n}"} for n in range(41)]
    with pytest.raises(RulesError):
        clock(*many)
