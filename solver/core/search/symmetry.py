"""The colour patterns a table can see, and which of them are the same game.

A table's *pattern* is the colour backs of each seat in seating order
(``rules.seats.Seats``). Three symmetries of the game map one pattern to another without
changing what a plan can achieve on it, so the plan book computes one pattern per class:

* **Hand order.** A seat's cards are a set: ``SMMS`` and ``SSMM`` are the same hand. With 2
  players the set of 4 (picked up first) and the set of 2 stay apart, each a set of its
  own: ``SMMS+MS`` = ``SSMM+SM``, but not ``SSMM+MM``.
* **Seat rotation.** Any player may start and play passes to the left, so turning the
  whole table keeps the game: ``SSMM/MMMM/SSSS`` is ``MMMM/SSSS/SSMM`` seated one place
  round. A plan found for one is the other's with its seats renumbered (``rotate_plan``:
  the opener and the owners of segments). Reading the table the other way round is *not* a
  symmetry: play goes clockwise.
* **Sun/Moon swap**, only for a clock whose rules treat both colours alike
  (``colour_symmetric``): no colour rule, or only ones that name no colour. The values,
  the cap and every count stay; the words, which name each seat's colours, are written for
  the asking table when it reads them.

Everything here is plain Python over the colour notation; nothing depends on values.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from rules.seats import SEAT_SIZES, Seat, Seats

SWAP = str.maketrans("SM", "MS")


@dataclass(frozen=True)
class Mapping_:
    """How one pattern becomes another: seat j of the target is seat ``(j + shift) % n`` of
    the source, with the colours swapped when ``swap``."""

    shift: int
    swap: bool


def _sorted_seat(seat: Seat, swap: bool) -> tuple[str, str]:
    hand, extra = seat.hand, seat.extra
    if swap:
        hand, extra = hand.translate(SWAP), extra.translate(SWAP)
    return "".join(sorted(hand)), "".join(sorted(extra))


def _key(seats: tuple[tuple[str, str], ...]) -> str:
    return "/".join(f"{h}+{e}" if e else h for h, e in seats)


def canonical(seats: Seats, colour_symmetric: bool = False) -> str:
    """The class's name: the smallest notation among the pattern's images (hands sorted,
    every rotation, and the swap when ``colour_symmetric``)."""
    return min(_images(seats, colour_symmetric))


def _images(seats: Seats, colour_symmetric: bool) -> Iterator[str]:
    n = seats.players
    for swap in (False, True) if colour_symmetric else (False,):
        sorted_seats = tuple(_sorted_seat(seat, swap) for seat in seats.seats)
        for shift in range(n):
            yield _key(tuple(sorted_seats[(j + shift) % n] for j in range(n)))


def find_mapping(source: Seats, target: Seats, colour_symmetric: bool) -> Mapping_ | None:
    """A symmetry taking ``source`` to ``target`` (rotation first, then the swap), or None
    when they are not the same game."""
    if source.players != target.players:
        return None
    n = source.players
    wanted = tuple(_sorted_seat(seat, False) for seat in target.seats)
    for swap in (False, True) if colour_symmetric else (False,):
        seen = tuple(_sorted_seat(seat, swap) for seat in source.seats)
        for shift in range(n):
            if all(seen[(j + shift) % n] == wanted[j] for j in range(n)):
                return Mapping_(shift, swap)
    return None


def rotate_plan(plan: Mapping[str, Any], mapping: Mapping_, players: int) -> dict[str, Any]:
    """A plan's JSON form (``solver.core.table.plans``) for the target of ``mapping``: the same
    plan, its seat numbers moved. Seats appear in ``opener`` and ``owners`` only."""

    def seat(number: int) -> int:
        return (int(number) - 1 - mapping.shift) % players + 1

    out = dict(plan)
    if "opener" in out:
        out["opener"] = seat(out["opener"])
    if "owners" in out:
        out["owners"] = {
            segment: sorted(seat(s) for s in seats) for segment, seats in out["owners"].items()
        }
    return out


# --- Every pattern of a table size ----------------------------------------------------------


def seat_shapes(players: int) -> list[tuple[str, str]]:
    """Every seat up to hand order: the Sun cards first in each set."""
    hand, extra = SEAT_SIZES[players]
    return [
        ("S" * h + "M" * (hand - h), "S" * e + "M" * (extra - e))
        for h in range(hand + 1)
        for e in range(extra + 1)
    ]


@dataclass(frozen=True)
class PatternClass:
    """One class of patterns: its name (``canonical``), how many colour strings of a deal
    (one letter per card, each seat's cards in the order dealt) fall in it, and how likely
    a deal is to show it."""

    colours: str
    strings: int
    probability: float


def pattern_classes(players: int, colour_symmetric: bool = False) -> list[PatternClass]:
    """Every class a table of ``players`` can see, most often dealt first (ties by name)."""
    hand, extra = SEAT_SIZES[players]
    counts: dict[str, int] = {}
    weight: dict[str, float] = {}
    total = math.perm(24, 12)
    for shape in product(seat_shapes(players), repeat=players):
        seats = Seats(tuple(Seat(h, e) for h, e in shape))
        # Colour strings with these Sun counts per set, and the chance of one of them:
        # (12)_s (12)_m ordered draws of s Suns and m Moons among (24)_12.
        strings = 1
        for h, e in shape:
            strings *= math.comb(hand, h.count("S")) * math.comb(extra, e.count("S"))
        suns = seats.suns
        chance = strings * math.perm(12, suns) * math.perm(12, 12 - suns) / total
        name = canonical(seats, colour_symmetric)
        counts[name] = counts.get(name, 0) + strings
        weight[name] = weight.get(name, 0.0) + chance
    return sorted(
        (PatternClass(name, counts[name], weight[name]) for name in counts),
        key=lambda c: (-c.probability, c.colours),
    )


@cache
def class_count(players: int, colour_symmetric: bool = False) -> int:
    return len(pattern_classes(players, colour_symmetric))


def colour_symmetric(clock: Any) -> bool:
    """Do the clock's rules treat Suns and Moons alike (so the Sun/Moon swap is a symmetry)?
    Read from the compiled clock: every colour bound of every segment is the same for both
    colours. A clock the compiled engine cannot read is taken as not symmetric."""
    from solver.core.oracle.compiled import MOON_MAX, MOON_MIN, SUN_MAX, SUN_MIN, compile_clock

    try:
        compiled = compile_clock(clock)
    except ValueError:
        return False
    pos = compiled.positions
    return bool((pos[SUN_MIN] == pos[MOON_MIN]).all() and (pos[SUN_MAX] == pos[MOON_MAX]).all())
