"""The perfect-information oracle: can these 12 known cards, at this table, pass this clock?

"Perfect information" means every player could see every card. The answer is exact: a passing
game exists exactly when :func:`solve` returns a :class:`Witness`, whose layout and move
order ``rules.validate`` accepts. The move order follows the table's rules — one card per
turn from an opening seat, clockwise; with 2 players the first two cards of each seat come
from its set of 4 — and puts the first two cards where a ``first_cards`` rule asks.

The search itself is :mod:`solver.core.oracle.compiled_kernel`; this module translates between
rules objects and the kernel's arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rules.layout import Layout, Move
from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import SEGMENT, SEGMENTS, CompiledClock, compile_clock

if TYPE_CHECKING:
    from rules.cards import Card
    from rules.clock import Clock
    from rules.deals import Deal
    from rules.seats import Seats


@dataclass(frozen=True)
class Witness:
    """A passing game: the final ``layout`` (its ``moves`` set) and the play order ``moves``,
    which starts with seat ``opener`` (0-based, seating order)."""

    layout: Layout
    moves: tuple[Move, ...]
    opener: int


class Oracle:
    """The oracle for one clock, compiled once; reuse it to decide many deals.

    Not thread-safe: each instance owns the search's work arrays.
    """

    def __init__(self, clock: Clock | Mapping[str, Any] | CompiledClock) -> None:
        self.compiled = clock if isinstance(clock, CompiledClock) else compile_clock(clock)
        self._mstamp, self._mbits, self._scratch = kernel.new_memo()

    def decide(
        self,
        values: npt.NDArray[np.int64],
        colours: npt.NDArray[np.int64],
        hands: npt.NDArray[np.int64],
    ) -> tuple[int, npt.NDArray[np.int64]]:
        """Kernel-level call: cards as arrays (colour 0 Sun, 1 Moon), ``hands`` the masks of
        each seat's first-placed cards. Returns (opener or -1, subset mask per position)."""
        opener = int(
            kernel.decide(
                values,
                colours,
                len(values),
                hands,
                self.compiled.positions,
                self.compiled.globals,
                self._mstamp,
                self._mbits,
                self._scratch,
            )
        )
        return opener, kernel.choice(self._scratch)

    def passable(self, deal: Deal) -> bool:
        """True when some passing game exists for ``deal`` (no witness built)."""
        return self.decide(*_arrays(deal))[0] >= 0

    def solve(self, seats: Seats | None, deal: Deal) -> Witness | None:
        """A passing game for ``deal``, or None when there is none. ``seats``, when given,
        must be the deal's colours (a mismatch is a caller's mistake: ValueError)."""
        if seats is not None and seats.format() != deal.seats.format():
            raise ValueError(
                f"The deal's colours {deal.seats.format()} are not the seats {seats.format()}."
            )
        cards = deal.cards
        values, colours, hands = _arrays(deal)
        opener, chosen = self.decide(values, colours, hands)
        if opener < 0:
            return None
        segment_of = {}
        for k in range(SEGMENTS):
            segment = int(self.compiled.positions[SEGMENT, k])
            for i in range(len(cards)):
                if int(chosen[k]) >> i & 1:
                    segment_of[cards[i]] = segment
        moves = _move_order(self.compiled, deal, segment_of, opener)
        return Witness(Layout.from_moves(moves), moves, opener)


def solve(clock: Clock | Mapping[str, Any], seats: Seats | None, deal: Deal) -> Witness | None:
    """Is there a passing game for ``deal`` at ``seats`` on ``clock``? A witness, or None.

    ValueError for a clock that is not transcribed (use ``base_rules_clock``) or that has a
    rule kind the solver does not know.
    """
    return Oracle(clock).solve(seats, deal)


def _arrays(
    deal: Deal,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The deal's cards (in ``deal.cards`` order) and each seat's first-placed cards as masks."""
    cards = deal.cards
    values = np.array([card.value for card in cards], dtype=np.int64)
    colours = np.array([0 if card.colour.value == "S" else 1 for card in cards], dtype=np.int64)
    hands = np.zeros(deal.players, dtype=np.int64)
    index = 0
    for seat in range(deal.players):
        for j in range(len(deal.hands[seat]) + len(deal.extras[seat])):
            # The hand is what a seat places from first: with 2 players, its set of 4.
            if j < len(deal.hands[seat]):
                hands[seat] |= 1 << index
            index += 1
    return values, colours, hands


def _move_order(
    compiled: CompiledClock, deal: Deal, segment_of: dict[Card, int], opener: int
) -> tuple[Move, ...]:
    """A legal play order for the witness layout, starting at ``opener``.

    Each seat plays its hand before its extra set (so with 2 players its first two cards come
    from the set of 4). With a first_cards rule, the opener's first card is one of its hand
    cards on the rule's first segment and the next seat's first card one on the second.
    """
    players = deal.players
    queues: list[list[Card]] = [list(deal.hands[p]) + list(deal.extras[p]) for p in range(players)]
    first_a, first_b = (int(x) for x in compiled.globals[:2])
    if first_a >= 0:
        wanted = (
            (opener, int(compiled.positions[SEGMENT, first_a])),
            ((opener + 1) % players, int(compiled.positions[SEGMENT, first_b])),
        )
        for seat, segment in wanted:
            hand = deal.hands[seat]
            card = next(c for c in hand if segment_of[c] == segment)
            queues[seat].remove(card)
            queues[seat].insert(0, card)
    moves = []
    turn = opener
    while any(queues):
        card = queues[turn].pop(0)
        moves.append(Move(card, segment_of[card]))
        turn = (turn + 1) % players
    return tuple(moves)
