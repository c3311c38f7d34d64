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
            raise RulesError(f"{self.colour!r} is not a colour: use S (Sun) or M (Moon).", "card")
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise RulesError(f"{self.value!r} is not a card value: use 1–12.", "card")
        if not 1 <= self.value <= 12:
            raise RulesError(
                f"{self.colour.value}{self.value} is not a card: values go from 1 to 12.", "card"
            )

    def __str__(self) -> str:
        return f"{self.colour.value}{self.value}"


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
        raise RulesError(
            f"{stripped!r} is not a card: write S (Sun) or M (Moon) and a value 1–12, like S7.",
            "card",
        )
    letters, digits = match.groups()
    if letters.upper() not in ("S", "M"):
        raise RulesError(
            f"{stripped!r} is not a card: the colour is S (Sun) or M (Moon), like S7 or M12.",
            "card",
        )
    if digits.startswith("0") and 1 <= int(digits) <= 12:
        raise RulesError(
            f"{stripped!r} is not a card: write the value without a leading zero, like S7.",
            "card",
        )
    raise RulesError(f"{stripped!r} is not a card: values go from 1 to 12.", "card")


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards in notation separated by spaces: ``S3 M5``."""
    return " ".join(str(card) for card in cards)
