"""A clock's own prior: where a few long searches on the clock's rules end, for the quick
search of each hint on that clock to start from and be held to.

A hint's search (effort 0.5, a few seconds) starts from the table size's prior
(``genes.prior_for``: where long searches on the base clock ended) and recommends that prior
wherever it does as well on the fresh deals. On the base clock that makes the plan the same
whatever the seed. On a clock with special rules the table size's prior is only a start:
some seeds climb from it to a better plan and others stay, and the plans the seeds
recommend differed by up to 0.015 of pass rate with slips. PRIOR_SEARCHES searches at
PRIOR_EFFORT per clock and table size, each on one of the colour patterns dealt most often,
give that clock a prior of its own (the best of them on all those patterns, then fine-tuned
on all of them at once): the quick searches then start from it, and a quick search
recommends something else only where it does better on the fresh deals.

The prior depends on the clock's rules (start, cap and special rules) and the number of
players only, not on the colours of a hint: genes are played by any table of that size.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver.core.table.plans import Plan
from solver.core.table.simulate import draw_slips, draw_values, pass_count
from solver.core.table.table_rules import compiled_engine_models

from .genes import Genes, descend, prior_for
from .hint_result import HintResult, Progress, Stage
from .search import recommend_genes
from .search_run import SLIP_RATE, seed_for
from .symmetry import pattern_classes

# Several searches, the best of them kept: one search ends in another basin at some seeds,
# and a prior in a worse basin leaves the quick searches to spread again (on "card_count: 3
# on 6", an effort-1 search passed 0.597 with slips at one seed and 0.577 at another, and
# the five quick seeds from the second spread 0.013). Each on another of the patterns dealt
# most often, compared on all of them: a prior found on one pattern alone was weaker on the
# panel's colours ("equal_neighbours 2 = 3": the quick seeds spread 0.014 from it, 0.003
# from this one). About 15 s on 2 cores each, once per clock and table size.
PRIOR_EFFORT = 1.0
PRIOR_SEARCHES = 4
PRIOR_SEED = 0
PRIOR_GAMES = 20_000  # deals the searches' plans are compared on, with slips
PRIOR_PATTERNS = 4
# The best search's genes are then fine-tuned on all those patterns at once (:func:`polish`):
# at most POLISH_STEPS plays of PRIOR_GAMES deals. Each search fine-tuned its
# plan on its own pattern; the prior is played on every pattern, and from a prior that was
# best on none in particular the quick searches climbed apart again ("card_count 1 on 1 +
# max_cards 2 on 6", 3 players: the five seeds' plans spread 0.024 with slips from the best
# search's genes, mean 0.454; 0.005 from them polished, mean 0.476). Who opens is left to
# each table (``search_run.Run.open_best``). With the table size's prior polished beside it
# (:func:`settle`), 60 plays left that prior short of where the descent settles, and the
# quick seeds climbed on from it apart ("card_count 1 on 1 + max_cards 2 on 6": spread
# 0.012, mean 0.487; "single_colour Sun on 6 + min_cards 2 on 6": 0.011, 0.338); with 200,
# 0.002 and 0.503, 0.007 and 0.351 ("max_cards: 1 on 5": 0.011 -> 0.004). 400 plays gained
# 0.001 more there, at five times the time: 200 it is, 10-30 s a polish on 2 cores.
POLISH_STEPS = 200


def prior_tables(players: int) -> list[Seats]:
    """The colours the long searches are played with: the PRIOR_PATTERNS patterns a table of
    ``players`` is dealt most often (``symmetry.pattern_classes``); search k plays the k-th
    (round the list), and :func:`best_of` compares their plans on all of them."""
    return [parse_colours(c.colours) for c in pattern_classes(players)[:PRIOR_PATTERNS]]


def has_own_prior(clock: Clock) -> bool:
    """Whether a clock gets a prior of its own: it has special rules (without them the
    table size's prior is a long search's already) that the compiled engine plays (the
    reference engine's search is a token one, no long search)."""
    return bool(clock.transcribed and clock.rules) and compiled_engine_models(clock)


def search_prior(
    clock: Clock,
    players: int,
    *,
    effort: float = PRIOR_EFFORT,
    searches: int = PRIOR_SEARCHES,
    seed: int = PRIOR_SEED,
    progress: Progress | None = None,
) -> Genes | None:
    """The clock's prior at ``players``: the best (:func:`best_of`) of the genes that
    ``searches`` searches at ``effort`` recommend (:func:`one_search`). None where the clock
    gets none (:func:`has_own_prior`) or every search recommends the baseline plan, which
    has no genes."""
    if not has_own_prior(clock):
        return None
    found = []
    for k in range(searches):

        def part(percent: int, stage: Stage, best: HintResult | None, k: int = k) -> None:
            if progress is not None:
                progress((100 * k + percent) // searches, stage, None)

        found.append(one_search(clock, players, k, effort=effort, seed=seed, progress=part))
    return settle(clock, players, found, effort=effort, seed=seed, progress=progress)


def settle(
    clock: Clock,
    players: int,
    found: Sequence[Genes | None],
    *,
    effort: float = PRIOR_EFFORT,
    seed: int = PRIOR_SEED,
    progress: Progress | None = None,
) -> Genes | None:
    """The prior from the searches' genes: the best of them (:func:`best_of`) and the table
    size's prior they started from (``genes.prior_for``), each polished (:func:`polish`) on
    a share of PRIOR_GAMES as large as ``effort`` (all of them from effort 1), then the
    better of the two (:func:`best_of` again). None if no search has genes.

    The start joins because polishing can carry it further than the searches went: on
    "card_count 1 on 1 + max_cards 2 on 6" (3 players) the four searches all ended near the
    "one pile" start (0.447-0.461 with slips on the panel's 100,000 deals once polished for
    60 plays), the table size's prior polished passes 0.472 (0.502 for POLISH_STEPS plays);
    it plays badly there as it is (0.189), which is why no search stayed near it.
    ``progress`` hears of each step of the polish (100 percent: its caller's searches are
    over), so that a caller may stop it there (the prefill, when a hint waits)."""
    best = best_of(clock, players, found, seed=seed)
    if best is None:
        return None
    games = max(len(prior_tables(players)) * 100, round(PRIOR_GAMES * min(1.0, effort)))
    starts = dict.fromkeys((best, prior_for(players)))
    polished = [
        polish(clock, players, g, games=games, seed=seed, progress=progress) for g in starts
    ]
    return best_of(clock, players, polished, seed=seed)


def one_search(
    clock: Clock,
    players: int,
    k: int,
    *,
    effort: float = PRIOR_EFFORT,
    seed: int = PRIOR_SEED,
    progress: Progress | None = None,
) -> Genes | None:
    """The ``k``-th long search (from 0): the genes of the plan it recommends on the k-th of
    :func:`prior_tables` (face-up cards = players, the hint's slip rate); None
    where that is the baseline plan. One at a time, so that a caller may store each (the
    prefill, whose slices are short)."""
    tables = prior_tables(players)
    seats = tables[k % len(tables)]
    _, genes = recommend_genes(
        clock,
        seats,
        min(players, seats.most_face_up),
        seed=seed_for(seed, SEARCHES, k),
        effort=effort,
        progress=progress,
        compute_odds=False,
        slip_rate=SLIP_RATE,
    )
    return genes


def best_of(
    clock: Clock, players: int, found: Sequence[Genes | None], *, seed: int = PRIOR_SEED
) -> Genes | None:
    """The searches' genes whose plans pass most of PRIOR_GAMES deals and slips none of
    them saw, shared among :func:`prior_tables`, with slips (then clean, then the earliest
    search's); None if none has genes."""
    unique: list[Genes] = []
    for genes in found:
        if genes is not None and genes not in unique:
            unique.append(genes)
    if len(unique) <= 1:
        return unique[0] if unique else None
    face_up, deals = _pattern_deals(players, PRIOR_GAMES, seed, DEALS)

    def score(entry: tuple[int, Genes]) -> tuple[int, int, int]:
        index, genes = entry
        with_slips = clean = 0
        for seats, values, slips in deals:
            plan = genes.plan(clock, seats)
            with_slips += pass_count(clock, seats, plan, face_up, values, "auto", SLIP_RATE, slips)
            clean += pass_count(clock, seats, plan, face_up, values)
        return with_slips, clean, -index

    return max(enumerate(unique), key=score)[1]


def polish(
    clock: Clock,
    players: int,
    genes: Genes,
    *,
    games: int = PRIOR_GAMES,
    steps: int = POLISH_STEPS,
    seed: int = PRIOR_SEED,
    progress: Progress | None = None,
) -> Genes:
    """``genes`` fine-tuned (``genes.descend``, at most ``steps`` plays) on ``games`` deals
    and slips shared among :func:`prior_tables`, other deals than :func:`best_of`'s: each
    step is kept only if its plans, one per pattern, pass more of them with slips.
    ``progress`` hears of each play (at 100 percent, stage "fine-tuning")."""
    face_up, deals = _pattern_deals(players, games, seed, POLISHING)

    def plans(g: Genes) -> tuple[Plan, ...]:
        return tuple(g.plan(clock, seats) for seats, _, _ in deals)

    def passes(each: tuple[Plan, ...], tried: int) -> int:
        if progress is not None:
            progress(100, Stage("fine-tuning", tried, steps), None)
        return sum(
            pass_count(clock, seats, plan, face_up, values, "auto", SLIP_RATE, slips)
            for plan, (seats, values, slips) in zip(each, deals, strict=True)
        )

    return descend(genes, clock, steps, plans, passes)


def _pattern_deals(
    players: int, games: int, seed: int, stream: int
) -> tuple[int, list[tuple[Seats, npt.NDArray[np.int64], npt.NDArray[np.float64]]]]:
    """Face-up cards = players, and ``games`` deals and slips shared among
    :func:`prior_tables`: for each pattern its seats, values and slips (from ``seed`` and
    ``stream``, the t-th pattern's ``seed_for(seed, stream, t)``)."""
    tables = prior_tables(players)
    share = max(1, games // len(tables))
    deals = []
    for t, seats in enumerate(tables):
        drawn = seed_for(seed, stream, t)
        deals.append((seats, draw_values(seats, share, drawn), draw_slips(share, drawn)))
    return min(players, tables[0].most_face_up), deals


# Streams of search_run.seed_for: the searches' seeds, best_of's deals, polish's deals.
SEARCHES, DEALS, POLISHING = 1, 2, 3


def genes_to_json(genes: Genes) -> dict[str, Any]:
    data = dataclasses.asdict(genes)
    data["low"], data["high"] = list(genes.low), list(genes.high)
    return data


def genes_from_json(data: Mapping[str, Any]) -> Genes:
    """Genes from :func:`genes_to_json`; a ValueError for anything else (a stored prior of
    another shape is not played)."""
    fields = {f.name for f in dataclasses.fields(Genes)}
    if not isinstance(data, Mapping) or set(data) != fields:
        raise ValueError("not a stored prior")
    try:
        values = {name: data[name] for name in fields}
        values["low"] = tuple(float(x) for x in data["low"])
        values["high"] = tuple(float(x) for x in data["high"])
        values["split"], values["opener"] = int(data["split"]), int(data["opener"])
        values["owned"] = bool(data["owned"])
        for name in fields - {"low", "high", "split", "opener", "owned"}:
            values[name] = float(data[name])
    except (TypeError, ValueError) as error:
        raise ValueError("not a stored prior") from error
    if len(values["low"]) != 2 or len(values["high"]) != 2:
        raise ValueError("not a stored prior")
    if not all(math.isfinite(x) for x in (*values["low"], *values["high"])):
        raise ValueError("not a stored prior")
    return Genes(**values)
