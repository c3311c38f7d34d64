"""``forbidden_values {segment, values: [...]}``: no card with one of those values (any
colour) may be at the segment."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RulesError
from rules.i18n import say
from rules.kinds.base import Resolution, Rule, Segment, Value, register


def _alternatives(values: tuple[int, ...], lang: str) -> str:
    """'7', '3 or 7', '3, 5 or 7' in ``lang``."""
    parts = [str(value) for value in values]
    if lang == "ja":
        return "または".join(parts)
    word = " of " if lang == "nl" else " or "
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + word + parts[-1]


@register
@dataclass(frozen=True, slots=True)
class ForbiddenValues(Rule):
    kind = "forbidden_values"
    icon = "forbidden"
    wording = {
        "en": "No card of value {values} may be at segment {segment}.",
        "nl": "Bij segment {segment} mag geen kaart met waarde {values} liggen.",
        "ja": "第{segment}区画には値が{values}のカードを置いてはいけません。",
    }
    broken = {
        "en": "No card of value {values} may be at segment {segment}, but {card} is there.",
        "nl": "Bij segment {segment} mag geen kaart met waarde {values} liggen, maar {card} "
        "ligt er.",
        "ja": "第{segment}区画には値が{values}のカードを置いてはいけませんが、{card}があります。",
    }

    segment: Segment
    values: tuple[Value, ...]

    def check_params(self) -> None:
        if not self.values:
            raise RulesError.from_wording(_AT_LEAST_ONE, "values")
        if len(set(self.values)) != len(self.values):
            raise RulesError.from_wording(_ONCE, "values")

    def normalised(self) -> ForbiddenValues:
        # "3 or 7" and "7 or 3" forbid the same cards.
        return replace(self, values=tuple(sorted(self.values)))

    def _offender(self, resolution: Resolution) -> str | None:
        """The lowest forbidden card there (card order, not the order they were listed in,
        so the verdict is the same however a segment's cards were written)."""
        offenders = [
            c for c in resolution.layout.segments[self.segment - 1] if c.value in self.values
        ]
        return str(min(offenders)) if offenders else None

    def holds(self, resolution: Resolution) -> bool:
        return self._offender(resolution) is None

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "values": _alternatives(self.values, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        card = self._offender(resolution)
        return say(self.broken, lang, card=card, **self.wording_values(lang))

    def label(self) -> str:
        return "≠" + ",".join(str(value) for value in self.values)


_AT_LEAST_ONE = {
    "en": "'values' lists at least one forbidden value.",
    "nl": "'values' noemt minstens één verboden waarde.",
    "ja": "「values」には禁止する数字を1つ以上書きます。",
}
_ONCE = {
    "en": "'values' lists each forbidden value once.",
    "nl": "'values' noemt elke verboden waarde maar één keer.",
    "ja": "「values」には禁止する数字をそれぞれ1回だけ書きます。",
}
