"""``first_cards {segments: [a, b]}``: the group's first card goes to segment a, its second
to segment b (more cards may join them later). Restricts placement."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.i18n import say
from rules.kinds.base import Resolution, Rule, Segment, as_resolution, register
from rules.layout import Layout, Move
from rules.verdict import Violation

_ORDINAL = {
    "en": ("first", "second"),
    "nl": ("eerste", "tweede"),
    "ja": ("最初", "2枚目"),
}


@register
@dataclass(frozen=True, slots=True)
class FirstCards(Rule):
    kind = "first_cards"
    icon = "order"
    restricts_placement = True
    wording = {
        "en": "The group's first card must go to segment {a} and its second card to segment {b}.",
        "nl": "De eerste kaart die de groep speelt, moet bij segment {a} liggen en de tweede "
        "bij segment {b}.",
        "ja": "グループが最初に置くカードは第{a}区画に、2枚目は第{b}区画に置かなければなりません。",
    }
    broken = {
        "en": "The group's {nth} card must go to segment {wanted}, but it went to segment "
        "{actual}.",
        "nl": "De {nth} kaart van de groep moet bij segment {wanted} liggen, maar ligt bij "
        "segment {actual}.",
        "ja": "グループの{nth}のカードは第{wanted}区画に置かなければなりませんが、"
        "第{actual}区画に置かれました。",
    }
    refused = {
        "en": "The group's {nth} card must go to segment {wanted}.",
        "nl": "De {nth} kaart van de groep moet bij segment {wanted} liggen.",
        "ja": "グループの{nth}のカードは第{wanted}区画に置かなければなりません。",
    }

    segments: tuple[Segment, ...]

    def check_params(self) -> None:
        if len(self.segments) != 2:
            raise RulesError.from_wording(_TWO_SEGMENTS, "segments")

    def _wrong(self, moves: tuple[Move, ...]) -> int | None:
        """Index (0 or 1) of the first of the two opening moves that went elsewhere."""
        for index, wanted in enumerate(self.segments):
            if index < len(moves) and moves[index].segment != wanted:
                return index
        return None

    def holds(self, resolution: Resolution) -> bool:
        moves = resolution.layout.moves
        return moves is None or self._wrong(moves) is None

    def check(
        self, board: Resolution | Layout, lang: str = "en", start: int = 1
    ) -> Violation | None:
        resolution = as_resolution(board, start)
        # Name the segment that should have received the misplaced card, not always ``a``.
        moves = resolution.layout.moves
        wrong = None if moves is None else self._wrong(moves)
        if moves is None or wrong is None:
            return None
        message = say(
            self.broken,
            lang,
            nth=_ORDINAL.get(lang, _ORDINAL["en"])[wrong],
            wanted=self.segments[wrong],
            actual=moves[wrong].segment,
        )
        return Violation(self.kind, self.segments[wrong], message)

    def explain(self, resolution: Resolution, lang: str) -> str:
        violation = self.check(resolution, lang)
        return "" if violation is None else violation.message

    def check_move(
        self, moves_so_far: tuple[Move, ...], proposed: Move, lang: str = "en"
    ) -> str | None:
        index = len(moves_so_far)
        if index < 2 and proposed.segment != self.segments[index]:
            nth = _ORDINAL.get(lang, _ORDINAL["en"])[index]
            return say(self.refused, lang, nth=nth, wanted=self.segments[index])
        return None

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"a": self.segments[0], "b": self.segments[1]}

    def label(self) -> str:
        return "1st→2nd"

    def anchors(self) -> tuple[tuple[int | None, str], ...]:
        return ((self.segments[0], "#1"), (self.segments[1], "#2"))


_TWO_SEGMENTS = {
    "en": "'segments' lists two segments: where the first and the second card go.",
    "nl": "'segments' noemt twee segmenten: waar de eerste en de tweede kaart komen.",
    "ja": "「segments」には2つの区画を書きます。1枚目と2枚目のカードを置く区画です。",
}
