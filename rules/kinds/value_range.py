"""``value_range {segment, min, max}``: the segment's value is from ``min`` to ``max``,
both included."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.i18n import say
from rules.kinds.base import Resolution, Rule, Segment, Total, register


@register
@dataclass(frozen=True, slots=True)
class ValueRange(Rule):
    kind = "value_range"
    icon = "range"
    wording = {
        "en": "The value of segment {segment} must be from {min} to {max} (both included).",
        "nl": "De waarde van segment {segment} moet tussen {min} en {max} liggen "
        "(beide inbegrepen).",
        "ja": "第{segment}区画の値は{min}以上{max}以下でなければなりません。",
    }
    broken = {
        "en": "The value of segment {segment} must be from {min} to {max}, but it is {actual}.",
        "nl": "De waarde van segment {segment} moet tussen {min} en {max} liggen, "
        "maar is {actual}.",
        "ja": "第{segment}区画の値は{min}以上{max}以下でなければなりませんが、{actual}です。",
    }

    segment: Segment
    min: Total
    max: Total

    def check_params(self) -> None:
        if self.min > self.max:
            raise RulesError.from_wording(_MIN_MAX, "min", min=self.min, max=self.max)

    def holds(self, resolution: Resolution) -> bool:
        return self.min <= resolution.layout.sums[self.segment - 1] <= self.max

    def explain(self, resolution: Resolution, lang: str) -> str:
        actual = resolution.layout.sums[self.segment - 1]
        return say(self.broken, lang, actual=actual, **self.wording_values(lang))

    def label(self) -> str:
        return f"{self.min}–{self.max}"


_MIN_MAX = {
    "en": "'min' ({min}) cannot be greater than 'max' ({max}).",
    "nl": "'min' ({min}) kan niet groter zijn dan 'max' ({max}).",
    "ja": "「min」（{min}）は「max」（{max}）より大きくできません。",
}
