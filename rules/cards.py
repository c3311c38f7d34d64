"""The 24 cards: Sun 1–12 and Moon 1–12, and their public notation (``S7``, ``M12``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import RulesError


class Colour(StrEnum):
    """A card's colour, which its back shows to everyone."""

    SUN = "S"
    MOON = "M"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card, ordered by colour letter (M before S) then value; ``str(card)`` is ``S7``."""

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise RulesError.from_wording(_NOT_A_COLOUR, "card", colour=self.colour)
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise RulesError.from_wording(_NOT_A_VALUE, "card", value=self.value)
        if not 1 <= self.value <= 12:
            raise RulesError.from_wording(
                _OUT_OF_RANGE, "card", text=f"{self.colour.value}{self.value}"
            )

    def __str__(self) -> str:
        return f"{self.colour.value}{self.value}"


_NOT_A_COLOUR = {
    "en": "{colour!r} is not a colour: use S (Sun) or M (Moon).",
    "nl": "{colour!r} is geen kleur: gebruik S (zon) of M (maan).",
    "ja": "{colour!r}は色ではありません。S（太陽）かM（月）を使ってください。",
}
_NOT_A_VALUE = {
    "en": "{value!r} is not a card value: use 1–12.",
    "nl": "{value!r} is geen kaartwaarde: gebruik 1–12.",
    "ja": "{value!r}はカードの数字ではありません。1〜12を使ってください。",
}
_OUT_OF_RANGE = {
    "en": "{text} is not a card: values go from 1 to 12.",
    "nl": "{text} is geen kaart: de waarden lopen van 1 tot en met 12.",
    "ja": "{text}はカードではありません。数字は1から12までです。",
}
_NOT_A_CARD = {
    "en": "{text!r} is not a card: write S (Sun) or M (Moon) and a value 1–12, like S7.",
    "nl": "{text!r} is geen kaart: schrijf S (zon) of M (maan) en een waarde 1–12, zoals S7.",
    "ja": "「{text}」はカードではありません。S（太陽）かM（月）に1〜12の数字を付けて、"
    "S7のように書いてください。",
}
_BAD_COLOUR = {
    "en": "{text!r} is not a card: the colour is S (Sun) or M (Moon), like S7 or M12.",
    "nl": "{text!r} is geen kaart: de kleur is S (zon) of M (maan), zoals S7 of M12.",
    "ja": "「{text}」はカードではありません。色はS（太陽）かM（月）で、S7やM12のように書きます。",
}
_LEADING_ZERO = {
    "en": "{text!r} is not a card: write the value without a leading zero, like S7.",
    "nl": "{text!r} is geen kaart: schrijf de waarde zonder voorloopnul, zoals S7.",
    "ja": "「{text}」はカードではありません。S7のように、数字の前に0を付けずに書いてください。",
}

# Parsing is on the hot path of bulk imports, so the notation is matched by one regex and the
# 24 Card objects are shared rather than rebuilt.
_CARD_RE = re.compile(r"([A-Za-z]*)(\d+)")

DECK: tuple[Card, ...] = tuple(
    Card(colour, value) for colour in (Colour.SUN, Colour.MOON) for value in range(1, 13)
)
_BY_TEXT = {str(card): card for card in DECK}


def parse_card(text: str) -> Card:
    """Parse ``S7`` / ``m12`` (case-insensitive, no face-up mark) into a Card.

    Raises RulesError with a sentence naming the bad text for anything else: ``S13``, ``S0``,
    ``X3``, ``S07`` (no leading zeros, so every card has exactly one spelling).
    """
    stripped = text.strip()
    card = _BY_TEXT.get(stripped.upper())
    if card is not None:
        return card
    match = _CARD_RE.fullmatch(stripped)
    if match is None:
        raise RulesError.from_wording(_NOT_A_CARD, "card", text=stripped)
    letters, digits = match.groups()
    if letters.upper() not in ("S", "M"):
        raise RulesError.from_wording(_BAD_COLOUR, "card", text=stripped)
    if digits.startswith("0") and 1 <= int(digits) <= 12:
        raise RulesError.from_wording(_LEADING_ZERO, "card", text=stripped)
    raise RulesError.from_wording(_OUT_OF_RANGE, "card", text=repr(stripped))
