"""The plan's machine form: round trip, defaults, and clear errors on schema breaks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.table.plans import Plan, baseline_plan, colour_owners, h_plan

CLOCK = Clock("2-1", 2, 1)
THREE = parse_colours("SSMM/SMSM/MMSS")


def test_a_plan_survives_a_json_round_trip() -> None:
    plan = h_plan(CLOCK, THREE).with_(
        owners={1: (2,), 4: (1, 3)}, bands={6: (8, 12)}, opener=3, need_weight=0.6
    )
    text = json.dumps(plan.to_json())
    assert Plan.from_json(json.loads(text)) == plan


def test_only_targets_are_required() -> None:
    plan = Plan.from_json({"targets": [1, 2, 3, 4, 5, 6]})
    assert plan.opener == 1
    assert plan.need_weight == 0.75
    assert plan.owners == {}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a JSON object"),
        ({"targets": [1, 2, 3]}, "plan.targets: expected a list of 6"),
        ({"targets": [1, 2, 3, 4, 5, "x"]}, r"plan.targets\[5\]: expected a number"),
        ({"targets": [1] * 6, "colour": 1}, "unknown field 'colour'"),
        ({"targets": [1] * 6, "version": 2}, "plan.version"),
        ({"targets": [1] * 6, "need_weight": 1.5}, "plan.need_weight: 1.5 is outside 0..1"),
        ({"targets": [1] * 6, "order_weight": True}, "plan.order_weight: expected a number"),
        ({"targets": [1] * 6, "opener": 0}, "plan.opener: expected a seat number"),
        ({"targets": [1] * 6, "owners": {"7": [1]}}, "not a segment number"),
        ({"targets": [1] * 6, "owners": {"1": []}}, "non-empty list"),
        ({"targets": [1] * 6, "bands": {"2": [9, 3]}}, "low 9 is above high 3"),
        ({"targets": [1] * 6, "bands": {"2": [0, 3]}}, r"bands.2\[0\]: 0 is outside 1..12"),
    ],
)
def test_schema_breaks_raise_value_error_naming_the_field(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Plan.from_json(data)


def test_seats_are_checked_against_the_table_when_known() -> None:
    with pytest.raises(ValueError, match="seat 4 does not exist at a 3-player table"):
        Plan.from_json({"targets": [1] * 6, "opener": 4}, players=3)


def test_the_baseline_spaces_targets_evenly_up_to_the_cap() -> None:
    assert baseline_plan(CLOCK, THREE, 3).targets == (4, 8, 12, 16, 20, 24)


def test_targets_follow_the_reading_order_from_the_start_segment() -> None:
    moved = Clock("3-1", 3, 1, start=4)
    plan = baseline_plan(moved, THREE, 3)
    assert plan.targets == (16, 20, 24, 4, 8, 12)


def test_a_colour_rule_goes_to_a_seat_holding_that_colour() -> None:
    clock = get_clock("1-1")  # segment 1: exactly one Sun
    seats = parse_colours("MMMM/SSMM/MMSS")
    assert colour_owners(clock, seats) == {1: (2,)}
    assert baseline_plan(clock, seats, 3).owners == {1: (2,)}


def test_targets_before_a_value_range_stay_within_its_maximum() -> None:
    from solver.core.table.plans import shaped_targets

    # Segment 5 must total 14 to 18: a segment read before it aiming at 21 would push it
    # past 18 (the totals rise), so no target before it goes above 18.
    clock = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "value_range", "segment": 5, "min": 14, "max": 18}]}
    )
    targets = shaped_targets(clock, (5.0, 10.0), (20.0, 24.0), 2)
    assert targets[4] == 18.0
    assert max(targets[:5]) == 18.0
    assert list(targets) == sorted(targets)
    assert targets[5] == 24.0  # read after the range: free up to the cap
    # Without the range the same shape aims higher before segment 5.
    assert (
        max(
            shaped_targets(
                Clock.from_json({"id": "5-1", "rules": []}), (5.0, 10.0), (20.0, 24.0), 2
            )[:5]
        )
        > 18
    )


def test_targets_rise_by_one_at_least_where_ties_fail() -> None:
    from solver.core.table.plans import shaped_targets

    rising = Clock.from_json({"id": "5-1", "start": 3, "rules": [{"kind": "strictly_rising"}]})
    targets = shaped_targets(rising, (5.0, 5.0), (24.0, 24.0), 3)
    read = [targets[s - 1] for s in (3, 4, 5, 6, 1, 2)]
    assert all(b >= a + 1 for a, b in zip(read, read[1:], strict=False))
    assert max(read) <= 24  # within the cap: the flat top becomes 22, 23, 24
    assert read[-3:] == [22.0, 23.0, 24.0]


def test_equal_neighbours_read_in_a_row_aim_at_the_same_total() -> None:
    from solver.core.table.plans import shaped_targets

    equal = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "equal_neighbours", "segments": [5, 4]}]}
    )
    targets = shaped_targets(equal, (5.0, 9.0), (17.0, 23.0), 3)
    assert targets[3] == targets[4] == 17.0
    assert list(targets) == sorted(targets)


def test_a_single_pile_aims_at_the_top_of_its_range() -> None:
    from solver.core.table.plans import shaped_targets

    targets = shaped_targets(
        Clock.from_json({"id": "5-1", "rules": []}), (3.0, 7.0), (18.0, 23.0), 5
    )
    assert targets == (3.0, 4.0, 5.0, 6.0, 7.0, 23.0)
