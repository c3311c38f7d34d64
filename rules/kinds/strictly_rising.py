"""``strictly_rising {}`` (centre rule): read from the start segment, each value is strictly
greater than the previous one — the base rule without its ties."""

from __future__ import annotations

from dataclasses import dataclass

from rules.i18n import say
from rules.kinds.base import Resolution, Rule, as_resolution, register
from rules.layout import Layout
from rules.verdict import Violation


def first_tie(resolution: Resolution) -> int | None:
    """Index (reading order) of the first non-empty segment whose value is not greater than
    the previous non-empty one. Empty segments are the base rule's business, so skipped."""
    previous = None
    groups = resolution.layout.segments
    for index, value in enumerate(resolution.values):
        if not groups[(resolution.start - 1 + index) % 6]:
            continue
        if previous is not None and value <= previous:
            return index
        previous = value
    return None


@register
@dataclass(frozen=True, slots=True)
class StrictlyRising(Rule):
    kind = "strictly_rising"
    icon = "rising"
    wording = {
        "en": "From the start segment, each value must be greater than the previous one (no ties).",
        "nl": "Vanaf het startsegment moet elke waarde groter zijn dan de vorige "
        "(geen gelijke waardes).",
        "ja": "開始区画から時計回りに、各区画の値は前の区画の値より大きくなければなりません"
        "（同値は不可）。",
    }
    broken = {
        "en": "Each value must be greater than the previous one, but segment {segment} has "
        "{value} after {previous}.",
        "nl": "Elke waarde moet groter zijn dan de vorige, maar segment {segment} heeft {value} "
        "na {previous}.",
        "ja": "各区画の値は前の区画の値より大きくなければなりませんが、第{segment}区画は"
        "{previous}の次に{value}です。",
    }

    def holds(self, resolution: Resolution) -> bool:
        return first_tie(resolution) is None

    def check(
        self, board: Resolution | Layout, lang: str = "en", start: int = 1
    ) -> Violation | None:
        resolution = as_resolution(board, start)
        index = first_tie(resolution)
        if index is None:
            return None
        segment = (resolution.start - 1 + index) % 6 + 1
        values = resolution.values
        previous = max(values[:index])  # the last non-empty value is the largest so far
        message = say(self.broken, lang, segment=segment, value=values[index], previous=previous)
        return Violation(self.kind, segment, message)

    def explain(self, resolution: Resolution, lang: str) -> str:
        violation = self.check(resolution, lang)
        return "" if violation is None else violation.message

    def label(self) -> str:
        return "<"
