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
Both engines play it: ``agents_fast`` holds the compiled twin of :func:`choose`, and a test
plays the two game for game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.layout import Move

from .plans import Plan, lone_segment, reading_order, rule_params
from .view import View

TOP = 12  # the lone card, and what every segment read before it ends at


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


@dataclass
class _Segment:
    cards: int = 0
    known: int = 0  # face-up values and this player's own cards
    hidden: int = 0  # face-down cards of other players
    opener: int | None = None  # who opened it face down (None: face up, or empty)


def _board(view: View) -> dict[int, _Segment]:
    segments = {s: _Segment() for s in range(1, 7)}
    for placed, own in zip(view.board, view.own_cards, strict=True):
        seg = segments[placed.segment]
        if seg.cards == 0 and not placed.face_up:
            seg.opener = placed.seat
        seg.cards += 1
        if placed.value is not None:
            seg.known += placed.value
        elif own is not None:
            seg.known += own.value
        else:
            seg.hidden += 1
    return segments


def _making(cards: Sequence[Card], total: int) -> tuple[Card, ...] | None:
    """The fewest of ``cards`` that add up to ``total``, or None."""
    for k in range(1, len(cards) + 1):
        for combo in combinations(cards, k):
            if sum(c.value for c in combo) == total:
                return combo
    return None


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


def choose(view: View, c: Convention) -> Move:  # noqa: C901 - one branch per priority
    """This player's move by the convention's priorities (module docstring)."""
    board = _board(view)
    me = view.seat
    hand = sorted(view.hand, key=lambda card: (card.value, card.colour.value))
    lone_open = board[c.lone].cards == 0

    def total(s: int) -> int | None:
        """The segment's total where this player knows it: face up, or theirs."""
        seg = board[s]
        if seg.hidden or (seg.opener is not None and seg.opener != me):
            return None
        return seg.known

    def mine(s: int) -> bool:
        return board[s].opener == me and not board[s].hidden

    def spare(rest: list[Card]) -> bool:
        """Whether ``rest`` still finishes every segment of this player's to TOP."""
        pool = list(rest)
        for s in c.exact:
            known = total(s)
            if mine(s) and known is not None and known < TOP:
                combo = _making(pool, TOP - known)
                if combo is None:
                    return False
                for card in combo:
                    pool.remove(card)
        return True

    usable = [card for card in hand if not (lone_open and c.is_lone_card(card))]
    if lone_open:
        for card in hand:
            if c.is_lone_card(card):
                return Move(card, c.lone)
    for s in c.exact:  # finish a segment
        known = total(s)
        if board[s].cards and known is not None and known < TOP:
            for card in usable:
                if card.value == TOP - known and (mine(s) or spare([x for x in hand if x != card])):
                    return Move(card, s)
    for s in c.exact:  # continue your own
        known = total(s)
        if mine(s) and known is not None and known < TOP:
            combo = _making(usable, TOP - known)
            if combo:
                return Move(max(combo, key=lambda card: card.value), s)
    empty = [s for s in c.exact if board[s].cards == 0]
    if empty:  # open your own
        combo = _making(usable, TOP)
        if combo:
            return Move(max(combo, key=lambda card: card.value), empty[0])
    face_up = [s for s in c.exact if board[s].cards and board[s].opener is None]
    if view.face_up_left > 0:
        for low, high in ((10, TOP), (4, 9)):
            if empty:
                for card in reversed(usable):
                    if low <= card.value <= high:
                        return Move(card, empty[0], True)
            if low == 10:  # add to a face-up segment, face up
                for s in face_up:
                    known = total(s)
                    for card in reversed(usable):
                        if known is not None and known + card.value < TOP:
                            return Move(card, s, True)
    for s in face_up:  # a card nothing else takes, at or below 12
        known = total(s)
        for card in reversed(usable):
            if known is not None and known + card.value <= TOP:
                return Move(card, s)
    return Move((usable or hand)[0], c.rest)
