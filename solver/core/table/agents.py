"""Simulated players: how a plan-following player decides, from its :class:`View` alone.

The decision rules have one home each, in ``agents_fast`` (numba), which the compiled
engine calls on arrays: the targets player (tiers, scores, the lone segment, the order
penalty), the public belief of a face-down card, when to play face up, the order a player
considers their cards, the slip model and the exactly-twelve convention (``exact``). This
module is the reference engine's side: it turns what a View shows into those arrays and
calls the same functions, then hands their moves back, best first, for the referee.

Information discipline: a player decides from a :class:`View` only. The simulator builds a
fresh view each turn from public facts (the board's segments, colours, placers and face-up
values; the seats' colours; the plan; the face-up budget left) and the player's private
facts (the cards in hand, the faces of the cards they placed). The view holds no reference
to the deal, and only the values this player may know reach the arrays
(:func:`_board_arrays`), so the other players' hidden values are out of reach.

Slips: real tables do not play a plan perfectly. :func:`slip_of` turns three random numbers
into a :class:`Slip` (or none), by ``agents_fast.draw_slip``, and :func:`slipped_moves` is the
player's ranking under it — still a plain function of the View, so a slipping player can
peek no more than a careful one. With probability ``p`` a decision slips; half of the slips
misread one face-down card that another player placed by ±2 against the plan's belief
convention, half play a uniformly random placeable move. The random numbers come from
their own seed, so ``p = 0`` plays exactly the games a careful table plays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from rules.layout import Move

from . import exact
from .agents_fast import MISREAD_SHARE as MISREAD_SHARE  # bench.bench_solver reads it here
from .agents_fast import MISREAD_SLIP, NO_SLIP, draw_slip, targets_table
from .table_rules import CompiledTable, TableRules, pack, rules_for
from .view import View

IntArray = npt.NDArray[np.int64]
Board = tuple[IntArray, IntArray, IntArray, IntArray, IntArray]

# --- The plan-following player ------------------------------------------------------------


def rank_moves(view: View) -> list[Move]:
    """Every move this player could make, best first (the simulator takes the first move
    the referee accepts)."""
    convention = exact.followed(view.clock, view.plan)
    if convention is not None:  # Plan.exact: the convention's move, then every other one
        return exact.ranked(view, convention)
    return _targets_moves(view)


def _targets_moves(
    view: View, misread: int = -1, error: float = 0.0, random: int = -1
) -> list[Move]:
    """The targets player's moves, best first (``agents_fast.targets_table``): with a
    ``misread`` slip (board index, ``error``) or a ``random`` one (index among the
    placeable moves; that move comes first)."""
    r = rules_for(view.clock, view.seats, view.plan)
    table, seat_suns, seat_moons = _packed(r)
    rows = targets_table(
        view.seat,
        _ints(card.value for card in view.hand),
        _ints(exact.colour_code(card.colour) for card in view.hand),
        *_board_arrays(view, r),
        view.face_up_left,
        table.ints, table.floats, table.allowed, table.scalars, table.info,
        seat_suns, seat_moons,
        misread, error, random,
    )  # fmt: skip
    return [Move(view.hand[i], r.order[p], bool(face)) for i, p, face in rows.tolist()]


@lru_cache(maxsize=256)  # TableRules is itself cached per clock, seats and plan
def _packed(r: TableRules) -> tuple[CompiledTable, IntArray, IntArray]:
    seat_suns = np.array(r.seat_suns, dtype=np.int64)
    seat_moons = np.array(r.seat_moons, dtype=np.int64)
    return pack(r), seat_suns, seat_moons


def _board_arrays(view: View, r: TableRules) -> Board:
    """The board as ``agents_fast`` reads it: per placed card its position, seat, colour,
    face up (1/0) and value, the value only where this player may know it (face up, or
    their own card; else 0)."""
    board = view.board
    known = [
        placed.value if placed.value is not None else (own.value if own is not None else 0)
        for placed, own in zip(board, view.own_cards, strict=True)
    ]
    return (
        _ints(r.position(placed.segment) for placed in board),
        _ints(placed.seat for placed in board),
        _ints(exact.colour_code(placed.colour) for placed in board),
        _ints(int(placed.face_up) for placed in board),
        _ints(known),
    )


def _ints(numbers: Iterable[int]) -> IntArray:
    return np.fromiter(numbers, dtype=np.int64)


# --- Slips ---------------------------------------------------------------------------------

# How far off a misread card is (SLIP_MISREAD) and the share of slips that misread a card
# (MISREAD_SHARE; the others play a random move) are in ``agents_fast``, which reads them.
MOST_SLIP_RATE = 0.5  # the highest slip rate the commands and the API accept


@dataclass(frozen=True)
class Slip:
    """One decision that departs from the plan.

    ``kind`` "misread": this player reads the ``index``-th card of the board (in play
    order; a face-down card another player placed) as ``error`` away from what the plan's
    belief convention says. ``kind`` "random": this player plays the ``index``-th placeable
    move (cards in the order a player considers them, then segments in reading order)
    whatever the plan says.
    """

    kind: Literal["misread", "random"]
    index: int
    error: float = 0.0


def slip_of(view: View, rate: float, u: tuple[float, float, float]) -> Slip | None:
    """The slip of this decision, or None: ``agents_fast.draw_slip`` (which says how) on
    what the View shows and three uniform random numbers in [0, 1), so it sees only what
    the player may know. The compiled engine draws the same slips from the same numbers."""
    r = rules_for(view.clock, view.seats, view.plan)
    kind, index, error = draw_slip(
        float(rate), float(u[0]), float(u[1]), float(u[2]), view.seat, len(view.board),
        _ints(placed.seat for placed in view.board),
        _ints(int(placed.face_up) for placed in view.board),
        len(view.hand), len(r.first),
    )  # fmt: skip
    if kind == NO_SLIP:
        return None
    if kind == MISREAD_SLIP:
        return Slip("misread", int(index), float(error))
    return Slip("random", int(index))


def slipped_moves(view: View, slip: Slip | None) -> list[Move]:
    """The player's moves, best first, when this decision slips as ``slip`` says (None: the
    plan's own ranking, :func:`rank_moves`). A random move comes first, then the plan's."""
    if slip is None:
        return rank_moves(view)
    if slip.kind == "misread":
        if exact.followed(view.clock, view.plan) is not None:
            return rank_moves(view)  # the convention reads no hidden value: nothing to misread
        return _targets_moves(view, misread=slip.index, error=slip.error)
    return _targets_moves(view, random=slip.index)
