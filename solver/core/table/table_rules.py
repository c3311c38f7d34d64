"""The public reading of a clock, the seats and a plan (:class:`TableRules`), by position in
reading order: the numbers both engines play from (``agents`` in Python, ``agents_fast`` in
numba), and which rule kinds the compiled engine plays (:data:`PLANNED_KINDS`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from rules.clock import Clock
from rules.seats import Seats

from . import exact
from .agents_fast import CARDS_IN_PLAY
from .plans import SEGMENTS, Plan, equal_positions, reading_order, rule_params

UNBOUNDED = 1e9  # stands for "no limit" in sums, so the compiled engine can use floats
# Rule kinds the compiled engine plays: the simulated players plan for the segment rules
# (counts, colours, ranges, forbidden values, one colour) and the first cards; for
# strictly_rising and equal_neighbours they follow targets that keep them
# (plans._fit_targets), equal neighbours' cards go face up and their gap is penalised
# (agents_fast._score), and the engine checks both at resolution. Any other kind is still
# enforced by the referee and checked by rules.validate; the players simply do not plan
# for it, and the compiled engine declines the clock (the reference engine plays it).
PLANNED_KINDS = frozenset(
    {
        "card_count",
        "min_cards",
        "max_cards",
        "colours",
        "value_range",
        "first_cards",
        "forbidden_values",
        "single_colour",
        "strictly_rising",
        "equal_neighbours",
    }
)


def compiled_engine_models(clock: Clock) -> bool:
    """True when every special rule of ``clock`` is of a kind in PLANNED_KINDS, so the compiled
    engine plays it (tens of thousands of games a second); False when only the reference
    engine can (a few hundred). Depends on the clock alone; raises nothing."""
    return all(params.get("kind") in PLANNED_KINDS for params in rule_params(clock))


@dataclass(frozen=True)
class TableRules:
    """The public reading of a clock, the seats and a plan, by position in reading order
    (position 0 is the start segment). Both engines play from exactly these numbers."""

    order: tuple[int, ...]  # printed segment at each position
    players: int
    targets: tuple[float, ...]
    min_count: tuple[int, ...]
    max_count: tuple[int, ...]
    min_sun: tuple[int, ...]
    max_sun: tuple[int, ...]
    min_moon: tuple[int, ...]
    max_moon: tuple[int, ...]
    vmin: tuple[float, ...]
    vmax: tuple[float, ...]
    cap: float
    first: tuple[int, ...]  # forced position of the group's 1st, 2nd, ... card
    allowed: tuple[tuple[bool, ...], ...]  # [position][seat]: may this seat play here?
    sole_owner: tuple[int, ...]  # seat index that alone covers a position, or -1
    band_lo: tuple[float, ...]
    band_hi: tuple[float, ...]
    lone_floor: tuple[float, ...]  # the smallest card a lone position takes (plan.lone), or 0
    forbidden: tuple[int, ...]  # per position, bit v set: no card of value v may be there
    one_colour: tuple[int, ...]  # per position, 1: its cards must share a colour (either)
    # Whole-clock rules (the players aim at targets that keep them, plans._fit_targets):
    equal_next: tuple[int, ...]  # per position p, 1: its value equals position p + 1's (mod 6)
    strict: bool  # strictly_rising: no ties (checked at resolution only)
    need_weight: float
    order_weight: float
    open_bonus: float
    face_up_threshold: float
    band_weight: float
    opener: int  # seat index, 0-based
    seat_suns: tuple[int, ...]
    seat_moons: tuple[int, ...]
    compiled_ok: bool  # every rule kind is one the compiled engine models
    # Plan.exact where the clock has the convention's lone segment (exact.convention_for):
    # the colour its 12 must have (SUN, MOON, or ANY_COLOUR); -1 where no one follows it.
    exact_colour: int

    def position(self, segment: int) -> int:
        return self.order.index(segment)


@lru_cache(maxsize=256)
def table_rules(clock: Clock, seats: Seats, plan_json: str) -> TableRules:
    # Cached on the plan's JSON text because Plan holds dicts and is not hashable; the
    # reference engine asks for it on every decision.
    plan = Plan.from_json(json.loads(plan_json))
    return _table_rules(clock, seats, plan)


def rules_for(clock: Clock, seats: Seats, plan: Plan) -> TableRules:
    return table_rules(clock, seats, json.dumps(plan.to_json(), sort_keys=True))


def _whole_clock_rules(clock: Clock, pos: dict[int, int]) -> tuple[list[int], list[int], bool]:
    """The rules that are not about one segment: the positions the first cards must go to,
    which positions equal the next one (``equal_neighbours``), and whether ties are out."""
    first: list[int] = []
    equal_next = [0] * SEGMENTS
    strict = False
    for params in rule_params(clock):
        kind = params.get("kind")
        if kind == "first_cards":
            first = [pos[int(s)] for s in params["segments"]]
        elif kind == "strictly_rising":
            strict = True
    for p in equal_positions(clock):
        equal_next[p] = 1
    return first, equal_next, strict


def _table_rules(clock: Clock, seats: Seats, plan: Plan) -> TableRules:
    order = tuple(reading_order(clock))
    pos = {segment: i for i, segment in enumerate(order)}
    players = seats.players
    min_count = [1] * SEGMENTS
    max_count = [CARDS_IN_PLAY] * SEGMENTS
    min_sun, max_sun = [0] * SEGMENTS, [CARDS_IN_PLAY] * SEGMENTS
    min_moon, max_moon = [0] * SEGMENTS, [CARDS_IN_PLAY] * SEGMENTS
    vmin, vmax = [0.0] * SEGMENTS, [UNBOUNDED] * SEGMENTS
    forbidden, one_colour = [0] * SEGMENTS, [0] * SEGMENTS
    first, equal_next, strict = _whole_clock_rules(clock, pos)
    for params in rule_params(clock):
        kind = params.get("kind")
        if kind not in PLANNED_KINDS or "segment" not in params:
            continue
        p = pos[int(params["segment"])]
        if kind in ("card_count", "min_cards"):
            min_count[p] = max(min_count[p], int(params["count"]))
        if kind in ("card_count", "max_cards"):
            max_count[p] = min(max_count[p], int(params["count"]))
        if kind == "colours":
            sun, moon = int(params["sun"]), int(params["moon"])
            min_count[p] = max(min_count[p], sun + moon)
            max_count[p] = min(max_count[p], sun + moon)
            min_sun[p], max_sun[p] = max(min_sun[p], sun), min(max_sun[p], sun)
            min_moon[p], max_moon[p] = max(min_moon[p], moon), min(max_moon[p], moon)
        elif kind == "value_range":
            vmin[p] = max(vmin[p], float(params["min"]))
            vmax[p] = min(vmax[p], float(params["max"]))
        elif kind == "forbidden_values":
            for value in params["values"]:
                forbidden[p] |= 1 << int(value)
        elif kind == "single_colour":
            # A given colour caps the other at none; "one colour, either" is its own check.
            if params.get("colour") == "S":
                max_moon[p] = 0
            elif params.get("colour") == "M":
                max_sun[p] = 0
            else:
                one_colour[p] = 1
    allowed = []
    sole = []
    band_lo, band_hi = [], []
    lone_floor = [float(plan.lone.get(segment, 0)) for segment in order]
    for segment in order:
        owners = plan.owners.get(segment)
        allowed.append(tuple(owners is None or (s + 1) in owners for s in range(players)))
        sole.append(owners[0] - 1 if owners is not None and len(owners) == 1 else -1)
        lo, hi = plan.bands.get(segment, (1, 12))
        band_lo.append(float(lo))
        band_hi.append(float(hi))
    letters = [seat.hand + seat.extra for seat in seats.seats]
    return TableRules(
        order=order,
        players=players,
        targets=tuple(float(plan.targets[s - 1]) for s in order),
        min_count=tuple(min_count),
        max_count=tuple(max_count),
        min_sun=tuple(min_sun),
        max_sun=tuple(max_sun),
        min_moon=tuple(min_moon),
        max_moon=tuple(max_moon),
        vmin=tuple(vmin),
        vmax=tuple(vmax),
        cap=float(clock.cap) if clock.cap is not None else UNBOUNDED,
        first=tuple(first),
        allowed=tuple(allowed),
        sole_owner=tuple(sole),
        band_lo=tuple(band_lo),
        band_hi=tuple(band_hi),
        lone_floor=tuple(lone_floor),
        forbidden=tuple(forbidden),
        one_colour=tuple(one_colour),
        equal_next=tuple(equal_next),
        strict=strict,
        need_weight=plan.need_weight,
        order_weight=plan.order_weight,
        open_bonus=plan.open_bonus,
        face_up_threshold=plan.face_up_threshold,
        band_weight=plan.band_weight,
        opener=(plan.opener - 1) % players,
        seat_suns=tuple(x.count("S") for x in letters),
        seat_moons=tuple(x.count("M") for x in letters),
        compiled_ok=compiled_engine_models(clock),
        exact_colour=_exact_colour(clock, plan),
    )


def _exact_colour(clock: Clock, plan: Plan) -> int:
    convention = exact.followed(clock, plan)
    return -1 if convention is None else convention.colour_code


@dataclass(frozen=True)
class CompiledTable:
    """TableRules as arrays for the kernel (``agents_fast.play_many``)."""

    ints: npt.NDArray[np.int64]  # rows: see pack
    floats: npt.NDArray[np.float64]  # rows: targets, vmin, vmax, band_lo, band_hi, lone_floor
    allowed: npt.NDArray[np.int64]  # [position, seat]
    scalars: npt.NDArray[np.float64]  # need_weight, order_weight, open_bonus, threshold,
    # band_weight, cap
    info: npt.NDArray[np.int64]  # players, opener, first0, first1, n_first, strict, exact_colour


def pack(r: TableRules) -> CompiledTable:
    ints = np.array(
        [
            r.min_count,
            r.max_count,
            r.min_sun,
            r.max_sun,
            r.min_moon,
            r.max_moon,
            r.sole_owner,
            r.forbidden,
            r.one_colour,
            r.equal_next,
        ],
        dtype=np.int64,
    )
    floats = np.array(
        [r.targets, r.vmin, r.vmax, r.band_lo, r.band_hi, r.lone_floor], dtype=np.float64
    )
    allowed = np.array([[1 if a else 0 for a in row] for row in r.allowed], dtype=np.int64)
    scalars = np.array(
        [r.need_weight, r.order_weight, r.open_bonus, r.face_up_threshold, r.band_weight, r.cap],
        dtype=np.float64,
    )
    first = list(r.first) + [-1, -1]
    info = np.array(
        [r.players, r.opener, first[0], first[1], len(r.first), int(r.strict), r.exact_colour],
        dtype=np.int64,
    )
    return CompiledTable(ints, floats, allowed, scalars, info)
