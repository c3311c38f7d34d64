"""The colours each seat holds, as everyone sees them from the card backs.

Public notation: one group per seat in seating (play) order, separated by ``/``, each a string
of ``S`` and ``M`` — ``SSM/MMS/SMMS`` — and with 2 players each seat's set of 4 and set of 2
joined by ``+``: ``SSMM+SM/SMMM+SS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError

# Cards per seat: (hand, extra). With 2 players the "extra" is the set of 2 that joins the
# hand once each player has placed two cards.
SEAT_SIZES: dict[int, tuple[int, int]] = {2: (4, 2), 3: (4, 0), 4: (3, 0)}
MAX_COLOURS_TEXT = 200


def _check_letters(text: str, field: str) -> None:
    bad = set(text) - {"S", "M"}
    if bad:
        raise RulesError(
            f"Colours are written with S (Sun) and M (Moon) only, not {''.join(sorted(bad))!r}.",
            field,
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's card backs: ``hand`` (the cards picked up first) and, with 2 players,
    ``extra`` (the set of 2 that joins later). Letters ``S``/``M``, in the order dealt."""

    hand: str
    extra: str = ""

    def __post_init__(self) -> None:
        _check_letters(self.hand, "colours")
        _check_letters(self.extra, "colours")

    @property
    def cards(self) -> str:
        """All colour letters of the seat, hand first."""
        return self.hand + self.extra

    @property
    def suns(self) -> int:
        return self.cards.count("S")

    @property
    def moons(self) -> int:
        return self.cards.count("M")

    def format(self) -> str:
        return f"{self.hand}+{self.extra}" if self.extra else self.hand


@dataclass(frozen=True, slots=True)
class Seats:
    """The whole table in seating order; always valid (2–4 seats of the right sizes, 12 cards).

    Play passes from a seat to the next one in this tuple (to the left, clockwise).
    """

    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        players = len(self.seats)
        if players not in SEAT_SIZES:
            raise RulesError(
                f"Colours must describe 2, 3 or 4 seats separated by '/', not {players}.",
                "colours",
            )
        hand_size, extra_size = SEAT_SIZES[players]
        for number, seat in enumerate(self.seats, start=1):
            if (len(seat.hand), len(seat.extra)) != (hand_size, extra_size):
                raise RulesError(_size_message(players, number, seat), "colours")
        suns = sum(seat.suns for seat in self.seats)
        moons = sum(seat.moons for seat in self.seats)
        # With the sizes above the table holds 12 cards; the deck has only 12 of each colour.
        if suns > 12 or moons > 12:
            raise RulesError("The deck has only 12 Sun and 12 Moon cards.", "colours")

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def suns(self) -> int:
        return sum(seat.suns for seat in self.seats)

    @property
    def moons(self) -> int:
        return sum(seat.moons for seat in self.seats)

    def format(self) -> str:
        """The public notation, e.g. ``SSM/MMS/SMMS`` or ``SSMM+SM/SMMM+SS``."""
        return "/".join(seat.format() for seat in self.seats)

    def __str__(self) -> str:
        return self.format()


def _size_message(players: int, number: int, seat: Seat) -> str:
    if players == 2:
        return (
            f"With 2 players each seat holds a set of 4 and a set of 2, written like SSMM+SM; "
            f"seat {number} is {seat.format()!r}."
        )
    hand_size = SEAT_SIZES[players][0]
    if seat.extra:
        return (
            f"Only 2-player seats have a set of 2 ('+'); with {players} players "
            f"seat {number} holds {hand_size} cards."
        )
    return (
        f"With {players} players each seat holds {hand_size} cards; "
        f"seat {number} holds {len(seat.hand)}."
    )


def parse_colours(text: str) -> Seats:
    """Parse the colour notation (case-insensitive, spaces ignored) into valid Seats.

    Raises RulesError for anything that is not 2–4 seats of sizes 4+2 / 4 / 3 holding 12
    cards, with a sentence saying what is wrong.
    """
    if len(text) > MAX_COLOURS_TEXT:
        raise RulesError("The colours are far too long: 12 letters S or M are expected.", "colours")
    compact = "".join(text.split()).upper()
    if not compact:
        raise RulesError("The colours are empty: write them like SSM/MMS/SMMS.", "colours")
    seats = []
    for group in compact.split("/"):
        hand, plus, extra = group.partition("+")
        if plus and (not extra or "+" in extra):
            raise RulesError(
                f"A 2-player seat is a set of 4 and a set of 2 joined by one '+', not {group!r}.",
                "colours",
            )
        if not hand:
            raise RulesError("A seat has no cards: check the '/' separators.", "colours")
        seats.append(Seat(hand, extra))
    return Seats(tuple(seats))
