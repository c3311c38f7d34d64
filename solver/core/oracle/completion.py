"""Can a board still pass? The cards left, added to the segments as they stand, under the base
rules (every segment a card, values rising from the start segment, ties allowed, up to the
cap). A benchmark asks it of the boards a random move spoiled: the part of a slip's damage
that no placement of the cards left, every card visible, could repair.

Plain Python over every split of the cards left (``2^n`` subsets, memoised by segment, the
cards used and the last value): fast for the five to eleven cards a spoiled board leaves.
"""

from __future__ import annotations

import functools


def completable(totals: list[int], counts: list[int], left: list[int], cap: int) -> bool:
    """Whether ``left`` can be added to segments holding ``totals`` (``counts`` cards), by
    position in reading order, so that every segment has a card and the values rise (ties
    allowed) up to ``cap``: the base rules, over every split of the cards left."""
    n = len(left)
    sums = [0] * (1 << n)
    sizes = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + left[low.bit_length() - 1]
        sizes[mask] = sizes[mask ^ low] + 1
    full = (1 << n) - 1

    @functools.cache
    def fill(position: int, used: int, last: int) -> bool:
        free = full & ~used
        sub = free  # every split of the free cards, largest first; the last takes them all
        while True:
            value = totals[position] + sums[sub]
            fits = counts[position] + sizes[sub] >= 1 and last <= value <= cap
            if fits and (position == 5 or fill(position + 1, used | sub, value)):
                return True
            if position == 5 or sub == 0:
                return False
            sub = (sub - 1) & free

    return fill(0, 0, 0)
