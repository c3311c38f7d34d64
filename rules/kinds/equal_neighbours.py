"""``equal_neighbours {segments: [a, b]}``: two neighbouring segments have equal values."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RulesError
from rules.i18n import say
from rules.kinds.base import Resolution, Rule, Segment, register


@register
@dataclass(frozen=True, slots=True)
class EqualNeighbours(Rule):
    kind = "equal_neighbours"
    icon = "equal"
    wording = {
        "en": "Segments {a} and {b} must have equal values.",
        "nl": "Segment {a} en segment {b} moeten dezelfde waarde hebben.",
        "ja": "第{a}区画と第{b}区画の値は同じでなければなりません。",
    }
    broken = {
        "en": "Segments {a} and {b} must have equal values, but they are {x} and {y}.",
        "nl": "Segment {a} en segment {b} moeten dezelfde waarde hebben, maar die zijn {x} en {y}.",
        "ja": "第{a}区画と第{b}区画の値は同じでなければなりませんが、{x}と{y}です。",
    }

    segments: tuple[Segment, ...]

    def check_params(self) -> None:
        if len(self.segments) != 2:
            raise RulesError.from_wording(_TWO_SEGMENTS, "segments")
        a, b = self.segments
        # Neighbours on the clock face: 1–2, ..., 5–6 and 6–1.
        if (a - b) % 6 not in (1, 5):
            raise RulesError.from_wording(_NOT_NEIGHBOURS, "segments", a=a, b=b)

    def normalised(self) -> EqualNeighbours:
        # Equality is symmetric: segments 2 and 1 are segments 1 and 2.
        return replace(self, segments=tuple(sorted(self.segments)))

    def holds(self, resolution: Resolution) -> bool:
        a, b = self.segments
        return resolution.layout.sums[a - 1] == resolution.layout.sums[b - 1]

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"a": self.segments[0], "b": self.segments[1]}

    def explain(self, resolution: Resolution, lang: str) -> str:
        a, b = self.segments
        sums = resolution.layout.sums
        return say(self.broken, lang, a=a, b=b, x=sums[a - 1], y=sums[b - 1])

    def label(self) -> str:
        return "="

    def anchors(self) -> tuple[tuple[int | None, str], ...]:
        return tuple((segment, "=") for segment in self.segments)


_TWO_SEGMENTS = {
    "en": "'segments' lists the two neighbouring segments.",
    "nl": "'segments' noemt de twee naburige segmenten.",
    "ja": "「segments」には隣り合う2つの区画を書きます。",
}
_NOT_NEIGHBOURS = {
    "en": "Segments {a} and {b} are not neighbours on the clock face.",
    "nl": "De segmenten {a} en {b} liggen niet naast elkaar op de klok.",
    "ja": "第{a}区画と第{b}区画は時計盤上で隣り合っていません。",
}
