"""A clock's own prior (``solver.core.search.clock_prior``): which clocks get one, how it is found
and stored, and that a search started from it keeps it unless it finds better."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.search import choice, clock_prior, genes
from solver.core.search.search import recommend, recommend_genes
from solver.core.search.search_run import FRESH, Run, seed_for
from solver.core.search.symmetry import pattern_classes
from solver.core.table.simulate import draw_slips, draw_values, pass_count

CARD_COUNT = Clock.from_json(
    {"id": "5-1", "rules": [{"kind": "card_count", "segment": 6, "count": 3}]}
)
QUICK = 0.05


def test_clocks_with_special_rules_the_compiled_engine_plays_get_a_prior_of_their_own(
    no_twelve_clock: Clock,
) -> None:
    assert clock_prior.has_own_prior(CARD_COUNT)
    assert not clock_prior.has_own_prior(Clock("2-1", 2, 1))  # base rules: the table's prior
    assert not clock_prior.has_own_prior(no_twelve_clock)  # the reference engine's token search
    untranscribed = replace(CARD_COUNT, transcribed=False)
    assert not clock_prior.has_own_prior(untranscribed)
    assert clock_prior.search_prior(Clock("2-1", 2, 1), 3) is None


def test_the_long_searches_play_the_colours_dealt_most_often() -> None:
    for players in (2, 3, 4):
        tables = clock_prior.prior_tables(players)
        assert len(tables) == clock_prior.PRIOR_PATTERNS
        assert all(seats.players == players for seats in tables)
        names = [c.colours for c in pattern_classes(players)]
        assert [seats.format() for seats in tables] == names[: len(tables)]


def test_a_stored_prior_reads_back_as_the_same_genes_and_nothing_else_reads() -> None:
    for players in (2, 3, 4):
        g = genes.prior_for(players)
        data = clock_prior.genes_to_json(g)
        assert clock_prior.genes_from_json(data) == g
    data = clock_prior.genes_to_json(genes.prior_for(3))
    bad: object
    for bad in (
        {},
        {**data, "extra": 1},
        {k: v for k, v in data.items() if k != "split"},
        {**data, "low": [1.0]},
        {**data, "high": "high"},
        {**data, "need_weight": None},
        {**data, "low": [float("nan"), 3.0]},
        [],
    ):
        with pytest.raises(ValueError, match="not a stored prior"):
            clock_prior.genes_from_json(bad)  # type: ignore[arg-type]


def test_the_genes_returned_are_those_of_the_plan_recommended() -> None:
    seats = parse_colours("SSMM+SM/SMMM+SS")
    result, found = recommend_genes(CARD_COUNT, seats, 2, seed=3, effort=QUICK, compute_odds=False)
    assert found is not None
    assert found.plan(CARD_COUNT, seats) == result.plan


def test_a_search_starts_from_the_prior_it_is_given() -> None:
    seats = parse_colours("SSMM/SMMM/SSMM")
    own = replace(genes.prior_for(3), split=4, need_weight=0.5)
    run = Run(CARD_COUNT, seats, 3, QUICK, None, False, None, 0.05, own)
    assert run.prior == own
    assert Run(CARD_COUNT, seats, 3, QUICK, None, False, None, 0.05).prior == genes.prior_for(3)


def _polish_passes(
    clock: Clock, players: int, g: genes.Genes, games: int, deals: int = clock_prior.POLISHING
) -> int:
    """What ``polish`` counts: passes with slips on its deals, its plan on each pattern
    (``deals``: the stream of another's deals)."""
    tables = clock_prior.prior_tables(players)
    share = games // len(tables)
    total = 0
    for t, seats in enumerate(tables):
        stream = seed_for(clock_prior.PRIOR_SEED, deals, t)
        values, slips = draw_values(seats, share, stream), draw_slips(share, stream)
        plan = g.plan(clock, seats)
        total += pass_count(clock, seats, plan, players, values, "auto", 0.05, slips)
    return total


def test_the_prior_is_polished_on_all_its_patterns_and_only_ever_gains_there() -> None:
    games = 2_000
    # A start the fine-tuning can improve: the table size's prior with its targets moved.
    start = genes.moved(genes.prior_for(3), "low1", 3.0, CARD_COUNT)
    polished = clock_prior.polish(CARD_COUNT, 3, start, games=games, steps=12)
    assert polished != start
    assert _polish_passes(CARD_COUNT, 3, polished, games) > _polish_passes(
        CARD_COUNT, 3, start, games
    )
    # No chance in it: the same start polishes to the same genes.
    assert clock_prior.polish(CARD_COUNT, 3, start, games=games, steps=12) == polished
    # A polish of nothing played changes nothing.
    assert clock_prior.polish(CARD_COUNT, 3, start, games=games, steps=0) == start


def test_the_prior_is_the_best_search_or_their_start_polished() -> None:
    start = genes.prior_for(2)
    other = replace(start, need_weight=0.1, split=3)
    found = [None, other, other]
    best = clock_prior.best_of(CARD_COUNT, 2, found)
    assert best == other
    games = round(clock_prior.PRIOR_GAMES * QUICK)
    polished = [clock_prior.polish(CARD_COUNT, 2, g, games=games) for g in (other, start)]
    assert polished[0] != polished[1]
    settled = clock_prior.settle(CARD_COUNT, 2, found, effort=QUICK)
    # The better of the two on the deals best_of compares on, with slips.
    assert settled == clock_prior.best_of(CARD_COUNT, 2, polished)
    assert settled == polished[1]  # here the start, polished, passes more than the search
    compared = {"games": clock_prior.PRIOR_GAMES, "deals": clock_prior.DEALS}
    scores = [_polish_passes(CARD_COUNT, 2, g, **compared) for g in polished]
    assert _polish_passes(CARD_COUNT, 2, settled, **compared) == max(scores)
    assert clock_prior.settle(CARD_COUNT, 2, [None, None]) is None


@pytest.mark.slow  # a long search (two quick ones here), then two searches from its prior
def test_a_search_from_the_clocks_prior_recommends_it_unless_it_does_better() -> None:
    own = clock_prior.search_prior(CARD_COUNT, 2, effort=QUICK, searches=2)
    assert own is not None
    seats = parse_colours("SSMM+SM/SMMM+SS")  # another pattern than the prior's
    prior_plan = own.plan(CARD_COUNT, seats)
    for seed in (0, 5):
        hint = recommend(
            CARD_COUNT, seats, 2, seed=seed, effort=QUICK, compute_odds=False, prior=own
        )
        clean = recommend(
            CARD_COUNT, seats, 2, seed=seed, effort=QUICK, compute_odds=False, slip_rate=0.0,
            prior=own,
        )  # fmt: skip
        if hint.plan in (prior_plan, clean.plan):  # held to the clean search's pick: its test
            continue
        # Otherwise it passed more of the hint's fresh deals with slips than the prior.
        games = hint.games
        fresh = seed_for(seed, FRESH)
        values, slips = draw_values(seats, games, fresh), draw_slips(games, fresh)
        mine, prior = (
            (
                pass_count(CARD_COUNT, seats, plan, 2, values),
                pass_count(CARD_COUNT, seats, plan, 2, values, "auto", 0.05, slips),
            )
            for plan in (hint.plan, prior_plan)
        )
        assert not choice.never_worse(prior, mine, games, lead=0.0)
