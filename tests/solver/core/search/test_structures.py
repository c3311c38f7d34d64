"""The structure screen (``genes.structures``, ``search._screen``): the discrete choices
mutations rarely cross are all tried before the race."""

from __future__ import annotations

from dataclasses import replace

from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.search import search
from solver.core.search.genes import (
    OTHER_STARTS,
    PILE_FLOOR,
    PRIORS,
    SPLITS,
    STRICT_ORDER,
    h_genes,
    structures,
)
from solver.core.search.search_run import Run


def test_every_start_is_tried_at_every_split_with_and_without_a_band() -> None:
    banded, plain = PRIORS[3], h_genes()
    assert banded.pile_floor and not plain.pile_floor
    field = structures([banded, plain])
    assert len(field) == len(set(field)) == 2 * len(SPLITS) * 2 * 2
    for start in (banded, plain):
        other_floor = 0.0 if start.pile_floor else PILE_FLOOR
        for split in (2, 3, 4, 5):
            for floor in (start.pile_floor, other_floor):
                for weight in (start.order_weight, STRICT_ORDER):
                    variant = replace(start, split=split, pile_floor=floor, order_weight=weight)
                    assert variant in field
    # Each start comes first as it is, then its variants.
    assert field[0] == banded and field[len(field) // 2] == plain


def test_same_starts_give_no_duplicates() -> None:
    assert structures([h_genes(), h_genes()]) == structures([h_genes()])


def test_the_screen_finds_a_structure_no_start_has() -> None:
    # Segment 1 takes one card and segment 6 at most two: the low segments should run to
    # segment 4 or further, which the prior (3 low segments) does not say; the best is a
    # structure none of the starts has as it is.
    clock = Clock.from_json(
        {
            "id": "5-1",
            "rules": [
                {"kind": "card_count", "segment": 1, "count": 1},
                {"kind": "max_cards", "segment": 6, "count": 2},
            ],
        }
    )
    seats = parse_colours("SSMM/SMMM/SSMM")
    run = Run(clock, seats, 3, 0.1, None, False, None, 0.05)
    kept = search._screen(run, 0, PRIORS[3])
    assert len(kept) == search.SCREEN_KEEP
    starts = [PRIORS[3], h_genes(), *OTHER_STARTS]
    assert kept[0] not in starts and kept[0].split > PRIORS[3].split
    # Best first: on the screen's own deals, the first passes at least as often as the last.
    values, slips = run.common(run.schedule.screen, search.seed_for(0, search.SEARCH, 50))
    stage = search.Stage("racing", 1, 1)
    first = run.passes(run.plan(kept[0]), values, slips, stage)
    last = run.passes(run.plan(kept[-1]), values, slips, stage)
    assert first >= last


def test_the_reference_engine_races_its_starts_unscreened(no_twelve_clock: Clock) -> None:
    # A rule kind only the reference engine plays: too slow to screen every structure.
    clock = no_twelve_clock
    seats = parse_colours("SSM/MMS/SMS/MSM")
    run = Run(clock, seats, 4, 0.1, None, False, None, 0.05)
    assert not run.compiled and run.schedule.screen == 0
    assert search._screen(run, 0, PRIORS[4])[:2] == [PRIORS[4], h_genes()]


def test_where_colours_have_owners_every_structure_is_also_tried_without() -> None:
    starts = [PRIORS[3], h_genes()]
    field = structures(starts, owners=True)
    unowned = [g for g in field if not g.owned]
    assert len(unowned) == len(structures(starts)) == len(field) // 2
    assert {replace(g, owned=True) for g in unowned} == set(structures(starts))
    assert all(g.owned for g in structures(starts))  # no colour owners: nothing to drop
    # A plan without owners leaves the colour-ruled segment to whoever holds the colour.
    clock = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "colours", "segment": 1, "sun": 1, "moon": 0}]}
    )
    seats = parse_colours("SSMM/SMMM/SSMM")
    assert PRIORS[3].plan(clock, seats).owners
    assert replace(PRIORS[3], owned=False).plan(clock, seats).owners == {}
