"""Plan labels across the panel's clocks (``bench.bench_panel.PANEL``: every rule kind at
least once, at 2, 3 and 4 players): the real search runs on each clock, and every plan it
offers claims only what its own figures on the page show — "best when someone slips now
and then" once stood on a plan showing 81% with slips beside another plan's 82%.

The smallest effort that still gives real plans (several alternatives on most clocks),
without the odds: the labels do not read them."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_panel import PANEL, Case
from rules.hint_result import AlternativeJson
from solver.core.search.search import recommend
from solver.results import claims, offered, result_json

pytestmark = pytest.mark.slow

EFFORT = 0.05
SLIPS = "best when someone slips now and then"
CLEAN = "best if nobody slips"
EASY = "easiest to remember"


def shown(rate: Any) -> int:
    """A rate as a plan's tab shows it: a whole percentage."""
    return round(float(rate) * 100)


def judged(case: Case) -> list[tuple[AlternativeJson, str]]:
    result = recommend(case.clock(), case.seats(), case.players, effort=EFFORT, compute_odds=False)
    plans = offered(result_json(result, "en"))
    return list(zip(plans, claims(plans, slips=True), strict=True))


@pytest.mark.parametrize("case", PANEL, ids=[case.name for case in PANEL])
def test_every_label_on_the_panel_matches_its_plans_figures(case: Case) -> None:
    labelled = judged(case)
    plans = [plan for plan, _ in labelled]
    best_slips = max(shown(p["pass_rate_with_slips"]) for p in plans)
    best_clean = max(shown(p["pass_rate"]) for p in plans)
    fewest = min(p["sentences"] for p in plans)
    for plan, said in labelled:
        figures = (shown(plan["pass_rate"]), shown(plan["pass_rate_with_slips"]), plan["sentences"])
        where = (case.name, plan["kinds"], figures, said, best_clean, best_slips, fewest)
        # A claim the figures do not show is never made...
        assert SLIPS not in said or figures[1] == best_slips, where
        assert CLEAN not in said or figures[0] == best_clean, where
        assert EASY not in said or figures[2] == fewest, where
        # ...and a role's claim that they do show is not left out.
        assert (SLIPS in said) == ("recommended" in plan["kinds"] and figures[1] == best_slips)
        assert (CLEAN in said) == ("bold" in plan["kinds"] and figures[0] == best_clean)
        assert (EASY in said) == ("simplest" in plan["kinds"] and figures[2] == fewest)
    assert plans[0]["kinds"][0] == "recommended", case.name
