"""Plans: what a table may agree aloud before anyone picks up their cards.

A plan is public, legal table talk — target totals, a shared way of reading hidden cards,
how strongly to protect the rising order, when to spend face-up cards, who opens, and who
covers segments that a colour rule reserves. It never encodes information outside a game
action: every simulated player reads the board through the same convention, which is
exactly what a group can agree in the discussion phase.

Machine form (JSON, ``version`` 1). Segments are numbered 1–6 as printed on the clock and
seats 1..players in seating order, both as people say them::

    {
      "version": 1,
      "targets": [5, 7, 9, 17, 20, 23],      # target total per printed segment 1..6
      "need_weight": 0.75,                   # a hidden card counts as need_weight x what its
                                             # segment still needed (clipped to 1-12)
                                             # + (1 - need_weight) x 6.5, the average card
      "order_weight": 0.5,                   # cost per point the believed totals break the
                                             # rising order, the cap or a value range
      "open_bonus": 2.0,                     # bonus for putting the first card on a segment
      "face_up_threshold": 3.0,              # play face up when the value differs from what
                                             # the others will believe by at least this much
      "opener": 1,                           # the seat that places the first card
      "owners": {"1": [2]},                  # optional: segment -> the only seats that play
                                             # there (a colour rule's Sun holder, ...)
      "bands": {"6": [8, 12]},               # optional: segment -> preferred card values
      "band_weight": 1.0,                    # cost per point a card falls outside its band
      "lone": {"5": 10},                     # optional: segment -> the smallest card that goes
                                             # there alone ("no clock left behind", below)
      "exact": true                          # optional: the exactly-twelve convention (below)
    }

Every key except ``version`` and ``targets`` may be left out and takes the default above
(``owners``, ``bands`` and ``lone`` default to none, ``exact`` to false). Unknown keys are
refused so that a typo in a hand-edited plan file does not silently fall back to a default.

A lone segment (``lone``) is the convention for a clock whose rule lets a segment read late
hold one card only (``card_count`` 1, ``max_cards`` 1, ``colours`` with one card): that card
also caps every segment read before it. The table says "segment 5 takes one card alone: a
card of 10 or more; until it has its card, count it as 10; before it, never push a segment
past segment 5 or past the next one". Both engines play it alike (``agents_fast._score``):
a smaller card there, or a segment before it pushed past its cap or past the next segment,
comes after every move that keeps the plan; while it is empty the players count it as
holding its floor when they keep the totals rising; its card goes face up while the budget
lasts.

Where the segment read last holds one card only, ``exact`` plays the exactly-twelve
convention instead (``exact.py``: that segment takes the 12 alone, the four before it end at
exactly 12): its players follow that convention's priorities, and only a random slip plays
from the plan's own ranking. Both engines play it; on a clock where the convention does not
apply the flag changes nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from rules.clock import Clock
from rules.seats import Seats
from rules.validate import reading_order as segments_read_from

PLAN_VERSION = 1
SEGMENTS = 6
AVERAGE_CARD = 6.5  # mean of 1..12, the value nobody knows better than

_DEFAULTS: dict[str, float] = {
    "need_weight": 0.75,
    "order_weight": 0.5,
    "open_bonus": 2.0,
    "face_up_threshold": 3.0,
    "band_weight": 1.0,
}
_KEYS = {"version", "targets", "opener", "owners", "bands", "lone", "exact", *_DEFAULTS}
# Bounds keep hand-edited plans within what the simulated players can act on sensibly.
_BOUNDS: dict[str, tuple[float, float]] = {
    "need_weight": (0.0, 1.0),
    "order_weight": (0.0, 100.0),
    "open_bonus": (0.0, 100.0),
    "face_up_threshold": (0.0, 12.0),
    "band_weight": (0.0, 100.0),
}


@dataclass(frozen=True)
class Plan:
    """A silent-play plan; see the module docstring for the JSON form.

    ``targets`` are indexed by printed segment (index 0 = segment 1); ``opener`` and the
    seats in ``owners`` are 1-based seat numbers, as in the JSON form.
    """

    targets: tuple[float, ...]
    need_weight: float = 0.75
    order_weight: float = 0.5
    open_bonus: float = 2.0
    face_up_threshold: float = 3.0
    opener: int = 1
    owners: dict[int, tuple[int, ...]] = field(default_factory=dict)
    bands: dict[int, tuple[int, int]] = field(default_factory=dict)
    band_weight: float = 1.0
    lone: dict[int, int] = field(default_factory=dict)  # segment -> smallest card there
    exact: bool = False  # the exactly-twelve convention (exact.py)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": PLAN_VERSION,
            "targets": [_plain(t) for t in self.targets],
            "need_weight": self.need_weight,
            "order_weight": self.order_weight,
            "open_bonus": self.open_bonus,
            "face_up_threshold": self.face_up_threshold,
            "opener": self.opener,
        }
        if self.owners:
            data["owners"] = {str(s): list(v) for s, v in sorted(self.owners.items())}
        if self.bands:
            data["bands"] = {str(s): list(v) for s, v in sorted(self.bands.items())}
            data["band_weight"] = self.band_weight
        if self.lone:
            data["lone"] = {str(s): v for s, v in sorted(self.lone.items())}
        if self.exact:
            data["exact"] = True
        return data

    @classmethod
    def from_json(cls, data: Any, players: int | None = None) -> Plan:
        """Parse the JSON form; ValueError names the first broken field.

        With ``players`` the seat numbers are checked against the table too.
        """
        if not isinstance(data, dict):
            raise ValueError("plan: expected a JSON object")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise ValueError(f"plan: unknown field {unknown[0]!r}")
        if data.get("version", PLAN_VERSION) != PLAN_VERSION:
            raise ValueError(f"plan.version: expected {PLAN_VERSION}, got {data.get('version')!r}")
        targets = data.get("targets")
        if not isinstance(targets, list) or len(targets) != SEGMENTS:
            raise ValueError("plan.targets: expected a list of 6 numbers, one per segment")
        parsed_targets = tuple(
            _number(t, f"plan.targets[{i}]", 0.0, 1000.0) for i, t in enumerate(targets)
        )
        numbers = {
            key: _number(data.get(key, default), f"plan.{key}", *_BOUNDS[key])
            for key, default in _DEFAULTS.items()
        }
        opener = _seat(data.get("opener", 1), "plan.opener", players)
        owners: dict[int, tuple[int, ...]] = {}
        raw_owners = data.get("owners", {})
        if not isinstance(raw_owners, dict):
            raise ValueError("plan.owners: expected an object {segment: [seats]}")
        for key, seats in raw_owners.items():
            segment = _segment(key, "plan.owners")
            if not isinstance(seats, list) or not seats:
                raise ValueError(f"plan.owners.{key}: expected a non-empty list of seat numbers")
            owners[segment] = tuple(
                sorted({_seat(s, f"plan.owners.{key}", players) for s in seats})
            )
        bands: dict[int, tuple[int, int]] = {}
        raw_bands = data.get("bands", {})
        if not isinstance(raw_bands, dict):
            raise ValueError("plan.bands: expected an object {segment: [low, high]}")
        for key, band in raw_bands.items():
            segment = _segment(key, "plan.bands")
            if not isinstance(band, list) or len(band) != 2:
                raise ValueError(f"plan.bands.{key}: expected [low, high]")
            low = int(_number(band[0], f"plan.bands.{key}[0]", 1, 12))
            high = int(_number(band[1], f"plan.bands.{key}[1]", 1, 12))
            if low > high:
                raise ValueError(f"plan.bands.{key}: low {low} is above high {high}")
            bands[segment] = (low, high)
        lone: dict[int, int] = {}
        raw_lone = data.get("lone", {})
        if not isinstance(raw_lone, dict):
            raise ValueError("plan.lone: expected an object {segment: smallest card}")
        for key, floor in raw_lone.items():
            segment = _segment(key, "plan.lone")
            lone[segment] = int(_number(floor, f"plan.lone.{key}", 1, 12))
        exact = data.get("exact", False)
        if not isinstance(exact, bool):
            raise ValueError(f"plan.exact: expected true or false, got {exact!r}")
        return cls(
            exact=exact,
            targets=parsed_targets,
            opener=opener,
            owners=owners,
            bands=bands,
            lone=lone,
            **numbers,
        )

    def with_(self, **changes: Any) -> Plan:
        return replace(self, **changes)


def _plain(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def _number(value: Any, name: str, low: float, high: float) -> float:
    # bool is an int in Python; `true` as a weight is a schema break, not 1.0.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name}: expected a number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name}: {value} is outside {_plain(low)}..{_plain(high)}")
    return float(value)


def _seat(value: Any, name: str, players: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name}: expected a seat number 1, 2, ..., got {value!r}")
    if players is not None and value > players:
        raise ValueError(f"{name}: seat {value} does not exist at a {players}-player table")
    return value


def _segment(key: Any, name: str) -> int:
    try:
        segment = int(key)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: {key!r} is not a segment number 1-6") from None
    if not 1 <= segment <= SEGMENTS:
        raise ValueError(f"{name}: {key!r} is not a segment number 1-6")
    return segment


# --- Plans from the clock and the colours -------------------------------------------------


def reading_order(clock: Clock) -> list[int]:
    """Printed segment numbers in the order they are read, from the start segment."""
    return list(segments_read_from(clock.start))


def rule_params(clock: Clock) -> list[dict[str, Any]]:
    """The clock's special rules as JSON dicts, the one stable view of any rule kind."""
    return [rule.to_json() for rule in clock.rules]


def equal_positions(clock: Clock) -> list[int]:
    """Each ``equal_neighbours`` rule as the reading position ``p`` whose value must equal
    position ``p + 1``'s (mod 6): neighbours on the face are neighbours in reading order, or
    the last and the first (p = 5)."""
    order = reading_order(clock)
    out = []
    for params in rule_params(clock):
        if params.get("kind") == "equal_neighbours":
            a, b = (order.index(int(s)) for s in params["segments"])
            out.append(a if (b - a) % SEGMENTS == 1 else b)
    return out


def _cap(clock: Clock) -> float:
    return float(clock.cap) if clock.cap is not None else math.inf


def shaped_targets(
    clock: Clock, low: tuple[float, float], high: tuple[float, float], split: int = 3
) -> tuple[float, ...]:
    """Targets rising linearly through ``low`` on the first ``split`` segments read and
    through ``high`` on the rest, then fitted to the clock's value ranges and cap.

    The shape (a few low segments, then high piles) is what won in our first measurements of
    silent play: low segments take single small cards, the high piles absorb the big ones.
    """
    values: list[float] = []
    for i in range(SEGMENTS):
        if i < split:
            a, b, n, k = low[0], low[1], split, i
        else:
            a, b, n, k = high[0], high[1], SEGMENTS - split, i - split
        # A single pile (split 5) aims at the top of its range.
        values.append(b if n == 1 else a + (b - a) * k / (n - 1))
    return _fit_targets(clock, values)


def _fit_targets(clock: Clock, values_in_reading_order: list[float]) -> tuple[float, ...]:
    ranges = {
        p["segment"]: (p["min"], p["max"])
        for p in rule_params(clock)
        if p.get("kind") == "value_range"
    }
    cap = _cap(clock)
    order = reading_order(clock)
    kinds = {p.get("kind") for p in rule_params(clock)}
    # strictly_rising: each target at least 1 above the one before (no ties).
    step = 1.0 if "strictly_rising" in kinds else 0.0
    # equal_neighbours read one after the other: the later aims where the earlier does.
    same_as_previous = {order[p + 1] for p in equal_positions(clock) if p + 1 < SEGMENTS}
    # The most a segment may aim at: the cap, and no more than a range read after it allows
    # (the totals rise, so a segment above a later one's maximum breaks that range), less
    # one per segment between them where the clock wants no ties.
    ceilings: list[float] = []
    ceiling = cap
    for segment in reversed(order):
        if segment in ranges:
            ceiling = min(ceiling, ranges[segment][1])
        ceilings.append(ceiling)
        ceiling -= step
    ceilings.reverse()
    by_segment = [0.0] * SEGMENTS
    previous = 0.0
    for index, (value, segment, most) in enumerate(
        zip(values_in_reading_order, order, ceilings, strict=True)
    ):
        v = min(value, most)
        if segment in ranges:
            lo, hi = ranges[segment]
            v = min(max(v, lo), hi)
        if segment in same_as_previous:
            v = previous
        # Keep the targets themselves rising (by ``step`` where ties are not allowed).
        v = max(v, previous + step) if index else max(v, previous)
        by_segment[segment - 1] = round(v, 1)
        previous = v
    return tuple(by_segment)


def colour_owners(clock: Clock, seats: Seats) -> dict[int, tuple[int, ...]]:
    """Give each colour-ruled segment to one seat that holds enough of the needed colours.

    A rule like "segment 1: exactly one Sun" is easy when one named player is responsible
    and hopeless when everyone may drop a Sun there. We pick the seat holding the most cards
    of the scarcest needed colour (earliest seat on ties), and spread segments over seats.
    """
    owners: dict[int, tuple[int, ...]] = {}
    load = [0] * seats.players
    for params in rule_params(clock):
        if params.get("kind") != "colours":
            continue
        sun, moon = int(params["sun"]), int(params["moon"])
        best: tuple[tuple[int, int, int], int] | None = None
        for index, seat in enumerate(seats.seats):
            letters = seat.hand + seat.extra
            suns, moons = letters.count("S"), letters.count("M")
            if suns < sun or moons < moon:
                continue
            key = (load[index], -(suns if sun >= moon else moons), index)
            if best is None or key < best[0]:
                best = (key, index)
        if best is not None:
            owners[int(params["segment"])] = (best[1] + 1,)
            load[best[1]] += 1
    return owners


def baseline_plan(clock: Clock, seats: Seats, face_up: int) -> Plan:
    """The fixed plan every recommendation is compared with: evenly spaced targets from 4
    to the cap (or 24), default weights, Seat 1 opens, colour-ruled segments owned.

    ``face_up`` is accepted for symmetry with the search; the baseline's threshold does not
    depend on it (the budget itself is enforced by the simulator).
    """
    del face_up
    top = min(_cap(clock), 24.0)
    values = [4 + (top - 4) * i / (SEGMENTS - 1) for i in range(SEGMENTS)]
    return Plan(targets=_fit_targets(clock, values), owners=colour_owners(clock, seats))


def h_plan(clock: Clock, seats: Seats) -> Plan:
    """The "H" plan, the best hand-made plan we measured: 5, 7, 9 | 17, 20, 23 — the search's
    starting point."""
    top = min(_cap(clock), 24.0)
    scale = top / 24.0
    return Plan(
        targets=shaped_targets(clock, (5 * scale, 9 * scale), (17 * scale, 23 * scale)),
        owners=colour_owners(clock, seats),
    )


LONE_FROM = 3  # a one-card segment read this late (0: the start segment) caps enough to matter


def lone_segment(clock: Clock) -> int | None:
    """The segment where the clock calls for the lone-segment convention (``Plan.lone``): a
    segment its rules limit to one card (``card_count`` 1, ``max_cards`` 1, ``colours`` with
    one card), read third or later, so that its one card caps the segments read before it.
    The last one read when there are several; None on every other clock."""
    order = reading_order(clock)
    found: int | None = None
    for params in rule_params(clock):
        kind = params.get("kind")
        if kind in ("card_count", "max_cards"):
            one = int(params["count"]) == 1
        elif kind == "colours":
            one = int(params["sun"]) + int(params["moon"]) == 1
        else:
            continue
        segment = int(params["segment"])
        at = order.index(segment)
        if one and at >= LONE_FROM and (found is None or at > order.index(found)):
            found = segment
    return found


def lone_targets(clock: Clock, targets: tuple[float, ...], segment: int) -> tuple[float, ...]:
    """``targets`` for a plan with ``segment`` alone: it aims at the highest card, 12, and
    the segments read before it at most that (one card caps them all)."""
    order = reading_order(clock)
    at = order.index(segment)
    out = list(targets)
    for s in order[:at]:
        out[s - 1] = min(out[s - 1], 12.0)
    for s in order[at:]:
        out[s - 1] = max(out[s - 1], 12.0)
    out[segment - 1] = 12.0
    return tuple(out)
