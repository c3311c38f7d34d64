"""The "exactly twelve" convention, for a clock whose last segment read holds one card only.

There the one card caps every other segment (the totals rise to it), and the plans of
targets and weights pass almost none of the deals perfect information passes: on the
panel's "segment 6 holds exactly one card, a Sun" at 4 players, 0.003 where perfect
information passes 0.09. What loses the deals is the hidden totals. This convention makes
every total public or known to one player, by what the table agrees before the game:

- the 12 (of the colour the segment asks for) goes alone on the last segment at its
  holder's first turn;
- the four segments read before it each end at exactly 12, and the first one read takes
  the rest;
- open a segment face down only with cards of your own that finish it to 12 (it is then
  yours, and only you add to it); otherwise open it face up; a face-down card added to a
  face-up segment makes it 12, or as close below 12 as your cards allow.

A player follows it by fixed priorities (:func:`choose`): the 12 on the last segment;
finish a segment to 12, never with a card your own segments still need; continue your own;
open your own on the latest empty segment; while face-up cards are left, open with 10-12,
add to a face-up segment, open with 4-9; a card nothing else takes on a face-up segment it
keeps at or below 12; else your smallest card face down on the first segment read.

A plan says it with ``Plan.exact`` (``agents.rank_moves`` then ranks by :func:`ranked`).
The priorities have one home, ``agents_fast.exact_move`` (on arrays, compiled): the compiled
engine calls it, and :func:`choose` hands it this player's View for the reference engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.layout import Move

from .agents_fast import ANY_COLOUR, MOON, SUN, TOP, exact_move
from .plans import Plan, lone_segment, reading_order, rule_params
from .view import View


@dataclass(frozen=True)
class Convention:
    """Where the convention applies on a clock: its segments in reading order (the last is
    the lone one) and the colour its card must have (None: either)."""

    order: tuple[int, ...]
    colour: Colour | None

    @property
    def lone(self) -> int:
        return self.order[-1]

    @property
    def exact(self) -> tuple[int, ...]:
        """The segments that end at exactly TOP, latest first."""
        return tuple(reversed(self.order[1:-1]))

    @property
    def rest(self) -> int:
        return self.order[0]

    def ends(self) -> dict[int, float]:
        """What each segment ends at, by printed segment: TOP on the lone segment and on the
        segments that end exactly; the first one read takes the rest (no number)."""
        return {segment: float(TOP) for segment in self.order[1:]}

    def is_lone_card(self, card: Card) -> bool:
        return card.value == TOP and self.colour in (None, card.colour)

    @property
    def colour_code(self) -> int:
        """The colour its card must have, as the compiled engine reads it: SUN, MOON or
        ANY_COLOUR."""
        if self.colour is None:
            return ANY_COLOUR
        return colour_code(self.colour)


def colour_code(colour: Colour) -> int:
    return SUN if colour == Colour.SUN else MOON


@lru_cache(maxsize=64)  # a few clocks at a time; every decision asks
def convention_for(clock: Clock) -> Convention | None:
    """The convention on ``clock``, or None: where the segment read last holds one card only
    (``plans.lone_segment``), of the colour a ``colours`` rule there names."""
    order = tuple(reading_order(clock))
    lone = lone_segment(clock)
    if lone is None or lone != order[-1]:
        return None
    colour = None
    for params in rule_params(clock):
        if params.get("kind") == "colours" and int(params["segment"]) == lone:
            colour = Colour.SUN if int(params["sun"]) else Colour.MOON
    return Convention(order, colour)


def followed(clock: Clock, plan: Plan) -> Convention | None:
    """The convention a table playing ``plan`` on ``clock`` follows: where the plan says it
    (``Plan.exact``) and the clock has its segment (:func:`convention_for`); else None."""
    return convention_for(clock) if plan.exact else None


def ranked(view: View, convention: Convention) -> list[Move]:
    """:func:`choose`'s move, then every other move of this player face down (cards in hand
    order, segments in reading order), for a referee that refuses it (a placement rule the
    convention does not know)."""
    move = choose(view, convention)
    others = (_face_down(card, s) for card in sorted(view.hand) for s in convention.order)
    return [move, *(m for m in others if m != move)]


@lru_cache(maxsize=24 * 6)
def _face_down(card: Card, segment: int) -> Move:
    return Move(card, segment)  # made once: every decision lists them all


def choose(view: View, c: Convention) -> Move:
    """This player's move by the convention's priorities (module docstring), decided by
    ``agents_fast.exact_move`` from what the View shows: the hand, and each placed card's
    segment, placer and face where this player may know it (face up, or their own)."""
    position = {segment: p for p, segment in enumerate(c.order)}
    seen = [
        placed.value if placed.value is not None else (own.value if own is not None else 0)
        for placed, own in zip(view.board, view.own_cards, strict=True)
    ]
    index, p, face_up = exact_move(
        view.seat,
        c.colour_code,
        _ints(card.value for card in view.hand),
        _ints(colour_code(card.colour) for card in view.hand),
        _ints(position[placed.segment] for placed in view.board),
        _ints(placed.seat for placed in view.board),
        _ints(int(placed.face_up) for placed in view.board),
        _ints(seen),
        view.face_up_left,
    )
    return Move(view.hand[index], c.order[p], bool(face_up))


def _ints(numbers: Iterable[int]) -> npt.NDArray[np.int64]:
    return np.fromiter(numbers, dtype=np.int64)
