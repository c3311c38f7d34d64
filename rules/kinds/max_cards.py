"""``max_cards {segment, count}``: the segment holds at most ``count`` cards."""

from __future__ import annotations

from dataclasses import dataclass

from rules.kinds.base import CardsAtSegment, Resolution, register


@register
@dataclass(frozen=True, slots=True)
class MaxCards(CardsAtSegment):
    kind = "max_cards"
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

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (0, self.count)}

    def holds(self, resolution: Resolution) -> bool:
        return self.held(resolution) <= self.count

    def label(self) -> str:
        return f"≤{self.count}"
