"""``card_count {segment, count}``: the segment holds exactly ``count`` cards, any colours."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.i18n import cards, say
from rules.kinds.base import NEEDS_A_CARD, Count, Resolution, Rule, Segment, register


@register
@dataclass(frozen=True, slots=True)
class CardCount(Rule):
    kind = "card_count"
    icon = "cards"
    wording = {
        "en": "Segment {segment} must hold exactly {cards}.",
        "nl": "Segment {segment} moet precies {cards} hebben.",
        "ja": "第{segment}区画にはちょうど{cards}を置かなければなりません。",
    }
    broken = {
        "en": "Segment {segment} must hold exactly {cards}, but it holds {actual}.",
        "nl": "Segment {segment} moet precies {cards} hebben, maar heeft er {actual}.",
        "ja": "第{segment}区画にはちょうど{cards}が必要ですが、{actual}枚です。",
    }

    segment: Segment
    count: Count

    def check_params(self) -> None:
        if self.count < 1:
            raise RulesError.from_wording(NEEDS_A_CARD, "count")

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (self.count, self.count)}

    def holds(self, resolution: Resolution) -> bool:
        return len(resolution.layout.segments[self.segment - 1]) == self.count

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "cards": cards(self.count, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        actual = len(resolution.layout.segments[self.segment - 1])
        return say(self.broken, lang, actual=actual, **self.wording_values(lang))

    def label(self) -> str:
        return f"={self.count}"
