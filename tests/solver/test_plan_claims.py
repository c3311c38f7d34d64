"""A plan's tab claims only what its figures on the page show: "best when someone slips now
and then" once stood on the recommended plan showing 81% with slips next to a bold plan's
82%. Japanese claims are joined the Japanese way."""

from __future__ import annotations

import itertools
from typing import Any

from django.utils import translation

from solver.results import claims

SLIPS = "best when someone slips now and then"
CLEAN = "best if nobody slips"
EASY = "easiest to remember"


def plan(kinds: list[str], clean: float, slips: float, sentences: int) -> dict[str, Any]:
    return {
        "kinds": kinds,
        "pass_rate": clean,
        "pass_rate_with_slips": slips,
        "sentences": sentences,
    }


def test_the_recommended_plan_does_not_claim_a_slip_rate_another_beats() -> None:
    plans = [plan(["recommended"], 0.84, 0.81, 3), plan(["bold"], 0.88, 0.82, 4)]
    said = claims(plans, slips=True)
    assert SLIPS not in said[0]
    assert said[1] == CLEAN


def test_without_slips_shown_no_plan_claims_to_be_best_with_them() -> None:
    said = claims([plan(["recommended", "bold"], 0.9, 0.85, 3)], slips=False)
    assert said == [CLEAN]


def test_every_claim_matches_the_figures_shown() -> None:
    """Over a grid of rates as the tabs show them (whole percentages)."""
    rates = (0.70, 0.804, 0.806, 0.81)
    for a, b, c, d in itertools.product(rates, repeat=4):
        plans = [
            plan(["recommended"], a, b, 3),
            plan(["simplest"], c, d, 2),
            plan(["bold"], max(a, c) + 0.01, min(b, d), 5),
        ]
        said = claims(plans, slips=True)
        shown = [round(p["pass_rate_with_slips"] * 100) for p in plans]
        assert (SLIPS in said[0]) == (shown[0] == max(shown)), (plans, said)
        assert said[1] == EASY and said[2] == CLEAN


def test_japanese_claims_are_not_joined_with_an_ascii_semicolon() -> None:
    plans = [plan(["recommended", "simplest", "bold"], 0.9, 0.85, 2)]
    with translation.override("ja"):
        said = claims(plans, slips=True)[0]
    assert "; " not in said and "、" in said
