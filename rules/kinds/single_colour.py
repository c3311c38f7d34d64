"""``single_colour {segment, colour?}``: all cards at the segment are of one colour; with
``colour`` ("S" or "M") that colour. An empty segment is left to the base rule."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Colour
from rules.i18n import COLOUR_NAMES, say
from rules.kinds.base import ColourLetter, Resolution, Rule, Segment, register

_ANY = {
    "en": "All cards at segment {segment} must be of one colour.",
    "nl": "Alle kaarten bij segment {segment} moeten dezelfde kleur hebben.",
    "ja": "第{segment}区画のカードはすべて同じ色でなければなりません。",
}
_GIVEN = {
    "en": "All cards at segment {segment} must be {noun} cards.",
    "nl": "Alle kaarten bij segment {segment} moeten {noun}kaarten zijn.",
    "ja": "第{segment}区画のカードはすべて{noun}カードでなければなりません。",
}
_MIXED = {
    "en": "All cards at segment {segment} must be of one colour, but it holds both Sun and "
    "Moon cards.",
    "nl": "Alle kaarten bij segment {segment} moeten dezelfde kleur hebben, maar er liggen zon- "
    "én maankaarten.",
    "ja": "第{segment}区画のカードはすべて同じ色でなければなりませんが、"
    "太陽カードと月カードが混ざっています。",
}
_OTHER = {
    "en": "All cards at segment {segment} must be {noun} cards, but {card} is there.",
    "nl": "Alle kaarten bij segment {segment} moeten {noun}kaarten zijn, maar {card} ligt er.",
    "ja": "第{segment}区画のカードはすべて{noun}カードでなければなりませんが、{card}があります。",
}


@register
@dataclass(frozen=True, slots=True)
class SingleColour(Rule):
    kind = "single_colour"
    icon = "colour"
    wording = _ANY

    segment: Segment
    colour: ColourLetter | None = None

    def holds(self, resolution: Resolution) -> bool:
        colours = {card.colour for card in resolution.layout.segments[self.segment - 1]}
        if self.colour is None:
            return len(colours) <= 1
        return colours <= {Colour(self.colour)}

    def describe(self, lang: str = "en") -> str:
        if self.colour is None:
            return say(_ANY, lang, segment=self.segment)
        noun = say(COLOUR_NAMES[self.colour], lang)
        return say(_GIVEN, lang, segment=self.segment, noun=noun)

    def explain(self, resolution: Resolution, lang: str) -> str:
        group = resolution.layout.segments[self.segment - 1]
        if self.colour is None:
            return say(_MIXED, lang, segment=self.segment)
        other = next(card for card in group if card.colour.value != self.colour)
        noun = say(COLOUR_NAMES[self.colour], lang)
        return say(_OTHER, lang, segment=self.segment, noun=noun, card=other)

    def label(self) -> str:
        return self.colour or "S/M"
