"""``min_cards {segment, count}``: the segment holds at least ``count`` cards."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.i18n import cards, say
from rules.kinds.base import Count, Resolution, Rule, Segment, register


@register
@dataclass(frozen=True, slots=True)
class MinCards(Rule):
    kind = "min_cards"
    icon = "cards"
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

    segment: Segment
    count: Count

    def check_params(self) -> None:
        if self.count < 1:
            raise RulesError.from_wording(_COUNT, "count")

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        return {self.segment: (self.count, 12)}

    def holds(self, resolution: Resolution) -> bool:
        return len(resolution.layout.segments[self.segment - 1]) >= self.count

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "cards": cards(self.count, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        actual = len(resolution.layout.segments[self.segment - 1])
        return say(self.broken, lang, actual=actual, **self.wording_values(lang))

    def label(self) -> str:
        return f"≥{self.count}"


_COUNT = {
    "en": "'count' is from 1 to 12.",
    "nl": "'count' is van 1 tot en met 12.",
    "ja": "「count」は1から12までです。",
}
