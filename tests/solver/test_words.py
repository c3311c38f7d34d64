"""A plan said aloud in English, Dutch and Japanese."""

from __future__ import annotations

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.plans import Plan, baseline_plan, h_plan
from solver.core.words import all_words, plan_words

CLOCK = Clock("2-1", 2, 1)
THREE = parse_colours("SSMM/SMSM/MMSS")


def test_shaped_targets_are_said_as_low_then_high() -> None:
    words = plan_words(h_plan(CLOCK, THREE), CLOCK, THREE, 3, "en")
    assert words.startswith("Aim for about 5, 7, 9, then 17, 20 and 23.")
    assert "We may play 3 face up" in words
    assert "Seat 1 opens." in words


def test_even_targets_are_said_in_one_breath() -> None:
    words = plan_words(baseline_plan(CLOCK, THREE, 3), CLOCK, THREE, 3, "en")
    assert words.startswith("Aim for about 4, 8, 12, 16, 20 and 24.")


def test_the_owner_of_a_colour_rule_is_told_by_name() -> None:
    clock = get_clock("1-1")
    seats = parse_colours("MMMM/SSMM/MMSS")
    plan = baseline_plan(clock, seats, 3)
    words = plan_words(plan, clock, seats, 3, "en", names=["Ann", "Bea", "Cas"])
    assert "Bea, you hold 2 Suns: segment 1 is yours (exactly one Sun)" in words
    assert "Segment 6 must hold exactly 3 cards." in words


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_every_language_names_the_targets_and_the_opener(lang: str) -> None:
    plan = Plan(targets=(3, 6, 9, 15, 19, 22), opener=2)
    words = all_words(plan, CLOCK, THREE, 3)[lang]
    for target in ("3", "6", "9", "15", "19", "22"):
        assert target in words
    assert {"en": "Seat 2", "nl": "Stoel 2", "ja": "席2"}[lang] in words


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        plan_words(h_plan(CLOCK, THREE), CLOCK, THREE, 3, "fr")


def test_a_band_shared_by_the_high_piles_is_said_once() -> None:
    plan = h_plan(CLOCK, THREE).with_(bands={4: (8, 12), 5: (8, 12), 6: (8, 12)})
    words = plan_words(plan, CLOCK, THREE, 3, "en")
    assert "On segments 4, 5 and 6, play cards of 8 or more when you can." in words
    assert "Op de segmenten 4, 5 en 6" in plan_words(plan, CLOCK, THREE, 3, "nl")
