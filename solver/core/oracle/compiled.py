"""A clock compiled into flat integer arrays, the form the numba search reads.

The oracle, the odds and (later) anything else that decides many deals for one clock compile
the clock once with :func:`compile_clock` and hand the arrays to
:mod:`solver.core.oracle.compiled_kernel`. Compilation reads the clock's public JSON form
(``Clock.to_json()``, docs/api.md "Notation"), so it depends on the rule vocabulary's
names and parameters, not on the rules engine's classes.

Everything is indexed by *reading position* 0..5: position 0 is the start segment, then
clockwise. Values are read in that order, which is the order the search fills segments in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from rules.clock import Clock

SEGMENTS = 6
CARDS = 12
# No segment can hold more than 2·(12+11+…+7) = 114 with 12 cards; 127 keeps every sum and
# every "last sum" inside the two 64-bit words the kernel's failure memo uses per state.
NO_CAP = 127

# Rows of CompiledClock.positions (one column per reading position).
CNT_MIN, CNT_MAX = 0, 1
SUN_MIN, SUN_MAX = 2, 3
MOON_MIN, MOON_MAX = 4, 5
SUM_MIN, SUM_MAX = 6, 7
SINGLE_COLOUR = 8  # 1: the segment's cards share one colour
FORBIDDEN = 9  # bit v set: a card of value v may not go on the segment
EQUAL_PREVIOUS = 10  # 1: this segment's value equals the previous one in reading order
STEP = 11  # the least rise from the previous value: 0 (ties allowed) or 1 (strictly rising)
SEGMENT = 12  # the printed segment number 1..6
ROWS = 13

# Rows of CompiledClock.globals.
FIRST_A, FIRST_B, IMPOSSIBLE = 0, 1, 2
GLOBAL_ROWS = 3

# The kinds this module understands. Anything else is refused rather than ignored: an oracle
# that silently drops a rule would report odds for a different clock.
KNOWN_KINDS = frozenset(
    {
        "card_count",
        "colours",
        "value_range",
        "first_cards",
        "max_cards",
        "min_cards",
        "single_colour",
        "forbidden_values",
        "equal_neighbours",
        "strictly_rising",
    }
)
# Kinds whose outcome can depend on the colours of the cards / on who holds them. The odds
# use this to decide how much of a deal it may forget (see solver.core.oracle.odds).
COLOUR_KINDS = frozenset({"colours", "single_colour"})
SEAT_KINDS = frozenset({"first_cards"})


class UntranscribedClockError(ValueError):
    """The clock's special rules are not known yet, so no exact answer exists for it."""


@dataclass(frozen=True)
class CompiledClock:
    """The constraints of a clock as arrays; built by :func:`compile_clock`, read-only after.

    ``positions`` has shape (ROWS, 6) and ``globals`` shape (GLOBAL_ROWS,), both int64.
    ``kinds`` names the special rule kinds present, for callers that pick a strategy by them.
    """

    clock_id: str
    positions: npt.NDArray[np.int64]
    globals: npt.NDArray[np.int64]
    kinds: frozenset[str]

    @property
    def uses_colours(self) -> bool:
        return bool(self.kinds & COLOUR_KINDS)

    @property
    def uses_seats(self) -> bool:
        return bool(self.kinds & SEAT_KINDS)


def clock_json(clock: Clock | Mapping[str, Any]) -> Mapping[str, Any]:
    """The public JSON form of ``clock`` (a rules Clock or an already-decoded definition)."""
    if isinstance(clock, Mapping):
        return clock
    return clock.to_json()


def base_rules_clock(clock: Clock | Mapping[str, Any]) -> dict[str, Any]:
    """``clock`` with only the three rules of every clock (start segment and cap kept).

    Offered for clocks not transcribed yet: their special rules are unknown, but the odds
    under the base rules are still an upper bound a group may want.
    """
    data = dict(clock_json(clock))
    data["rules"] = []
    data["transcribed"] = True
    return data


def _segments_of(rule: Mapping[str, Any]) -> list[int]:
    """The printed segments a segment rule applies to: its own, or all six for a centre rule."""
    segment = rule.get("segment")
    if segment is None:
        return list(range(1, SEGMENTS + 1))
    return [_segment_number(segment, rule)]


def _segment_number(value: Any, rule: Mapping[str, Any]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= SEGMENTS:
        raise ValueError(f"Rule {rule.get('kind')!r} names segment {value!r}; segments are 1–6.")
    return value


def _int(rule: Mapping[str, Any], key: str) -> int:
    value = rule.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"Rule {rule.get('kind')!r} needs an integer {key!r}, not {value!r}.")
    return value


def compile_clock(clock: Clock | Mapping[str, Any]) -> CompiledClock:  # noqa: C901 - one branch per rule kind
    """Compile ``clock`` once for many oracle calls.

    Raises UntranscribedClockError (a ValueError) for a clock whose special rules are unknown
    — callers offer :func:`base_rules_clock` instead — and ValueError naming the kind for a
    rule kind the solver does not know.
    """
    data = clock_json(clock)
    clock_id = str(data.get("id", "?"))
    if not data.get("transcribed", True):
        raise UntranscribedClockError(
            f"Clock {clock_id} is not transcribed yet: its special rules are unknown, so the "
            "solver cannot answer exactly. Ask for base-rules odds instead."
        )
    start = _segment_number(data.get("start", 1), {"kind": "start"})
    cap = data.get("cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        raise ValueError(f"Clock {clock_id} has cap {cap!r}; it is 24 or null.")

    pos = np.zeros((ROWS, SEGMENTS), dtype=np.int64)
    pos[CNT_MIN] = 1  # every segment holds at least one card
    pos[CNT_MAX] = CARDS
    pos[SUN_MAX] = CARDS
    pos[MOON_MAX] = CARDS
    pos[SUM_MAX] = NO_CAP if cap is None else min(int(cap), NO_CAP)
    glob = np.full(GLOBAL_ROWS, -1, dtype=np.int64)
    glob[IMPOSSIBLE] = 0
    order = [(start - 1 + k) % SEGMENTS + 1 for k in range(SEGMENTS)]
    pos[SEGMENT] = order
    where = {segment: k for k, segment in enumerate(order)}

    kinds: set[str] = set()
    for rule in data.get("rules", []):
        kind = rule.get("kind")
        if kind not in KNOWN_KINDS:
            raise ValueError(f"The solver does not know the rule kind {kind!r}.")
        kinds.add(kind)
        if kind == "first_cards":
            first, second = (_segment_number(s, rule) for s in rule.get("segments", []))
            for row, segment in ((FIRST_A, first), (FIRST_B, second)):
                # Two first_cards rules naming different segments cannot both hold.
                if glob[row] not in (-1, where[segment]):
                    glob[IMPOSSIBLE] = 1
                glob[row] = where[segment]
            continue
        if kind == "strictly_rising":
            pos[STEP, 1:] = 1
            continue
        if kind == "equal_neighbours":
            _compile_equal(rule, where, pos)
            continue
        for segment in _segments_of(rule):
            k = where[segment]
            if kind == "card_count":
                _tighten(pos, CNT_MIN, CNT_MAX, k, _int(rule, "count"), _int(rule, "count"))
            elif kind == "max_cards":
                _tighten(pos, CNT_MIN, CNT_MAX, k, 0, _int(rule, "count"))
            elif kind == "min_cards":
                _tighten(pos, CNT_MIN, CNT_MAX, k, _int(rule, "count"), CARDS)
            elif kind == "colours":
                sun, moon = _int(rule, "sun"), _int(rule, "moon")
                _tighten(pos, SUN_MIN, SUN_MAX, k, sun, sun)
                _tighten(pos, MOON_MIN, MOON_MAX, k, moon, moon)
                _tighten(pos, CNT_MIN, CNT_MAX, k, sun + moon, sun + moon)
            elif kind == "value_range":
                _tighten(pos, SUM_MIN, SUM_MAX, k, _int(rule, "min"), _int(rule, "max"))
            elif kind == "single_colour":
                colour = rule.get("colour")
                if colour == "S":
                    _tighten(pos, MOON_MIN, MOON_MAX, k, 0, 0)
                elif colour == "M":
                    _tighten(pos, SUN_MIN, SUN_MAX, k, 0, 0)
                else:
                    pos[SINGLE_COLOUR, k] = 1
            elif kind == "forbidden_values":
                for value in rule.get("values", []):
                    if isinstance(value, int) and 1 <= value <= CARDS:
                        pos[FORBIDDEN, k] |= 1 << value
    return CompiledClock(clock_id, pos, glob, frozenset(kinds))


def _tighten(pos: npt.NDArray[np.int64], lo: int, hi: int, k: int, vmin: int, vmax: int) -> None:
    pos[lo, k] = max(pos[lo, k], vmin)
    pos[hi, k] = min(pos[hi, k], vmax)


def _compile_equal(
    rule: Mapping[str, Any], where: dict[int, int], pos: npt.NDArray[np.int64]
) -> None:
    segments = rule.get("segments")
    if segments is None:
        first = _segment_number(rule.get("segment"), rule)
        segments = [first, first % SEGMENTS + 1]
    a, b = (where[_segment_number(s, rule)] for s in segments)
    a, b = min(a, b), max(a, b)
    if b == a + 1:
        pos[EQUAL_PREVIOUS, b] = 1
    elif (a, b) == (0, SEGMENTS - 1):
        # The pair that straddles the start segment: the last value equals the first, and
        # the values rise in between, so all six values are equal.
        pos[EQUAL_PREVIOUS, 1:] = 1
    else:
        raise ValueError(f"Rule 'equal_neighbours' names segments {segments!r}, not neighbours.")
