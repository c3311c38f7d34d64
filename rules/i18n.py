"""Wording for the three languages the app speaks.

The pure packages cannot use Django's gettext, so each piece of wording is a dict
``{"en": ..., "nl": ..., "ja": ...}`` of ``str.format`` templates next to the code that uses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.errors import RulesError

LANGUAGES = ("en", "nl", "ja")

Wording = Mapping[str, str]

_UNKNOWN_LANGUAGE = {
    "en": "Unknown language {lang!r}: use one of en, nl, ja.",
    "nl": "Onbekende taal {lang!r}: gebruik en, nl of ja.",
    "ja": "不明な言語{lang!r}です。en、nl、jaのいずれかを使ってください。",
}

# A card's colour by its letter (rules.cards.Colour's value), as a noun: "no Sun card left".
COLOUR_NAMES: Mapping[str, Wording] = {
    "S": {"en": "Sun", "nl": "zon", "ja": "太陽"},
    "M": {"en": "Moon", "nl": "maan", "ja": "月"},
}


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is one of LANGUAGES, else raise RulesError."""
    if lang not in LANGUAGES:
        raise RulesError.from_wording(_UNKNOWN_LANGUAGE, "lang", lang=lang)
    return lang


def say(wording: Wording, lang: str, /, **values: object) -> str:
    """Fill the template of ``wording`` for ``lang`` (English when the language is missing)."""
    template = wording.get(lang) or wording["en"]
    return template.format(**values) if values else template


def cards(count: int, lang: str) -> str:
    """'1 card', '3 cards' — with the plural each language needs (Japanese has none)."""
    if lang == "nl":
        return f"{count} kaart" if count == 1 else f"{count} kaarten"
    if lang == "ja":
        return f"{count}枚のカード"
    return f"{count} card" if count == 1 else f"{count} cards"


def join_words(items: Sequence[str], lang: str) -> str:
    """'a', 'a and b', 'a, b and c' (Dutch 'en', Japanese '、')."""
    if lang == "ja":
        return "、".join(items)
    word = " en " if lang == "nl" else " and "
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + word + items[-1]


def join_numbers(numbers: Sequence[int], lang: str) -> str:
    """'3', '3 and 5', '3, 5 and 6' (Dutch 'en', Japanese '、')."""
    return join_words([str(n) for n in numbers], lang)
