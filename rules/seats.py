"""The colours each seat holds, as everyone sees them from the card backs.

Public notation: one group per seat in seating (play) order, separated by ``/``, each a string
of ``S`` and ``M`` — ``SSMM/MMSS/SMSM`` — and with 2 players each seat's set of 4 and set of 2
joined by ``+``: ``SSMM+SM/SMMM+SS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.game import BONUS_TOKENS

# Cards per seat: (hand, extra). With 2 players the "extra" is the set of 2 that joins the
# hand once each player has placed two cards.
SEAT_SIZES: dict[int, tuple[int, int]] = {2: (4, 2), 3: (4, 0), 4: (3, 0)}
MAX_COLOURS_TEXT = 200


def most_face_up(players: int) -> int:
    """The largest face-up budget a table of ``players`` can have: one card per player,
    plus one for each Bonus token a failed attempt may flip."""
    return players + BONUS_TOKENS


def _check_letters(text: str, field: str) -> None:
    bad = set(text) - {"S", "M"}
    if bad:
        raise RulesError.from_wording(_LETTERS, field, letters="".join(sorted(bad)))


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
            raise RulesError.from_wording(_SEAT_COUNT, "colours", players=players)
        hand_size, extra_size = SEAT_SIZES[players]
        for number, seat in enumerate(self.seats, start=1):
            if (len(seat.hand), len(seat.extra)) != (hand_size, extra_size):
                raise _size_error(players, number, seat)
        suns = sum(seat.suns for seat in self.seats)
        moons = sum(seat.moons for seat in self.seats)
        # With the sizes above the table holds 12 cards; the deck has only 12 of each colour.
        if suns > 12 or moons > 12:
            raise RulesError.from_wording(_DECK, "colours")

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def suns(self) -> int:
        return sum(seat.suns for seat in self.seats)

    @property
    def moons(self) -> int:
        return sum(seat.moons for seat in self.seats)

    @property
    def most_face_up(self) -> int:
        """The largest face-up budget this table can have (``most_face_up``)."""
        return most_face_up(self.players)

    def format(self) -> str:
        """The public notation, e.g. ``SSMM/MMSS/SMSM`` or ``SSMM+SM/SMMM+SS``."""
        return "/".join(seat.format() for seat in self.seats)

    def __str__(self) -> str:
        return self.format()


def _size_error(players: int, number: int, seat: Seat) -> RulesError:
    if players == 2:
        return RulesError.from_wording(_TWO_SIZES, "colours", number=number, seat=seat.format())
    hand_size = SEAT_SIZES[players][0]
    if seat.extra:
        return RulesError.from_wording(
            _NO_EXTRA, "colours", players=players, number=number, size=hand_size
        )
    return RulesError.from_wording(
        _SIZE, "colours", players=players, size=hand_size, number=number, held=len(seat.hand)
    )


_LETTERS = {
    "en": "Colours are written with S (Sun) and M (Moon) only, not {letters!r}.",
    "nl": "Kleuren schrijf je alleen met S (zon) en M (maan), niet met {letters!r}.",
    "ja": "色はS（太陽）とM（月）だけで書きます（「{letters}」は使えません）。",
}
_SEAT_COUNT = {
    "en": "Colours must describe 2, 3 or 4 seats separated by '/', not {players}.",
    "nl": "De kleuren moeten 2, 3 of 4 stoelen beschrijven, gescheiden door '/', niet {players}.",
    "ja": "色は「/」で区切って2〜4席分を書いてください（{players}席ではありません）。",
}
_DECK = {
    "en": "The deck has only 12 Sun and 12 Moon cards.",
    "nl": "Het spel heeft maar 12 zonkaarten en 12 maankaarten.",
    "ja": "山札には太陽のカードと月のカードが12枚ずつしかありません。",
}
_TWO_SIZES = {
    "en": "With 2 players each seat holds a set of 4 and a set of 2, written like SSMM+SM; "
    "seat {number} is {seat!r}.",
    "nl": "Met 2 spelers heeft elke stoel een set van 4 en een set van 2, geschreven als "
    "SSMM+SM; stoel {number} is {seat!r}.",
    "ja": "2人プレイでは各席に4枚のセットと2枚のセットがあり、SSMM+SMのように書きます。"
    "{number}番目の席は「{seat}」です。",
}
_NO_EXTRA = {
    "en": "Only 2-player seats have a set of 2 ('+'); with {players} players "
    "seat {number} holds {size} cards.",
    "nl": "Alleen stoelen bij 2 spelers hebben een set van 2 ('+'); met {players} spelers "
    "heeft stoel {number} {size} kaarten.",
    "ja": "2枚のセット（「+」）があるのは2人プレイの席だけです。{players}人プレイでは"
    "{number}番目の席のカードは{size}枚です。",
}
_SIZE = {
    "en": "With {players} players each seat holds {size} cards; seat {number} holds {held}.",
    "nl": "Met {players} spelers heeft elke stoel {size} kaarten; stoel {number} heeft er {held}.",
    "ja": "{players}人プレイでは各席のカードは{size}枚ですが、"
    "{number}番目の席には{held}枚あります。",
}


def parse_colours(text: str) -> Seats:
    """Parse the colour notation (case-insensitive, spaces ignored) into valid Seats.

    Raises RulesError for anything that is not 2–4 seats of sizes 4+2 / 4 / 3 holding 12
    cards, with a sentence saying what is wrong.
    """
    if len(text) > MAX_COLOURS_TEXT:
        raise RulesError.from_wording(_COLOURS_TOO_LONG, "colours")
    compact = "".join(text.split()).upper()
    if not compact:
        raise RulesError.from_wording(_COLOURS_EMPTY, "colours")
    seats = []
    for group in compact.split("/"):
        hand, plus, extra = group.partition("+")
        if plus and (not extra or "+" in extra):
            raise RulesError.from_wording(_PLUS, "colours", group=group)
        if not hand:
            raise RulesError.from_wording(_EMPTY_SEAT, "colours")
        seats.append(Seat(hand, extra))
    return Seats(tuple(seats))


_COLOURS_TOO_LONG = {
    "en": "The colours are far too long: 12 letters S or M are expected.",
    "nl": "De kleuren zijn veel te lang: er worden 12 letters S of M verwacht.",
    "ja": "色が長すぎます。SかMの12文字を入力してください。",
}
_COLOURS_EMPTY = {
    "en": "The colours are empty: write them like SSMM/MMSS/SMSM.",
    "nl": "De kleuren zijn leeg: schrijf ze als SSMM/MMSS/SMSM.",
    "ja": "色が空です。SSMM/MMSS/SMSMのように書いてください。",
}
_PLUS = {
    "en": "A 2-player seat is a set of 4 and a set of 2 joined by one '+', not {group!r}.",
    "nl": "Een stoel bij 2 spelers is een set van 4 en een set van 2, verbonden door één '+', "
    "niet {group!r}.",
    "ja": "2人プレイの席は、4枚のセットと2枚のセットを1つの「+」でつないで書きます"
    "（「{group}」ではありません）。",
}
_EMPTY_SEAT = {
    "en": "A seat has no cards: check the '/' separators.",
    "nl": "Een stoel heeft geen kaarten: controleer de scheidingstekens '/'.",
    "ja": "カードのない席があります。区切りの「/」を確認してください。",
}
