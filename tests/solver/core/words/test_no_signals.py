"""What a plan says aloud stays within the game's rule: strategy agreed before the cards are
seen, no codes or signals that pass information outside a game action (docs/game.md)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rules.clock import Clock
from rules.seats import parse_colours
from solver.core import words
from solver.core.search import genes
from solver.core.words import plan_speech

# What a plan may talk about: each phrase of the words module is one of these subjects. A new
# phrase must be added here on purpose, after checking it passes nothing outside a game action.
SUBJECTS = {
    "seat": "who",
    "aim": "targets",
    "aim_split": "targets",
    "reading_from": "targets",
    "opener": "who opens",
    "owner": "who covers",
    "owner_plain": "who covers",
    "owners_plain": "who covers",
    "face_up": "face-up cards",
    "no_face_up": "face-up cards",
    "face_up_equal": "face-up cards",
    "only_owner_rule": "who covers",
    "only_owner": "who covers",
    "suns": "colours",
    "sun": "colours",
    "moons": "colours",
    "moon": "colours",
    "exactly": "colours",
    "lone": "where to place",
    "a_card": "where to place",
    "a_sun": "colours",
    "a_moon": "colours",
    "lone_cap": "targets",
    "described": "the clock's rules (a rule the table wrote in its own words)",
    "belief": "reading a placed card",
    "face_up_why": "face-up cards",
    "order_strong": "targets",
    "order_soft": "targets",
    "open": "where to place",
    "band": "where to place",
    "band_many": "where to place",
    "band_up": "where to place",
    "band_up_many": "where to place",
    # The exactly-twelve convention (plans.Plan.exact): where to place which values, and
    # how to read a placed card by where it went (a Sun on the last segment is the Sun 12,
    # like the rulebook's own "whoever holds a 12 opens").
    "exact_aim": "targets",
    "exact_lone": "where to place",
    "the_sun_12": "where to place",
    "the_moon_12": "where to place",
    "a_12": "where to place",
    "exact_open": "face-up cards",
    "exact_open_down": "where to place",
    "exact_own": "who covers",
    "exact_finish": "how to read a placed card",
    "exact_face_up": "face-up cards",
    "exact_rest": "where to place",
}
# Ways of passing information outside a game action: how, when or how fast a card is
# placed, gestures, sounds, looks, a card's angle.
SIGNALS = re.compile(
    r"\b(signal|code|crooked|angle|tilt|rotat|sideways|upside|tap|knock|pause|hesitat|wait|"
    r"quick|slow|fast|look at|glance|wink|nod|cough|sigh|gesture|touch|finger|point at)",
    re.IGNORECASE,
)


def test_every_phrase_a_plan_may_say_has_an_allowed_subject() -> None:
    assert set(words._T) == set(SUBJECTS)


def test_no_phrase_in_any_language_speaks_of_a_signal() -> None:
    for key, phrases in words._T.items():
        assert not SIGNALS.search(phrases["en"]), key


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_plans_the_search_can_say_hold_no_signal(players: int) -> None:
    seats = parse_colours(
        {2: "SSMM+SM/SMMM+SS", 3: "SSMM/SMMM/SSMM", 4: "SSM/MMS/SMS/MSM"}[players]
    )
    clock = Clock.from_json(
        {"id": "5-1", "start": 3, "rules": [{"kind": "colours", "segment": 4, "sun": 1, "moon": 0}]}
    )
    rng = np.random.default_rng(players)
    for _ in range(40):
        plan = genes.random_genes(rng, clock, players).plan(clock, seats)
        speech = plan_speech(plan, clock, seats, players, "en")
        text = " ".join((*speech.lines, *speech.details))
        assert not SIGNALS.search(text), text


def test_the_exactly_twelve_convention_holds_no_signal() -> None:
    seats = parse_colours("SSM/MMS/SMS/MSM")
    clock = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}]}
    )
    plan = genes.h_genes().plan(clock, seats).with_(exact=True)
    for lang in ("en", "nl", "ja"):
        speech = plan_speech(plan, clock, seats, 4, lang)
        assert "12" in speech.lines[0]
        if lang == "en":
            assert not SIGNALS.search(" ".join((*speech.lines, *speech.details)))
