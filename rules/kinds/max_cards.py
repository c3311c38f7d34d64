"""``max_cards {segment, count}``: the segment holds at most ``count`` cards."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.i18n import cards, say
from rules.kinds.base import NEEDS_A_CARD, Count, Resolution, Rule, Segment, register


@register
@dataclass(frozen=True, slots=True)
class MaxCards(Rule):
    kind = "max_cards"
    icon = "cards"
    wording = {
        "en": "Segment {segment} may hold at most {cards}.",
        "nl": "Segment {segment} mag hoogstens {cards} hebben.",
        "ja": "第{segment}区画に置けるのは{cards}までです。",
    }
    broken = {
        "en": "Segment {segment} may hold at most {cards}, but it holds {actual}.",
        "nl": "Segment {segment} mag hoogstens {cards} hebben, maar heeft er {actual}.",
        "ja": "第{segment}区画に置けるのは{cards}までですが、{actual}枚あります。",
    }

    segment: Segment
    count: Count

    def check_params(self) -> None:
        if self.count < 1:
            raise RulesError.from_wording(NEEDS_A_CARD, "count")

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (0, self.count)}

    def holds(self, resolution: Resolution) -> bool:
        return len(resolution.layout.segments[self.segment - 1]) <= self.count

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "cards": cards(self.count, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        actual = len(resolution.layout.segments[self.segment - 1])
        return say(self.broken, lang, actual=actual, **self.wording_values(lang))

    def label(self) -> str:
        return f"≤{self.count}"
