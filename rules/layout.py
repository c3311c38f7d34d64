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


def check_segment(segment: object, field_name: str = "segment") -> int:
    """Return ``segment`` if it is an int 1–6, else raise RulesError."""
    if isinstance(segment, bool) or not isinstance(segment, int):
        raise RulesError(f"A segment is a number 1–6, not {segment!r}.", field_name)
    if not 1 <= segment <= 6:
        raise RulesError(
            f"Segment {segment} does not exist: segments are numbered 1–6.", field_name
        )
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
            raise RulesError(f"A layout has six segments, not {len(self.segments)}.", "layout")
        cards = [card for group in self.segments for card in group]
        if len(set(cards)) != len(cards):
            twice = next(card for card in cards if cards.count(card) > 1)
            raise RulesError(f"{twice} appears twice: each card exists once.", "layout")
        if len(cards) > 12:
            raise RulesError(f"A layout has exactly 12 cards; this one has {len(cards)}.", "layout")
        if not self.face_up <= set(cards):
            raise RulesError("A face-up card must be on the board.", "layout")
        if self.moves is not None and _build(self.moves) != (self.segments, self.face_up):
            raise RulesError("The moves do not match the cards at the segments.", "layout")
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

    def sum_at(self, segment: int) -> int:
        return self.sums[segment - 1]

    def _mark(self, card: Card) -> str:
        return f"{card}*" if card in self.face_up else str(card)

    def format_segments(self) -> str:
        """Segment form, e.g. ``S3 | M5* | S2 M3 | M9 | S6 S8 | M12 S9`` (empty groups blank)."""
        return " | ".join(" ".join(self._mark(c) for c in group) for group in self.segments)

    def format_moves(self) -> str:
        """Move form, e.g. ``S3@1 M5*@2 ...``; RulesError when the play order is unknown."""
        if self.moves is None:
            raise RulesError("The play order of this layout is unknown.", "layout")
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
        raise RulesError(
            f"The layout is {len(text)} characters long; a real layout is far shorter "
            f"(at most {MAX_LAYOUT_CHARS}).",
            "layout",
        )
    layout = _parse_move_form(text) if "@" in text else _parse_segment_form(text)
    count = len(layout.cards)
    if complete and count != 12:
        raise RulesError(f"A layout has exactly 12 cards; this one has {count}.", "layout")
    return layout


def _parse_segment_form(text: str) -> Layout:
    groups = text.split("|")
    if len(groups) != 6:
        raise RulesError(
            f"A layout in segment form has six groups separated by '|' (segments 1–6); "
            f"this one has {len(groups)}.",
            "layout",
        )
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
        raise RulesError(
            "Write a layout either in segment form (groups separated by '|') or in move form "
            "(card@segment), not both.",
            "layout",
        )
    moves = []
    for token in _tokens(text):
        card_text, at, segment_text = token.partition("@")
        if not at:
            raise RulesError(
                f"{token!r} has no segment: in move form write each card as card@segment, "
                "like S3@1.",
                "layout",
            )
        if segment_text.endswith("*"):  # accept S7@3* as well as S7*@3
            segment_text, card_text = segment_text[:-1], card_text + "*"
        if not segment_text.isdigit() or not segment_text.isascii():
            raise RulesError(
                f"{token!r}: a segment is a number 1–6 after '@', like S3@1.", "layout"
            )
        card, up = _parse_marked(card_text)
        moves.append(Move(card, check_segment(int(segment_text), "layout"), up))
    return Layout.from_moves(moves)
