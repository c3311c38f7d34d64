"""``card_count {segment, count}``: the segment holds exactly ``count`` cards, any colours."""

from __future__ import annotations

from dataclasses import dataclass

from rules.kinds.base import CardsAtSegment, Resolution, register


@register
@dataclass(frozen=True, slots=True)
class CardCount(CardsAtSegment):
    kind = "card_count"
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

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (self.count, self.count)}

    def holds(self, resolution: Resolution) -> bool:
        return self.held(resolution) == self.count

    def label(self) -> str:
        return f"={self.count}"
