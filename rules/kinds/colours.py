"""``colours {segment, sun, moon}``: the segment holds exactly ``sun`` Sun cards and ``moon``
Moon cards (so exactly ``sun + moon`` cards)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Colour
from rules.errors import RulesError
from rules.i18n import say
from rules.kinds.base import Count, Resolution, Rule, Segment, register


def colour_counts(suns: int, moons: int, lang: str) -> str:
    """'1 Sun card and no Moon card', '2 Moon cards and no Sun card', 'no card' in ``lang``;
    colours present come first, so the sentence reads naturally."""
    if lang == "ja":
        return f"太陽カード{suns}枚と月カード{moons}枚" if suns + moons else "カード0枚"
    if lang == "nl":
        nouns, none, joiner, plural = ("zonkaart", "maankaart"), "geen kaart", " en ", "en"
    else:
        nouns, none, joiner, plural = ("Sun card", "Moon card"), "no card", " and ", "s"
    if suns + moons == 0:
        return none
    parts = [(suns, nouns[0]), (moons, nouns[1])]
    parts.sort(key=lambda part: part[0] == 0)  # stable: present colours first
    zero = "geen" if lang == "nl" else "no"
    words = [
        f"{zero} {noun}" if count == 0 else f"{count} {noun}{plural if count > 1 else ''}"
        for count, noun in parts
    ]
    return joiner.join(words)


@register
@dataclass(frozen=True, slots=True)
class Colours(Rule):
    kind = "colours"
    icon = "colours"
    wording = {
        "en": "Segment {segment} must hold exactly {colours}.",
        "nl": "Segment {segment} moet precies {colours} hebben.",
        "ja": "第{segment}区画にはちょうど{colours}を置かなければなりません。",
    }
    broken = {
        "en": "Segment {segment} must hold exactly {colours}, but it holds {actual}.",
        "nl": "Segment {segment} moet precies {colours} hebben, maar heeft {actual}.",
        "ja": "第{segment}区画にはちょうど{colours}が必要ですが、{actual}です。",
    }

    segment: Segment
    sun: Count
    moon: Count

    def check_params(self) -> None:
        if self.sun + self.moon < 1:
            raise RulesError.from_wording(_AT_LEAST_ONE, "sun")
        if self.sun + self.moon > 12:
            raise RulesError.from_wording(_AT_MOST_TWELVE, "sun")

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        total = self.sun + self.moon
        return {self.segment: (total, total)}

    def _actual(self, resolution: Resolution) -> tuple[int, int]:
        group = resolution.layout.segments[self.segment - 1]
        suns = sum(1 for card in group if card.colour is Colour.SUN)
        return suns, len(group) - suns

    def holds(self, resolution: Resolution) -> bool:
        return self._actual(resolution) == (self.sun, self.moon)

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "colours": colour_counts(self.sun, self.moon, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        actual = colour_counts(*self._actual(resolution), lang)
        return say(self.broken, lang, actual=actual, **self.wording_values(lang))

    def label(self) -> str:
        if self.sun + self.moon <= 3:
            return "S" * self.sun + "M" * self.moon
        return f"{self.sun}S{self.moon}M"


_AT_LEAST_ONE = {
    "en": "Every segment needs a card, so 'sun' + 'moon' is at least 1.",
    "nl": "Elk segment heeft een kaart nodig, dus 'sun' + 'moon' is minstens 1.",
    "ja": "どの区画にもカードが必要なので、「sun」+「moon」は1以上です。",
}
_AT_MOST_TWELVE = {
    "en": "Only 12 cards are in play, so 'sun' + 'moon' is at most 12.",
    "nl": "Er zijn maar 12 kaarten in het spel, dus 'sun' + 'moon' is hoogstens 12.",
    "ja": "使われるカードは12枚だけなので、「sun」+「moon」は12以下です。",
}
