"""Dealing 12 of the 24 cards to 2–4 seats, at random or consistent with known colours."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.cards import DECK, Card, Colour
from rules.errors import RulesError
from rules.seats import SEAT_SIZES, Seat, Seats

_SUNS = tuple(card for card in DECK if card.colour is Colour.SUN)
_MOONS = tuple(card for card in DECK if card.colour is Colour.MOON)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of each seat in seating order: ``hands`` (picked up first) and ``extras``
    (the 2-player set of 2; empty tuples with 3 or 4 players). Always valid: the seat sizes
    match the player count and the 12 cards are distinct."""

    hands: tuple[tuple[Card, ...], ...]
    extras: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        players = len(self.hands)
        if players not in SEAT_SIZES or len(self.extras) != players:
            raise RulesError.from_wording(_DEAL_SEATS, "deal")
        sizes = SEAT_SIZES[players]
        for hand, extra in zip(self.hands, self.extras, strict=True):
            if (len(hand), len(extra)) != sizes:
                raise RulesError.from_wording(_DEAL_SIZES, "deal", players=players, sizes=sizes)
        cards = self.cards
        if len(set(cards)) != len(cards):
            raise RulesError.from_wording(_DEAL_TWICE, "deal")

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 12 cards, seat by seat, hand before extra."""
        return tuple(
            c for hand, extra in zip(self.hands, self.extras, strict=True) for c in hand + extra
        )

    def seat_cards(self, seat_index: int) -> tuple[Card, ...]:
        return self.hands[seat_index] + self.extras[seat_index]

    def owner(self, card: Card) -> int | None:
        """The seat holding ``card``, or None when it is out of play."""
        for index in range(self.players):
            if card in self.hands[index] or card in self.extras[index]:
                return index
        return None

    @property
    def seats(self) -> Seats:
        """The colours everyone sees, in the order the cards were dealt."""

        def letters(cards: tuple[Card, ...]) -> str:
            return "".join(card.colour.value for card in cards)

        return Seats(
            tuple(
                Seat(letters(hand), letters(extra))
                for hand, extra in zip(self.hands, self.extras, strict=True)
            )
        )


def deal(players: int, rng: random.Random) -> Deal:
    """Shuffle the 24 cards and deal 12: 3 each to 4 players, 4 each to 3, and to 2 players
    a set of 4 and a set of 2 each. Deterministic for a seeded ``rng``."""
    if players not in SEAT_SIZES:
        raise RulesError.from_wording(_PLAYERS, "players")
    hand_size, extra_size = SEAT_SIZES[players]
    cards = rng.sample(DECK, 12)
    hands, extras = [], []
    for index in range(players):
        start = index * (hand_size + extra_size)
        hands.append(tuple(cards[start : start + hand_size]))
        extras.append(tuple(cards[start + hand_size : start + hand_size + extra_size]))
    return Deal(tuple(hands), tuple(extras))


def deal_for_colours(seats: Seats, rng: random.Random) -> Deal:
    """A deal with exactly the colours of ``seats``, letter by letter, drawn uniformly among
    all such deals: the values are a uniform random arrangement of distinct Sun values over
    the Sun positions and of Moon values over the Moon positions."""
    # sample() returns a uniformly random ordered selection, so consuming it position by
    # position gives every consistent deal the same probability.
    suns = iter(rng.sample(_SUNS, seats.suns))
    moons = iter(rng.sample(_MOONS, seats.moons))

    def draw(letters: str) -> tuple[Card, ...]:
        return tuple(next(suns) if letter == "S" else next(moons) for letter in letters)

    hands = tuple(draw(seat.hand) for seat in seats.seats)
    extras = tuple(draw(seat.extra) for seat in seats.seats)
    return Deal(hands, extras)


_DEAL_SEATS = {
    "en": "A deal is for 2, 3 or 4 seats.",
    "nl": "Een deling is voor 2, 3 of 4 stoelen.",
    "ja": "配り方は2〜4席分です。",
}
_DEAL_SIZES = {
    "en": "With {players} players a seat holds {sizes} cards.",
    "nl": "Met {players} spelers heeft een stoel {sizes} kaarten.",
    "ja": "{players}人プレイでは1席のカードは{sizes}枚です。",
}
_DEAL_TWICE = {
    "en": "A deal cannot hold the same card twice.",
    "nl": "Een deling kan niet twee keer dezelfde kaart bevatten.",
    "ja": "同じカードを2回配ることはできません。",
}
_PLAYERS = {
    "en": "Take Time is played by 2, 3 or 4 players.",
    "nl": "Take Time speel je met 2, 3 of 4 spelers.",
    "ja": "Take Timeは2〜4人で遊びます。",
}
