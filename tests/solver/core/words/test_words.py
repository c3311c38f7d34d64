"""A plan said aloud in English, Dutch and Japanese: at most three short lines (targets; who
opens; face-up cards), the fine print behind "Why / details"."""

from __future__ import annotations

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.table.plans import Plan, baseline_plan, h_plan
from solver.core.words import all_words, plan_speech, plan_words

CLOCK = Clock("2-1", 2, 1)
THREE = parse_colours("SSMM/SMSM/MMSS")


def test_shaped_targets_are_said_as_low_then_high() -> None:
    words = plan_words(h_plan(CLOCK, THREE), CLOCK, THREE, 3, "en")
    assert words.startswith("Aim for about 5, 7, 9, then 17, 20 and 23.")
    assert "We may play 3 face up" in words
    assert "Seat 1 opens." in words


def test_the_plan_said_aloud_is_three_lines_targets_opener_face_up() -> None:
    plan = h_plan(CLOCK, THREE).with_(opener=2, face_up_threshold=4.2)
    speech = plan_speech(plan, CLOCK, THREE, 3, "en")
    assert speech.lines == (
        "Aim for about 5, 7, 9, then 17, 20 and 23.",
        "Seat 2 opens.",
        "We may play 3 face up: any card 4 or more away from our guess.",
    )
    assert speech.said() == " ".join(speech.lines) == plan_words(plan, CLOCK, THREE, 3, "en")
    assert plan_speech(plan, CLOCK, THREE, 0, "en").lines[2] == "No card goes face up."


@pytest.mark.parametrize("clock_id", ["1-1", "2-1", "rebirth"])
@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_every_plan_is_at_most_three_short_lines_in_every_language(
    clock_id: str, lang: str
) -> None:
    clock = get_clock(clock_id)
    clock = clock if clock.transcribed else clock.base_rules_only()
    four = parse_colours("SMS/MSM/SSM/MMS")
    for plan in (h_plan(clock, four), baseline_plan(clock, four, 4)):
        speech = plan_speech(plan, clock, four, 4, lang, names=["Ann", "Bea", "Cas", "Dee"])
        assert 1 <= len(speech.lines) <= 3
        # Short enough to repeat: no line as long as the old one-paragraph plan.
        assert all(len(line) <= (80 if lang == "ja" else 130) for line in speech.lines)


def test_the_belief_convention_is_fine_print_in_plain_words() -> None:
    plan = h_plan(CLOCK, THREE).with_(need_weight=0.66)
    speech = plan_speech(plan, CLOCK, THREE, 3, "en")
    assert not any("face-down card" in line for line in speech.lines)
    # 0.66 · 10 + 0.34 · 6.5 = 8.8 and 0.66 · 2 + 0.34 · 6.5 = 3.5: the examples say 9 and 4
    (belief,) = [d for d in speech.details if d.startswith("Reading a face-down card")]
    assert "count it as about 9" in belief and "as about 4" in belief
    assert "%" not in belief
    half = plan_speech(plan.with_(need_weight=0.0), CLOCK, THREE, 3, "en")
    assert "about 6; where 2 was missing, as about 6" in " ".join(half.details)


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_every_language_has_the_fine_print(lang: str) -> None:
    clock = get_clock("1-1")
    seats = parse_colours("MMMM/SSMM/MMSS")
    speech = plan_speech(baseline_plan(clock, seats, 3), clock, seats, 3, lang)
    rule = {"en": "Segment 6 must hold", "nl": "Segment 6 moet", "ja": "第6区画"}[lang]
    assert any(rule in d for d in speech.details)
    assert not any(rule in line for line in speech.lines)
    assert len(speech.details) >= 4


def test_even_targets_are_said_in_one_breath() -> None:
    words = plan_words(baseline_plan(CLOCK, THREE, 3), CLOCK, THREE, 3, "en")
    assert words.startswith("Aim for about 4, 8, 12, 16, 20 and 24.")


def test_the_owner_of_a_colour_rule_is_told_by_name() -> None:
    clock = get_clock("1-1")
    seats = parse_colours("MMMM/SSMM/MMSS")
    plan = baseline_plan(clock, seats, 3)
    speech = plan_speech(plan, clock, seats, 3, "en", names=["Ann", "Bea", "Cas"])
    assert "Bea, you hold 2 Suns: segment 1 is yours." in speech.lines[1]
    assert "Segment 1 must hold exactly one Sun, so only Bea plays there." in speech.details
    assert "Segment 6 must hold exactly 3 cards." in speech.details


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
    details = plan_speech(plan, CLOCK, THREE, 3, "en").details
    assert details.count("On segments 4, 5 and 6, play cards of 8 or more when you can.") == 1
    assert "Op de segmenten 4, 5 en 6" in " ".join(plan_speech(plan, CLOCK, THREE, 3, "nl").details)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Cards on segments 2 and 3 go face up while we may, so they can be matched."),
        ("nl", "Kaarten op de segmenten 2 en 3 gaan open zolang het mag"),
        ("ja", "区画2、3のカードは"),
    ],
)
def test_equal_neighbours_cards_go_face_up_and_the_table_says_so(lang: str, said: str) -> None:
    # The players play them face up while the budget lasts (agents), so the plan says it.
    equal = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "equal_neighbours", "segments": [3, 2]}]}
    )
    lines = plan_speech(h_plan(equal, THREE), equal, THREE, 3, lang).lines
    assert len(lines) == 3 and said in lines[2]
    assert "face_up" not in lines[2]
    # Without face-up cards, or without the rule, nothing of the kind is said.
    assert said not in plan_speech(h_plan(equal, THREE), equal, THREE, 0, lang).said()
    assert said not in plan_speech(h_plan(CLOCK, THREE), CLOCK, THREE, 3, lang).said()
