"""Cards around the clock, and the two public ways to write them.

- Segment form: six groups in segment order 1–6 separated by ``|``, each the cards at that
  segment in the order placed: ``S3 | M5 | S2 M3 | M9 | S6 S8 | M12 S9``.
- Move form: the cards in play order, each with its segment: ``S3@1 M5@2 S2@3 ...``. Only this
  form tells the play order, which placement rules (``first_cards``...) need.
A trailing ``*`` marks a card played face up: ``S7*`` / ``S7*@3``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.cards import Card, parse_card
from rules.errors import RulesError

SEGMENTS = (1, 2, 3, 4, 5, 6)
MAX_LAYOUT_CHARS = 2000  # a full layout is under 100 characters; more is a mistake or abuse

_NOT_A_SEGMENT = {
    "en": "A segment is a number 1–6, not {segment!r}.",
    "nl": "Een segment is een getal van 1 tot en met 6, niet {segment!r}.",
    "ja": "区画は1〜6の数字です（{segment!r}ではありません）。",
}
_NO_SUCH_SEGMENT = {
    "en": "Segment {segment} does not exist: segments are numbered 1–6.",
    "nl": "Segment {segment} bestaat niet: de segmenten zijn genummerd van 1 tot en met 6.",
    "ja": "第{segment}区画はありません。区画の番号は1〜6です。",
}
_SIX_SEGMENTS = {
    "en": "A layout has six segments, not {count}.",
    "nl": "Een kaartverdeling heeft zes segmenten, niet {count}.",
    "ja": "配置には6つの区画があります（{count}ではありません）。",
}
_TWICE = {
    "en": "{card} appears twice: each card exists once.",
    "nl": "{card} komt twee keer voor: elke kaart bestaat maar één keer.",
    "ja": "{card}が2回出てきます。各カードは1枚しかありません。",
}
TWELVE_CARDS = {
    "en": "A layout has exactly 12 cards; this one has {count}.",
    "nl": "Een kaartverdeling heeft precies 12 kaarten; deze heeft er {count}.",
    "ja": "配置のカードはちょうど12枚ですが、この配置には{count}枚あります。",
}
_FACE_UP_OFF_BOARD = {
    "en": "A face-up card must be on the board.",
    "nl": "Een open gespeelde kaart moet op het bord liggen.",
    "ja": "表向きのカードは盤上になければなりません。",
}
_MOVES_MISMATCH = {
    "en": "The moves do not match the cards at the segments.",
    "nl": "De zetten komen niet overeen met de kaarten bij de segmenten.",
    "ja": "手順が各区画のカードと一致しません。",
}
_ORDER_UNKNOWN = {
    "en": "The play order of this layout is unknown.",
    "nl": "De speelvolgorde van deze kaartverdeling is onbekend.",
    "ja": "この配置の順番は不明です。",
}
_TOO_LONG = {
    "en": "The layout is {length} characters long; a real layout is far shorter (at most {limit}).",
    "nl": "De kaartverdeling is {length} tekens lang; een echte kaartverdeling is veel korter "
    "(hoogstens {limit}).",
    "ja": "配置が{length}文字あります。実際の配置はずっと短いはずです（最大{limit}文字）。",
}
_SIX_GROUPS = {
    "en": "A layout in segment form has six groups separated by '|' (segments 1–6); "
    "this one has {count}.",
    "nl": "Een kaartverdeling in segmentvorm heeft zes groepen gescheiden door '|' "
    "(segmenten 1–6); deze heeft er {count}.",
    "ja": "区画形式の配置は「|」で区切った6つのグループ（第1〜第6区画）からなりますが、"
    "この配置には{count}つあります。",
}
_BOTH_FORMS = {
    "en": "Write a layout either in segment form (groups separated by '|') or in move form "
    "(card@segment), not both.",
    "nl": "Schrijf een kaartverdeling in segmentvorm (groepen gescheiden door '|') of in zetvorm "
    "(kaart@segment), niet allebei.",
    "ja": "配置は区画形式（「|」で区切ったグループ）か手順形式（カード@区画）の"
    "どちらか一方で書いてください。",
}
_NO_AT = {
    "en": "{token!r} has no segment: in move form write each card as card@segment, like S3@1.",
    "nl": "{token!r} heeft geen segment: schrijf in zetvorm elke kaart als kaart@segment, "
    "zoals S3@1.",
    "ja": "「{token}」に区画がありません。手順形式では各カードをS3@1のように"
    "カード@区画と書いてください。",
}
_BAD_AT = {
    "en": "{token!r}: a segment is a number 1–6 after '@', like S3@1.",
    "nl": "{token!r}: een segment is een getal van 1 tot en met 6 na '@', zoals S3@1.",
    "ja": "「{token}」：区画は「@」の後の1〜6の数字で、S3@1のように書きます。",
}


def check_segment(segment: object, field_name: str = "segment") -> int:
    """Return ``segment`` if it is an int 1–6, else raise RulesError."""
    if isinstance(segment, bool) or not isinstance(segment, int):
        raise RulesError.from_wording(_NOT_A_SEGMENT, field_name, segment=segment)
    if not 1 <= segment <= 6:
        raise RulesError.from_wording(_NO_SUCH_SEGMENT, field_name, segment=segment)
    return segment


@dataclass(frozen=True, slots=True)
class Move:
    """One card placed at a segment (1–6), face down unless ``face_up``."""

    card: Card
    segment: int
    face_up: bool = False

    def __post_init__(self) -> None:
        check_segment(self.segment)

    def __str__(self) -> str:
        return f"{self.card}{'*' if self.face_up else ''}@{self.segment}"


@dataclass(frozen=True, slots=True)
class Layout:
    """The cards at each segment (index 0 is segment 1), in the order placed there.

    ``face_up`` are the cards played face up; ``moves`` the play order when known (move
    form), else None. Always consistent: six segments, no card twice, face-up cards on the
    board, moves matching the segments. A layout may be partial (fewer than 12 cards, for
    drawing a game in progress); ``validate`` and ``parse_layout`` insist on 12.
    ``sums`` (segment order) is computed once, because the validator reads it many times.
    """

    segments: tuple[tuple[Card, ...], ...]
    face_up: frozenset[Card] = frozenset()
    moves: tuple[Move, ...] | None = None
    sums: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.segments) != 6:
            raise RulesError.from_wording(_SIX_SEGMENTS, "layout", count=len(self.segments))
        cards = [card for group in self.segments for card in group]
        if len(set(cards)) != len(cards):
            twice = next(card for card in cards if cards.count(card) > 1)
            raise RulesError.from_wording(_TWICE, "layout", card=twice)
        if len(cards) > 12:
            raise RulesError.from_wording(TWELVE_CARDS, "layout", count=len(cards))
        if not self.face_up <= set(cards):
            raise RulesError.from_wording(_FACE_UP_OFF_BOARD, "layout")
        if self.moves is not None and _build(self.moves) != (self.segments, self.face_up):
            raise RulesError.from_wording(_MOVES_MISMATCH, "layout")
        object.__setattr__(
            self, "sums", tuple(sum(card.value for card in group) for group in self.segments)
        )

    @classmethod
    def from_moves(cls, moves: Iterable[Move]) -> Layout:
        """The layout the moves build, keeping them as its play order."""
        moves = tuple(moves)
        segments, face_up = _build(moves)
        return cls(segments, face_up, moves)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.segments for card in group)

    @property
    def complete(self) -> bool:
        """True when all 12 cards are placed."""
        return sum(len(group) for group in self.segments) == 12

    def cards_at(self, segment: int) -> tuple[Card, ...]:
        return self.segments[segment - 1]

    def _mark(self, card: Card) -> str:
        return f"{card}*" if card in self.face_up else str(card)

    def format_segments(self) -> str:
        """Segment form, e.g. ``S3 | M5* | S2 M3 | M9 | S6 S8 | M12 S9`` (empty groups blank)."""
        return " | ".join(" ".join(self._mark(c) for c in group) for group in self.segments)

    def format_moves(self) -> str:
        """Move form, e.g. ``S3@1 M5*@2 ...``; RulesError when the play order is unknown."""
        if self.moves is None:
            raise RulesError.from_wording(_ORDER_UNKNOWN, "layout")
        return " ".join(str(move) for move in self.moves)

    def __str__(self) -> str:
        return self.format_segments() if self.moves is None else self.format_moves()


def _build(moves: tuple[Move, ...]) -> tuple[tuple[tuple[Card, ...], ...], frozenset[Card]]:
    groups: list[list[Card]] = [[] for _ in SEGMENTS]
    for move in moves:
        groups[move.segment - 1].append(move.card)
    face_up = frozenset(move.card for move in moves if move.face_up)
    return tuple(tuple(group) for group in groups), face_up


def _parse_marked(token: str) -> tuple[Card, bool]:
    face_up = token.endswith("*")
    return parse_card(token[:-1] if face_up else token), face_up


def _tokens(text: str) -> list[str]:
    return text.replace(",", " ").split()


def parse_layout(text: str, complete: bool = True) -> Layout:
    """Parse a layout in segment form or move form (detected by ``@``); see the module doc.

    Raises RulesError for: text longer than MAX_LAYOUT_CHARS, a card that does not exist,
    a card twice, not six groups, a segment outside 1–6, a mix of both forms, and — when
    ``complete`` — not exactly 12 cards.
    """
    if len(text) > MAX_LAYOUT_CHARS:
        raise RulesError.from_wording(_TOO_LONG, "layout", length=len(text), limit=MAX_LAYOUT_CHARS)
    layout = _parse_move_form(text) if "@" in text else _parse_segment_form(text)
    count = len(layout.cards)
    if complete and count != 12:
        raise RulesError.from_wording(TWELVE_CARDS, "layout", count=count)
    return layout


def _parse_segment_form(text: str) -> Layout:
    groups = text.split("|")
    if len(groups) != 6:
        raise RulesError.from_wording(_SIX_GROUPS, "layout", count=len(groups))
    segments = []
    face_up = set()
    for group in groups:
        cards = []
        for token in _tokens(group):
            if token == "-":  # an explicitly empty segment
                continue
            card, up = _parse_marked(token)
            cards.append(card)
            if up:
                face_up.add(card)
        segments.append(tuple(cards))
    return Layout(tuple(segments), frozenset(face_up))


def _parse_move_form(text: str) -> Layout:
    if "|" in text:
        raise RulesError.from_wording(_BOTH_FORMS, "layout")
    moves = []
    for token in _tokens(text):
        card_text, at, segment_text = token.partition("@")
        if not at:
            raise RulesError.from_wording(_NO_AT, "layout", token=token)
        if segment_text.endswith("*"):  # accept S7@3* as well as S7*@3
            segment_text, card_text = segment_text[:-1], card_text + "*"
        if not segment_text.isdigit() or not segment_text.isascii():
            raise RulesError.from_wording(_BAD_AT, "layout", token=token)
        card, up = _parse_marked(card_text)
        moves.append(Move(card, check_segment(int(segment_text), "layout"), up))
    return Layout.from_moves(moves)
