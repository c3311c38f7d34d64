"""What one player may know on their turn, and nothing else: the board as the table sees it
(:class:`PublicMove`) and a player's whole view (:class:`View`). Every decision rule of the
simulated players (``agents``, ``exact``) reads a :class:`View` only."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.seats import Seats

from .plans import Plan


@dataclass(frozen=True)
class PublicMove:
    """A placed card as the whole table sees it."""

    seat: int  # 0-based seat that placed it (anyone may ask who placed a card)
    segment: int  # printed segment number
    colour: Colour  # card backs show the colour
    face_up: bool
    value: int | None  # only for face-up cards


@dataclass(frozen=True)
class View:
    """Everything one player may know on their turn — and nothing else."""

    seat: int
    clock: Clock
    seats: Seats
    plan: Plan
    hand: tuple[Card, ...]  # the cards this player holds now
    board: tuple[PublicMove, ...]  # every placed card, in play order
    own_cards: tuple[Card | None, ...]  # per board entry: the face, if this player placed it
    face_up_left: int  # the group's remaining face-up budget
