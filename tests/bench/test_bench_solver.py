"""The strength table's "beyond repair" figure (bench.bench_solver): the share it reports stays
within the games random moves spoil, and it refuses clocks its completion check does not know."""

from __future__ import annotations

import pytest

from bench.bench_solver import BASE, spoiled_shares
from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.table.plans import h_plan
from solver.core.table.simulate import draw_slips, draw_values, slips_of_kind

SEATS = parse_colours("SSMM/SMSM/MMSS")


def test_beyond_repair_is_part_of_what_random_moves_spoil() -> None:
    plan = h_plan(BASE, SEATS)
    values = draw_values(SEATS, 1500, 5)
    slips = slips_of_kind(draw_slips(1500, 5), "random")
    spoiled, beyond = spoiled_shares(BASE, SEATS, plan, values, slips, 0.1)
    assert 0 < beyond < spoiled < 0.5
    assert spoiled_shares(BASE, SEATS, plan, values, slips, 0.0) == (0.0, 0.0)


def test_it_refuses_a_clock_with_special_rules() -> None:
    clock = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "max_cards", "segment": 5, "count": 1}]}
    )
    values = draw_values(SEATS, 10, 5)
    with pytest.raises(ValueError, match="base rules"):
        spoiled_shares(clock, SEATS, h_plan(clock, SEATS), values, draw_slips(10, 5), 0.1)
