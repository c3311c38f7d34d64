"""The completion check (solver.core.oracle.completion): it agrees with the oracle on empty
boards and with trying every placement on partial ones, and refuses boards no placement can
save."""

from __future__ import annotations

import random
from itertools import pairwise, product

from rules.clock import Clock
from rules.seats import parse_colours
from solver.core.oracle.completion import completable
from solver.core.oracle.oracle import solve
from solver.core.table.simulate import deal_of, draw_values

BASE = Clock("2-1", 2, 1)  # base rules only: start 1, cap 24, no special rule
SEATS = parse_colours("SSMM/SMSM/MMSS")


def test_on_an_empty_board_it_agrees_with_the_oracle() -> None:
    values = draw_values(SEATS, 200, 17)
    answers = [completable([0] * 6, [0] * 6, [int(v) for v in row], 24) for row in values]
    assert answers == [solve(BASE, SEATS, deal_of(SEATS, row)) is not None for row in values]


def _by_every_placement(totals: list[int], counts: list[int], left: list[int], cap: int) -> bool:
    for positions in product(range(6), repeat=len(left)):
        value, cards = list(totals), list(counts)
        for card, position in zip(left, positions, strict=True):
            value[position] += card
            cards[position] += 1
        rising = all(a <= b for a, b in pairwise(value))
        if rising and min(cards) >= 1 and value[-1] <= cap:
            return True
    return False


def test_on_part_of_a_board_it_agrees_with_trying_every_placement() -> None:
    rng = random.Random(3)
    verdicts = set()
    for _ in range(150):
        counts = [rng.choice((0, 0, 1, 2)) for _ in range(6)]
        totals = [sum(rng.randint(1, 12) for _ in range(c)) for c in counts]
        left = [rng.randint(1, 12) for _ in range(rng.randint(0, 5))]
        answer = completable(totals, counts, left, 24)
        assert answer == _by_every_placement(totals, counts, left, 24), (totals, counts, left)
        verdicts.add(answer)
    assert verdicts == {True, False}


def test_a_board_that_no_placement_saves() -> None:
    # 13 on the first segment read: the five others cannot all reach 13 with four cards.
    assert not completable([13, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [1, 2, 3, 12], 24)
    assert completable(
        [13, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0], [6, 7, 12, 1, 11, 2, 10, 3, 9, 4], 24
    )
    # Over the cap already.
    assert not completable([25, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0], [1, 2, 3, 4, 5], 24)
    # Every segment has its card already: only the order and the cap matter.
    assert completable([1, 2, 3, 4, 5, 6], [1] * 6, [], 24)
    assert not completable([1, 2, 3, 4, 6, 5], [1] * 6, [], 24)
