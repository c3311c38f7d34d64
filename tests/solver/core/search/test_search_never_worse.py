"""The search on slips never recommends a plan worse than the clean search's, and no search
recommends a plan that its prior matches on the fresh deals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver.core.search import choice, genes, search_run
from solver.core.search.hint_result import HintResult
from solver.core.search.search import recommend
from solver.core.table.plans import Plan
from solver.core.table.simulate import draw_slips, draw_values, pass_count

QUICK = 0.05

# Small cases: a colour rule at 3 players (where the two searches once parted ways), a card
# count at 2, a first-cards rule at 4.
CASES = [
    (
        Clock.from_json(
            {"id": "5-1", "rules": [{"kind": "colours", "segment": 1, "sun": 1, "moon": 0}]}
        ),
        "SSMM/SMMM/SSMM",
        3,
    ),
    (
        Clock.from_json({"id": "5-1", "rules": [{"kind": "card_count", "segment": 6, "count": 3}]}),
        "SSMM+SM/SMMM+SS",
        2,
    ),
    (
        Clock.from_json({"id": "5-1", "rules": [{"kind": "first_cards", "segments": [3, 5]}]}),
        "SSM/MMS/SMS/MSM",
        4,
    ),
]


@pytest.mark.slow  # two searches per case, six cases
@pytest.mark.parametrize(("clock", "colours", "face_up"), CASES)
@pytest.mark.parametrize("seed", [0, 11])
def test_the_plan_chosen_on_slips_is_never_worse_than_the_clean_searchs(
    clock: Clock, colours: str, face_up: int, seed: int
) -> None:
    seats = parse_colours(colours)
    hint = recommend(clock, seats, face_up, seed=seed, effort=QUICK, compute_odds=False)
    clean_pick = recommend(
        clock, seats, face_up, seed=seed, effort=QUICK, compute_odds=False, slip_rate=0.0
    ).plan
    # Both plans on the hint's own fresh deals, with the same slips.
    games = hint.games
    rates = _on_fresh_deals(clock, seats, face_up, seed, hint)
    mine, theirs = rates(hint.plan), rates(clean_pick)
    assert hint.pass_rate_with_slips is not None
    assert mine == (round(hint.pass_rate * games), round(hint.pass_rate_with_slips * games))
    assert mine[1] >= theirs[1], (mine, theirs)
    assert mine[0] >= theirs[0] - 0.02 * games or mine[1] > theirs[1] + 0.02 * games


def test_the_rule_that_decides_between_the_two_searches() -> None:
    never_worse = choice.never_worse
    assert not never_worse((600, 500), (600, 500), 1000)  # the same: the pick is kept
    assert not never_worse((700, 499), (600, 500), 1000)  # one fewer with slips
    assert not never_worse((700, 505), (600, 500), 1000)  # 0.005 up with slips: maybe luck
    assert never_worse((600, 506), (600, 500), 1000)  # 0.006 up: a lead
    assert never_worse((581, 507), (600, 500), 1000)  # clean 0.019 lower: within 0.02
    assert not never_worse((579, 520), (600, 500), 1000)  # clean 0.021 lower, slips only 0.02 up
    assert never_worse((500, 521), (600, 500), 1000)  # slips more than 0.02 up pays for it


BASE = Clock("2-1", 2, 1)  # no special rule: the prior is where long searches ended


@pytest.mark.slow  # two searches per case
@pytest.mark.parametrize(
    ("colours", "face_up", "seed"),
    # Seeds where the quick search, without the prior held, wandered to a plan no better.
    [("SSM/MMS/SMS/MSM", 4, 5), ("SSMM/SMSM/MMSS", 3, 2), ("SSMM+SM/SMMM+SS", 2, 1)],
)
def test_a_plan_that_does_not_beat_the_prior_is_not_recommended(
    colours: str, face_up: int, seed: int
) -> None:
    clock = BASE
    seats = parse_colours(colours)
    prior = genes.prior_for(seats.players).plan(clock, seats)
    effort = 0.2
    clean = recommend(
        clock, seats, face_up, seed=seed, effort=effort, compute_odds=False, slip_rate=0.0
    )
    hint = recommend(clock, seats, face_up, seed=seed, effort=effort, compute_odds=False)
    games = hint.games
    rates = _on_fresh_deals(clock, seats, face_up, seed, hint)

    def clean_rates(plan: Plan) -> tuple[int, int]:
        won = rates(plan)[0]  # one play of the plan, not two
        return won, won

    # The clean search: its prior, or a plan that passes more clean deals.
    assert clean.plan == prior or not choice.never_worse(
        clean_rates(prior), clean_rates(clean.plan), games, lead=0.0
    )
    # The search on slips: its prior, the clean search's plan (never worse than that one),
    # or a plan that passes more deals with slips than the prior.
    assert hint.plan in (prior, clean.plan) or not choice.never_worse(
        rates(prior), rates(hint.plan), games, lead=0.0
    )


def _on_fresh_deals(
    clock: Clock, seats: Seats, face_up: int, seed: int, hint: HintResult
) -> Callable[[Plan], tuple[int, int]]:
    """A plan's passes (clean, with slips) on the hint's own fresh deals and slips."""
    games = hint.games
    fresh_seed = search_run.seed_for(seed, search_run.FRESH)
    values, slips = draw_values(seats, games, fresh_seed), draw_slips(games, fresh_seed)

    def rates(plan: Plan) -> tuple[int, int]:
        return (
            pass_count(clock, seats, plan, face_up, values),
            pass_count(clock, seats, plan, face_up, values, "auto", hint.slip_rate, slips),
        )

    return rates
