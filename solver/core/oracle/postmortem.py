"""Was it winnable? Given the 12 cards a table laid out, could they have passed the clock?

The cards are known, so this is the perfect-information question of the oracle
(:mod:`solver.core.oracle.oracle`): is there an arrangement of *these* 12 cards that passes the
clock's rules, and which one. The answer carries one such arrangement, the **witness**, that
``rules.validate`` (and so ``check_layout``) accepts.

How much of the clock is judged depends on the layout's form (docs/game.md, "Placement
rules without the order"):

- **Segment form** (``S3 | M5 | …``) does not say in which order the cards were played, so
  only the layout rules are judged: placement rules such as ``first_cards`` are left out and
  ``placement_checked`` is False. The witness is in segment form.
- **Move form** (``S3@1 M5@2 …``) carries the order, so placement rules are judged too and
  ``placement_checked`` is True. The witness is in move form. With the table size
  (``players``) the order also says who held which card — seat by seat from the opener,
  one card each — and the witness is a game those seats could have played: the opener's
  first card and the next seat's first card are cards those seats held (with 2 players,
  cards of their set of 4: the move form shows only a seat's first two cards as surely
  from that set, so only those may open; a "winnable" answer is then certain). Without the
  table size, anyone may have held any card and the order is free.

A clock whose special rules are not transcribed is judged by the rules known of it (the three
rules of every clock, its start segment and cap): ``special_rules_known`` is then False.

Speed: compiling a clock is cached, and the search is the oracle's kernel (hundreds of
thousands of deals a second), so a layout is judged in about a millisecond
(``python -m bench.bench_postmortem``).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.errors import RulesError
from rules.i18n import check_lang, say
from rules.kinds import RULE_KINDS
from rules.layout import TWELVE_CARDS, Layout, Move, parse_layout
from rules.seats import SEAT_SIZES
from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import (
    CNT_MIN,
    FIRST_A,
    FIRST_B,
    SEGMENT,
    SEGMENTS,
    CompiledClock,
    compile_clock,
)

_PLAYERS = {
    "en": "Take Time is played by 2, 3 or 4 players, not {players!r}.",
    "nl": "Take Time speel je met 2, 3 of 4 spelers, niet {players!r}.",
    "ja": "Take Timeは2〜4人で遊びます（{players!r}ではありません）。",
}
_CANNOT_JUDGE = {
    "en": "The solver cannot judge clock {clock}: {reason}",
    "nl": "De solver kan klok {clock} niet beoordelen: {reason}",
    "ja": "ソルバーは時計盤{clock}を判定できません：{reason}",
}
_WINNABLE = {
    "en": "Winnable: these 12 cards could have passed the clock, for example so:",
    "nl": "Winbaar: met deze 12 kaarten had de klok gehaald kunnen worden, bijvoorbeeld zo:",
    "ja": "クリア可能：この12枚で時計盤をクリアできました。例えば次のとおりです：",
}
_NOT_WINNABLE = {
    "en": "Not winnable: no arrangement of these 12 cards passes the clock.",
    "nl": "Niet winbaar: geen enkele verdeling van deze 12 kaarten haalt de klok.",
    "ja": "クリア不可能：この12枚をどう配置しても時計盤はクリアできません。",
}
_LAYOUT_RULES_ONLY = {
    "en": "Only the layout rules were judged: the segment form does not give the order of "
    "play, so placement rules (where the first cards go) were not checked. Give the layout in "
    "move form to judge them too.",
    "nl": "Alleen de regels voor de verdeling zijn beoordeeld: de segmentvorm geeft de "
    "speelvolgorde niet, dus plaatsingsregels (waar de eerste kaarten komen) zijn niet "
    "gecontroleerd. Geef de kaarten in zetvorm om ook die te beoordelen.",
    "ja": "配置のルールだけを判定しました。区画形式では置いた順番が分からないため、"
    "置き方のルール（最初のカードを置く区画など）は確認していません。"
    "それも判定するには手順形式で入力してください。",
}
_UNKNOWN_RULES = {
    "en": "The special rules of clock {clock} are not transcribed yet: only the rules known of "
    "it were used.",
    "nl": "De bijzondere regels van klok {clock} zijn nog niet overgenomen: alleen de bekende "
    "regels zijn gebruikt.",
    "ja": "時計盤{clock}の特別ルールはまだ入力されていないため、"
    "分かっているルールだけを使いました。",
}

_KNOWN_RULES_ONLY = {
    "en": "As far as the rules Timekeeper knows go; check yourselves: {text}",
    "nl": "Voor zover de regels die Timekeeper kent reiken; controleer zelf: {text}",
    "ja": "Timekeeperが知っているルールの範囲での答えです。自分たちで確認してください：{text}",
}
_LAYOUT_TEXT = {
    "en": "'layout' is text, like S3 | M5 | ...",
    "nl": "'layout' is tekst, zoals S3 | M5 | ...",
    "ja": "「layout」はS3 | M5 | ...のようなテキストです。",
}

PLACEMENT_KINDS = frozenset(kind for kind, cls in RULE_KINDS.items() if cls.restricts_placement)


@dataclass(frozen=True)
class Postmortem:
    """The answer for one layout: ``winnable``, one passing arrangement ``witness`` (None
    when not winnable), whether placement rules were judged (``placement_checked``: the
    layout was in move form) and whether the clock's special rules are known."""

    winnable: bool
    witness: Layout | None
    placement_checked: bool
    special_rules_known: bool = True
    clock_name: str = ""
    unchecked: tuple[str, ...] = ()  # the words of rules Timekeeper cannot judge (described)

    @property
    def witness_text(self) -> str | None:
        """The witness in the layout's own form: segment form, or move form when the order
        was judged. ``check_layout`` accepts it."""
        if self.witness is None:
            return None
        if self.placement_checked:
            return self.witness.format_moves()
        return self.witness.format_segments()

    def to_json(self) -> dict[str, Any]:
        """The public object of ``postmortem --json`` and ``POST /api/layouts/postmortem/``."""
        return {
            "winnable": self.winnable,
            "witness": self.witness_text,
            "placement_checked": self.placement_checked,
            "special_rules_known": self.special_rules_known,
            "unchecked": list(self.unchecked),
        }

    def summary(self, lang: str = "en") -> str:
        """A few lines for people: the answer, the witness, and what was not judged."""
        check_lang(lang)
        lines = []
        if self.winnable:
            lines += [say(_WINNABLE, lang), f"  {self.witness_text}"]
        else:
            lines.append(say(_NOT_WINNABLE, lang))
        if not self.placement_checked:
            lines.append(say(_LAYOUT_RULES_ONLY, lang))
        if not self.special_rules_known:
            lines.append(say(_UNKNOWN_RULES, lang, clock=self.clock_name))
        lines.extend(say(_KNOWN_RULES_ONLY, lang, text=text) for text in self.unchecked)
        return "\n".join(lines)


def postmortem(clock: Clock, layout: Layout, players: int | None = None) -> Postmortem:
    """Could the 12 cards of ``layout`` have passed ``clock``? See the module doc.

    ``players`` (2–4) is read only for a layout in move form. RulesError for a layout that
    does not hold all 12 cards, a table size outside 2–4, or a clock the solver cannot judge.
    """
    if not layout.complete:
        raise RulesError.from_wording(TWELVE_CARDS, "layout", count=len(layout.cards))
    if players is not None and (
        isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_SIZES
    ):
        raise RulesError.from_wording(_PLAYERS, "players", players=players)
    moves = layout.moves
    ordered = moves is not None
    compiled = _compiled(_definition_key(clock, keep_placement=ordered))
    cards = [move.card for move in moves] if moves is not None else list(layout.cards)
    values = np.array([card.value for card in cards], dtype=np.int64)
    colours = np.array([0 if card.colour is Colour.SUN else 1 for card in cards], dtype=np.int64)
    positions = compiled.positions
    first_a, first_b = int(compiled.globals[FIRST_A]), int(compiled.globals[FIRST_B])
    seats = players if ordered and first_a >= 0 else None
    if ordered and first_a >= 0 and players is None:
        hands = np.array([(1 << 12) - 1], dtype=np.int64)  # anyone may have held any card
        if first_a == first_b:  # the first two cards both go there: it needs two at least
            positions = positions.copy()
            positions[CNT_MIN, first_a] = max(int(positions[CNT_MIN, first_a]), 2)
    elif seats is not None:
        hands = _opening_hands(seats)
    else:
        hands = np.zeros(1, dtype=np.int64)

    opener, chosen = _decide(values, colours, hands, positions, compiled.globals)
    known = clock.transcribed
    if opener < 0:
        return Postmortem(False, None, ordered, known, clock.name, clock.described_texts())
    segment_of: dict[int, int] = {}
    for k in range(SEGMENTS):
        segment = int(compiled.positions[SEGMENT, k])
        for i in range(12):
            if int(chosen[k]) >> i & 1:
                segment_of[i] = segment
    if not ordered:
        groups: list[list[Card]] = [[] for _ in range(SEGMENTS)]
        for i, card in enumerate(cards):
            groups[segment_of[i] - 1].append(card)
        witness = Layout(tuple(tuple(group) for group in groups))
    else:
        order = _play_order(segment_of, hands, seats, opener, first_a, first_b, compiled)
        witness = Layout.from_moves(Move(cards[i], segment_of[i]) for i in order)
    return Postmortem(True, witness, ordered, known, clock.name, clock.described_texts())


def postmortem_of_text(clock: Clock, layout_text: object, players: int | None = None) -> Postmortem:
    """Parse ``layout_text`` (either public form; all 12 cards) and judge it: what
    ``manage.py postmortem`` and ``POST /api/layouts/postmortem/`` answer. RulesError, with
    the reason, for text that is not a layout of 12 cards and for what ``postmortem`` refuses.
    """
    if not isinstance(layout_text, str):
        raise RulesError.from_wording(_LAYOUT_TEXT, "layout")
    layout = parse_layout(layout_text, complete=False)
    return postmortem(clock, layout, players)


def _definition_key(clock: Clock, keep_placement: bool) -> str:
    """The clock's definition as the oracle should read it, as a hashable text: every rule
    known of it, without the placement rules when the play order is unknown."""
    data = clock.known_rules().to_json()  # the table's own words (described) are not judged
    data["transcribed"] = True  # judge an untranscribed clock by the rules known of it
    if not keep_placement:
        data["rules"] = [rule for rule in data["rules"] if rule["kind"] not in PLACEMENT_KINDS]
    return json.dumps(data, sort_keys=True)


@lru_cache(maxsize=256)
def _compiled(definition: str) -> CompiledClock:
    data = json.loads(definition)
    try:
        return compile_clock(data)
    except ValueError as error:
        raise RulesError.from_wording(
            _CANNOT_JUDGE, "clock", clock=data.get("id", "?"), reason=str(error)
        ) from None


_work = threading.local()  # the search's work arrays, one set per thread


def _decide(
    values: npt.NDArray[np.int64],
    colours: npt.NDArray[np.int64],
    hands: npt.NDArray[np.int64],
    positions: npt.NDArray[np.int64],
    globals_: npt.NDArray[np.int64],
) -> tuple[int, npt.NDArray[np.int64]]:
    memo = getattr(_work, "memo", None)
    if memo is None:
        memo = _work.memo = kernel.new_memo()
    mstamp, mbits, scratch = memo
    opener = int(
        kernel.decide(
            values, colours, len(values), hands, positions, globals_, mstamp, mbits, scratch
        )
    )
    return opener, kernel.choice(scratch)


def _seat_of(index: int, players: int) -> int:
    """The seat (0 = the table's opener) that played the card at ``index`` of the order."""
    return index % players


def _opening_hands(players: int) -> npt.NDArray[np.int64]:
    """For each seat, the cards it may play first, as masks over the table's play order:
    every card it held, or with 2 players the two it played first (surely its set of 4)."""
    hand_size = SEAT_SIZES[players][0]
    hands = np.zeros(players, dtype=np.int64)
    for index in range(12):
        seat = _seat_of(index, players)
        if players == 2 and index // players >= hand_size - 2:
            continue  # from its third card on, a 2-player seat may be playing its set of 2
        hands[seat] |= 1 << index
    return hands


def _play_order(
    segment_of: dict[int, int],
    hands: npt.NDArray[np.int64],
    seats: int | None,
    opener: int,
    first_a: int,
    first_b: int,
    compiled: CompiledClock,
) -> list[int]:
    """The witness's play order (indices into the table's order). Without a first_cards
    rule it is the table's own order. With one, the first card goes to the rule's first
    segment and the second to its second: with the table size, seat ``opener`` opens with a
    card it may open with and every seat keeps its own cards, one card per turn."""
    if first_a < 0:
        return list(range(12))
    wanted = (int(compiled.positions[SEGMENT, first_a]), int(compiled.positions[SEGMENT, first_b]))
    if seats is None:
        first = next(i for i in range(12) if segment_of[i] == wanted[0])
        second = next(i for i in range(12) if segment_of[i] == wanted[1] and i != first)
        return [first, second] + [i for i in range(12) if i not in (first, second)]
    queues = [[i for i in range(12) if _seat_of(i, seats) == seat] for seat in range(seats)]
    for seat, segment in ((opener, wanted[0]), ((opener + 1) % seats, wanted[1])):
        card = next(
            i for i in queues[seat] if int(hands[seat]) >> i & 1 and segment_of[i] == segment
        )
        queues[seat].remove(card)
        queues[seat].insert(0, card)
    order = []
    turn = opener
    while any(queues):
        order.append(queues[turn].pop(0))
        turn = (turn + 1) % seats
    return order
