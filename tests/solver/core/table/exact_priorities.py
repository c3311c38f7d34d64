"""The exactly-twelve convention's priorities, stated a second time in plain Python for the
tests only: an independent statement to hold ``agents_fast.exact_move`` (the convention's one
home, compiled) against on any board. A broken priority in either makes the two disagree.

It reads a View the way a player does: card objects, printed segments, no arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from rules.cards import Card
from rules.layout import SEGMENTS, Move
from solver.core.table.exact import Convention
from solver.core.table.view import View

TOP = 12


@dataclass
class _Segment:
    cards: int = 0
    known: int = 0  # face-up values and this player's own cards
    hidden: int = 0  # face-down cards of other players
    opener: int | None = None  # who opened it face down (None: face up, or empty)


def _board(view: View) -> dict[int, _Segment]:
    segments = {s: _Segment() for s in SEGMENTS}
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
    """The fewest of ``cards`` that add up to ``total`` (the first such in
    ``combinations`` order), or None."""
    for k in range(1, len(cards) + 1):
        for combo in combinations(cards, k):
            if sum(c.value for c in combo) == total:
                return combo
    return None


def by_the_priorities(view: View, c: Convention) -> Move:  # noqa: C901 - one branch per priority
    """This player's move by the convention's priorities (``exact``'s docstring)."""
    board = _board(view)
    me = view.seat
    hand = sorted(view.hand, key=lambda card: (card.value, card.colour.value))

    def total(s: int) -> int | None:
        seg = board[s]
        if seg.hidden or (seg.opener is not None and seg.opener != me):
            return None
        return seg.known

    def mine(s: int) -> bool:
        return board[s].opener == me and not board[s].hidden

    def spare(rest: list[Card]) -> bool:
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

    if board[c.lone].cards == 0:  # the 12 alone on the last segment
        for card in hand:
            if c.is_lone_card(card):
                return Move(card, c.lone)
    for s in c.exact:  # finish a segment
        known = total(s)
        if board[s].cards and known is not None and known < TOP:
            for card in hand:
                if card.value == TOP - known and (mine(s) or spare([x for x in hand if x != card])):
                    return Move(card, s)
    for s in c.exact:  # continue your own
        known = total(s)
        if mine(s) and known is not None and known < TOP:
            combo = _making(hand, TOP - known)
            if combo:
                return Move(max(combo, key=lambda card: card.value), s)
    empty = [s for s in c.exact if board[s].cards == 0]
    if empty:  # open your own
        combo = _making(hand, TOP)
        if combo:
            return Move(max(combo, key=lambda card: card.value), empty[0])
    face_up = [s for s in c.exact if board[s].cards and board[s].opener is None]
    if view.face_up_left > 0:
        for low, high in ((10, TOP), (4, 9)):
            if empty:
                for card in reversed(hand):
                    if low <= card.value <= high:
                        return Move(card, empty[0], True)
            if low == 10:  # add to a face-up segment, face up
                for s in face_up:
                    known = total(s)
                    for card in reversed(hand):
                        if known is not None and known + card.value < TOP:
                            return Move(card, s, True)
    for s in face_up:  # a card nothing else takes, at or below 12
        known = total(s)
        for card in reversed(hand):
            if known is not None and known + card.value <= TOP:
                return Move(card, s)
    return Move(hand[0], c.rest)
