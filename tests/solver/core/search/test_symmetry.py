"""solver.core.search.symmetry: the classes of colour patterns, counted against brute force."""

from __future__ import annotations

from itertools import product

import pytest

from rules.catalogue import get_clock
from rules.seats import SEAT_SIZES, Seat, Seats, parse_colours
from solver.core.search.symmetry import (
    canonical,
    class_count,
    colour_symmetric,
    find_mapping,
    pattern_classes,
    rotate_plan,
)
from solver.core.table.plans import Plan


def _every_string(players: int) -> list[Seats]:
    """Every colour string of a deal: one letter per card, each seat's cards as dealt."""
    hand, extra = SEAT_SIZES[players]
    size = hand + extra
    tables = []
    for letters in product("SM", repeat=12):
        seats = []
        for seat in range(players):
            cards = "".join(letters[seat * size : (seat + 1) * size])
            seats.append(Seat(cards[:hand], cards[hand:]))
        tables.append(Seats(tuple(seats)))
    return tables


def _neighbours(table: Seats, swap: bool) -> list[Seats]:
    """The generators applied once: two neighbouring cards of a set exchanged, the table
    turned by one seat, and (if allowed) the colours swapped."""
    out = []
    seats = list(table.seats)
    for index, seat in enumerate(seats):
        for part in ("hand", "extra"):
            cards = getattr(seat, part)
            for i in range(len(cards) - 1):
                moved = cards[:i] + cards[i + 1] + cards[i] + cards[i + 2 :]
                changed = Seat(moved, seat.extra) if part == "hand" else Seat(seat.hand, moved)
                out.append(Seats((*seats[:index], changed, *seats[index + 1 :])))
    out.append(Seats((*seats[1:], seats[0])))
    if swap:
        flip = str.maketrans("SM", "MS")
        out.append(
            Seats(tuple(Seat(s.hand.translate(flip), s.extra.translate(flip)) for s in seats))
        )
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("swap", [False, True])
def test_classes_match_brute_force(players: int, swap: bool) -> None:
    # Brute force, independent of the module: join every string with its images under the
    # generators (union-find), then compare the classes and their sizes.
    tables = _every_string(players)
    index = {t.format(): i for i, t in enumerate(tables)}
    parent = list(range(len(tables)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, table in enumerate(tables):
        for other in _neighbours(table, swap):
            parent[root(i)] = root(index[other.format()])
    groups: dict[int, list[int]] = {}
    for i in range(len(tables)):
        groups.setdefault(root(i), []).append(i)
    classes = pattern_classes(players, swap)
    assert len(groups) == len(classes) == class_count(players, swap)
    sizes = {c.colours: c.strings for c in classes}
    for members in groups.values():
        names = {canonical(tables[i], swap) for i in members}
        assert len(names) == 1  # one name per brute-force class
        assert sizes[names.pop()] == len(members)


def test_two_player_sets_stay_apart_and_counts_per_table_size() -> None:
    # The set of 4 and the set of 2 are each a set, but a card cannot move between them.
    a, b = parse_colours("SMMS+MS/MMMM+SS"), parse_colours("SSMM+SM/MMMM+SS")
    assert canonical(a) == canonical(b)
    assert canonical(parse_colours("SSMM+MM/MMMM+SS")) != canonical(b)
    counts = {n: (class_count(n), class_count(n, True)) for n in (2, 3, 4)}
    assert counts == {2: (120, 64), 3: (45, 23), 4: (70, 38)}
    for n in (2, 3, 4):
        classes = pattern_classes(n)
        assert sum(c.strings for c in classes) == 4096
        assert sum(c.probability for c in classes) == pytest.approx(1.0)
        assert [c.probability for c in classes] == sorted(
            (c.probability for c in classes), reverse=True
        )


def test_a_rotated_plan_names_the_seat_holding_the_same_cards() -> None:
    source = parse_colours("SSSS/MMMS/MMMM")
    target = parse_colours("MMMM/SSSS/SMMM")  # seated one place round, hands reordered
    mapping = find_mapping(source, target, False)
    assert mapping is not None
    plan = {"version": 1, "targets": [1, 2, 3, 4, 5, 6], "opener": 1, "owners": {"1": [1, 2]}}
    moved = rotate_plan(plan, mapping, 3)
    assert moved["opener"] == 2  # the all-Sun seat opens in both
    assert moved["owners"] == {"1": [2, 3]}
    assert Plan.from_json(moved, 3).opener == 2
    assert find_mapping(source, parse_colours("SSSS/MMMM/MMMS"), False) is None  # not a rotation


def test_the_swap_is_a_symmetry_only_of_clocks_that_treat_both_colours_alike() -> None:
    base = {"id": "2-1", "start": 1, "cap": 24, "rules": []}
    assert colour_symmetric(base)
    assert not colour_symmetric(get_clock("1-1"))  # segment 1 holds one Sun
    assert colour_symmetric({**base, "rules": [{"kind": "single_colour", "segment": 2}]})
    assert not colour_symmetric(
        {**base, "rules": [{"kind": "single_colour", "segment": 2, "colour": "S"}]}
    )
    assert colour_symmetric(
        {**base, "rules": [{"kind": "colours", "segment": 3, "sun": 1, "moon": 1}]}
    )
    swapped = parse_colours("MMMM/SSSS/SSMM")
    assert canonical(parse_colours("SSSS/MMMM/MMSS"), True) == canonical(swapped, True)
    assert canonical(parse_colours("SSSS/MMMM/MMSS")) != canonical(swapped)
