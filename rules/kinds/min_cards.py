"""``min_cards {segment, count}``: the segment holds at least ``count`` cards."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.kinds.base import CardsAtSegment, Resolution, register

_COUNT = {
    "en": "'count' is from 1 to 12.",
    "nl": "'count' is van 1 tot en met 12.",
    "ja": "「count」は1から12までです。",
}


@register
@dataclass(frozen=True, slots=True)
class MinCards(CardsAtSegment):
    kind = "min_cards"
    wording = {
        "en": "Segment {segment} must hold at least {cards}.",
        "nl": "Segment {segment} moet minstens {cards} hebben.",
        "ja": "第{segment}区画には少なくとも{cards}を置かなければなりません。",
    }
    broken = {
        "en": "Segment {segment} must hold at least {cards}, but it holds {actual}.",
        "nl": "Segment {segment} moet minstens {cards} hebben, maar heeft er {actual}.",
        "ja": "第{segment}区画には少なくとも{cards}が必要ですが、{actual}枚です。",
    }

    def check_params(self) -> None:
        if self.count < 1:
            raise RulesError.from_wording(_COUNT, "count")

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (self.count, 12)}

    def holds(self, resolution: Resolution) -> bool:
        return self.held(resolution) >= self.count

    def label(self) -> str:
        return f"≥{self.count}"
