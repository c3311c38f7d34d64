"""Odds: how often the 12 cards at a table admit a passing game, if everyone saw every card.

The table sees the colours of every seat's cards; the values are unknown. Every *value set*
consistent with the colours — which s Sun values and which 12−s Moon values are in play —
is equally likely, and there are C(12,s)·C(12,12−s) of them (853,776 for 6 Suns / 6 Moons).
:func:`odds` weighs the oracle over all of them, exactly, by sharing work where the clock
allows it:

* A clock whose rules read neither colours nor seats cannot tell a Sun 7 from a Moon 7, so
  feasibility depends only on the multiset of the 12 values. The value sets are grouped by
  multiset (73,789 for 6/6), each weighed by how many value sets give it — with d values
  held in both colours and 12−2d held once, C(12−2d, s−d) — and decided once. Every split
  of the colours draws on the same multisets (6/6 on all of them), so the decisions are
  remembered per clock: another split of a clock seen before decides only the multisets
  it adds (6/6 after 7/5: the 924 with six doubled values).
* A clock whose colour rules (``colours``, ``single_colour``) all speak of one segment is
  decided per multiset too (:func:`_colour_hits`, ``compiled_kernel.colour_multisets``).
  A value set is a multiset plus which of its singles (values held once) are Suns, and a
  layout that passes with the colour rules ignored passes for exactly the colourings that
  give the cards it puts on that segment the colours asked for — which depends only on how
  many of those singles are Suns. So each multiset is decided colour-blind once; then card
  sets for that segment ("pins") that would suit a colouring not covered yet are tried —
  moved into a known layout, else searched for with the pin fixed — until every colouring
  of the split is covered or no pin is left. Each multiset's colour-blind verdict, a layout
  and the pins decided are remembered per clock: another split of a clock seen before
  searches only for the pins it needs and the first did not (6/6 after 7/5: about 0.1 s
  of CPU where deciding every value set took 1–4 s; ``make bench`` prints both).
* A clock with colour rules on several segments is decided per value set
  (:func:`value_set_hits`, which is also the reference the tests hold the path above to),
  on all cores. Value sets holding the same values are decided side by side.
* Either way the last passing layout (which cards, by rank, go on which segment) is tried
  first on the next value set or multiset, and settles most of them without a search.
* A clock whose rules read who holds which card (``first_cards``) depends on how the values
  are shared among the seats, not only on the value set or on the seats' colours: when only
  the Sun 1 may open and only the Sun 2 may follow, the table passes only if the Sun 2 sits
  one seat after the Sun 1 (tests/solver/core/oracle/test_oracle_reference.py shows such a pair of
  deals). The exact sum over every sharing of every value set is far too large, so these
  odds are estimated by sampling whole deals (``exact`` is False).

``samples=N`` asks for a Monte Carlo estimate over N deals drawn uniformly among those with
the table's colours, with a 95% Wilson interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import (
    CARDS,
    MOON_MAX,
    MOON_MIN,
    SINGLE_COLOUR,
    SUN_MAX,
    SUN_MIN,
    CompiledClock,
    compile_clock,
)

if TYPE_CHECKING:
    from rules.clock import Clock
    from rules.seats import Seats

Progress = Callable[[int, str], None]

# Sampled odds when the clock's rules depend on the seats and no sample size was asked for.
SEAT_RULE_SAMPLES = 100_000
# Work is cut into this many slices so that progress is reported regularly.
_SLICES = 20
_Z95 = 1.959963984540054
# Exact odds depend only on the compiled clock and the number of Suns; hints ask for the same
# ones again and again, so the last few hundred answers are kept (oldest dropped first).
_EXACT: dict[tuple[bytes, bytes, int], OddsResult] = {}
_EXACT_KEEP = 256
# A colour-blind clock's decision per multiset of values (1 passable, 0 not, -1 not decided
# yet), over every multiset (``_multisets(6)``, which holds them all); a few hundred clocks.
_BY_MULTISET: dict[tuple[bytes, bytes], npt.NDArray[np.int8]] = {}
# A clock with colour rules on one segment: what its multisets taught (compiled_kernel.
# colour_multisets: the colour-blind verdict, a layout and the pins decided, per multiset of
# ``_multisets(6)``); about 3.3 MB a clock, so fewer are kept.
_BY_COLOUR: dict[tuple[bytes, bytes], tuple[npt.NDArray[np.int8], ...]] = {}
_COLOUR_KEEP = 16  # at most about 53 MB


def _quiet(percent: int, stage: str) -> None:
    del percent, stage


@dataclass(frozen=True)
class OddsResult:
    """``odds`` in [0, 1]; ``exact`` when every value set was weighed; ``deals`` = the number
    of value sets weighed (exact) or of deals sampled; ``interval`` the 95% interval (a point
    when exact)."""

    odds: float
    exact: bool
    deals: int
    interval: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """The ``odds --json`` object (docs/api.md), with its interval."""
        return {
            "odds": self.odds,
            "exact": self.exact,
            "deals": self.deals,
            "interval": list(self.interval),
        }


def odds(
    clock: Clock | Mapping[str, Any] | CompiledClock,
    seats: Seats,
    samples: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> OddsResult:
    """The probability that a deal with the colours of ``seats`` admits a passing game.

    Exact unless ``samples`` is given (or the clock has a seat rule, see the module notes).
    ``progress(percent, stage)`` is called as the work advances. ValueError for a clock that
    is not transcribed (offer ``base_rules_clock``), an unknown rule kind or samples < 1.
    """
    compiled = clock if isinstance(clock, CompiledClock) else compile_clock(clock)
    report = progress or _quiet
    if samples is None and compiled.uses_seats:
        samples = SEAT_RULE_SAMPLES
    if samples is not None:
        if samples < 1:
            raise ValueError(f"The number of samples must be at least 1, not {samples}.")
        return _sampled(compiled, seats, samples, seed, report)
    key = (compiled.positions.tobytes(), compiled.globals.tobytes(), seats.suns)
    known = _EXACT.get(key)
    if known is not None:
        report(100, "done")
        return known
    if compiled.uses_colours:
        position = colour_position(compiled)
        if position is None:
            hits = value_set_hits(compiled, seats.suns, report)
        else:
            hits = _colour_hits(compiled, position, seats.suns, report)
    else:
        hits = _colour_blind_hits(compiled, seats.suns, report)
    total = math.comb(12, seats.suns) * math.comb(12, seats.moons)
    value = hits / total
    result = OddsResult(value, True, total, (value, value))
    if len(_EXACT) >= _EXACT_KEEP:
        _EXACT.pop(next(iter(_EXACT)))
    _EXACT[key] = result
    report(100, "done")
    return result


def forget_exact_odds() -> None:
    """Drop the remembered exact answers and decisions (benchmarks time the computation)."""
    _EXACT.clear()
    _BY_MULTISET.clear()
    _BY_COLOUR.clear()


def _colour_blind_hits(compiled: CompiledClock, suns: int, report: Progress) -> int:
    """How many value sets with ``suns`` Suns pass a clock that reads no colours: the
    multisets' decisions weighed, deciding only those this clock has not seen yet."""
    key = (compiled.positions.tobytes(), compiled.globals.tobytes())
    sun_masks, moon_masks, _ = _multisets(6)
    decided = _BY_MULTISET.get(key)
    if decided is None:
        decided = np.full(len(sun_masks), -1, dtype=np.int8)
    weights = _multiset_weights(suns)
    todo = np.flatnonzero((weights > 0) & (decided < 0))
    if len(todo):
        out = _decide_all(compiled, sun_masks[todo], moon_masks[todo], report, "value multisets")
        decided[todo] = out
    if key not in _BY_MULTISET and len(_BY_MULTISET) >= _EXACT_KEEP:
        _BY_MULTISET.pop(next(iter(_BY_MULTISET)))
    _BY_MULTISET[key] = decided
    return int((weights * (decided == 1)).sum())


def colour_position(compiled: CompiledClock) -> int | None:
    """The one reading position the clock's colour rules speak of, or None when they speak of
    several (or of none)."""
    pos = compiled.positions
    coloured = (
        (pos[SUN_MIN] > 0)
        | (pos[SUN_MAX] < CARDS)
        | (pos[MOON_MIN] > 0)
        | (pos[MOON_MAX] < CARDS)
        | (pos[SINGLE_COLOUR] != 0)
    )
    where = np.flatnonzero(coloured)
    return int(where[0]) if len(where) == 1 else None


# Work counts of the last colour_multisets runs, for the benchmark (see _colour_hits).
COLOUR_STATS = np.zeros(4, dtype=np.int64)


def _colour_hits(compiled: CompiledClock, position: int, suns: int, report: Progress) -> int:
    """How many value sets with ``suns`` Suns pass a clock whose colour rules all sit on one
    reading position: decided per multiset of values (compiled_kernel.colour_multisets) —
    the multiset with the colour rules dropped, then which layouts' cards on that position
    can take the colours each value set gives them."""
    relaxed = compiled.positions.copy()
    relaxed[SUN_MIN, position] = relaxed[MOON_MIN, position] = 0
    relaxed[SUN_MAX, position] = relaxed[MOON_MAX, position] = CARDS
    relaxed[SINGLE_COLOUR, position] = 0
    sun_masks, moon_masks, _ = _multisets(6)
    key = (compiled.positions.tobytes(), compiled.globals.tobytes())
    learnt = _BY_COLOUR.get(key)
    if learnt is None:
        learnt = (
            np.full(len(sun_masks), -1, dtype=np.int8),
            np.zeros((len(sun_masks), kernel.RECORDS), dtype=np.int16),
            np.zeros((len(sun_masks), 6), dtype=np.int16),
        )
    todo = np.flatnonzero(_multiset_weights(suns) > 0)
    sun_masks, moon_masks = sun_masks[todo], moon_masks[todo]
    status, records, layouts = learnt[0][todo], learnt[1][todo], learnt[2][todo]
    t_masks, t_start = _subsets_by_size()
    rows = len(todo)
    out = np.zeros(rows, dtype=np.int64)
    slices, chunks = _slices_and_chunks(rows)
    stats = np.zeros((chunks, 4), dtype=np.int64)
    for piece in range(slices):
        lo, hi = rows * piece // slices, rows * (piece + 1) // slices
        report(100 * piece // slices, f"deciding {rows:,} value multisets by colour")
        kernel.colour_multisets(
            sun_masks[lo:hi],
            moon_masks[lo:hi],
            suns,
            position,
            compiled.positions,
            relaxed,
            compiled.globals,
            t_masks,
            t_start,
            status[lo:hi],
            records[lo:hi],
            layouts[lo:hi],
            out[lo:hi],
            stats,
            chunks,
        )
    COLOUR_STATS[:] = stats.sum(axis=0)
    learnt[0][todo], learnt[1][todo], learnt[2][todo] = status, records, layouts
    if key not in _BY_COLOUR and len(_BY_COLOUR) >= _COLOUR_KEEP:
        _BY_COLOUR.pop(next(iter(_BY_COLOUR)))
    _BY_COLOUR[key] = learnt
    return int(out.sum())


@cache
def _subsets_by_size() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every subset of u singles (bits 0..u−1) grouped by (u, size): the group (u, t) is
    ``masks[start[13·u + t]:start[13·u + t + 1]]``."""
    masks: list[int] = []
    start = []
    for u in range(13):
        for t in range(13):
            start.append(len(masks))
            masks.extend(sum(1 << b for b in chosen) for chosen in combinations(range(u), t))
    start.append(len(masks))
    return np.array(masks, dtype=np.int64), np.array(start, dtype=np.int64)


def value_set_hits(compiled: CompiledClock, suns: int, report: Progress = _quiet) -> int:
    """How many value sets with ``suns`` Suns pass, each decided on its own (value sets with
    the same values side by side, sharing a passing layout).

    The reference for the colour rules: :func:`odds` takes this path only when a clock's
    colour rules speak of more than one segment; tests compare the faster path with it.
    """
    sun_masks, moon_masks = _value_sets(suns)
    return int(_decide_all(compiled, sun_masks, moon_masks, report, "value sets").sum())


@cache
def _multiset_weights(suns: int) -> npt.NDArray[np.int64]:
    """For each multiset of ``_multisets(6)``, how many value sets with ``suns`` Suns hold it:
    with d values doubled, C(12−2d, suns−d) (0 when the split cannot hold d doubles)."""
    sun_masks, moon_masks, _ = _multisets(6)
    doubled = np.array([int(mask).bit_count() for mask in sun_masks & moon_masks])
    ways = [math.comb(12 - 2 * d, suns - d) if 0 <= suns - d <= 12 - 2 * d else 0 for d in range(7)]
    return np.array(ways, dtype=np.int64)[doubled]


def _decide_all(
    compiled: CompiledClock,
    sun_masks: npt.NDArray[np.int64],
    moon_masks: npt.NDArray[np.int64],
    report: Progress,
    stage: str,
) -> npt.NDArray[np.uint8]:
    rows = len(sun_masks)
    out = np.zeros(rows, dtype=np.uint8)
    slices, chunks = _slices_and_chunks(rows)
    for piece in range(slices):
        lo, hi = rows * piece // slices, rows * (piece + 1) // slices
        report(100 * piece // slices, f"deciding {rows:,} {stage}")
        kernel.decide_value_sets(
            sun_masks[lo:hi],
            moon_masks[lo:hi],
            compiled.positions,
            compiled.globals,
            out[lo:hi],
            chunks,
        )
    return out


def _slices_and_chunks(rows: int) -> tuple[int, int]:
    """How a kernel call over ``rows`` is cut: into slices, with progress reported after
    each, and each slice into chunks run in parallel. Each chunk allocates its search's work
    arrays (about 0.6 MB): a few rows need few."""
    slices = max(1, min(_SLICES, rows // 5_000))
    return slices, max(1, min(8 * max(1, _threads()), rows // (500 * slices)))


def _threads() -> int:
    import numba

    return int(numba.get_num_threads())


@cache
def _masks_by_size() -> dict[int, npt.NDArray[np.int64]]:
    """Every set of values 1..12 as a mask (bit v = value v), grouped by size."""
    groups: dict[int, list[int]] = {size: [] for size in range(13)}
    for size in range(13):
        for chosen in combinations(range(1, 13), size):
            groups[size].append(sum(1 << v for v in chosen))
    return {size: np.array(masks, dtype=np.int64) for size, masks in groups.items()}


@cache
def _value_sets(suns: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every (Sun values, Moon values) pair for a table with ``suns`` Suns."""
    by_size = _masks_by_size()
    sun, moon = (
        np.repeat(by_size[suns], len(by_size[12 - suns])),
        np.tile(by_size[12 - suns], len(by_size[suns])),
    )
    # Value sets holding the same values side by side: the kernel reuses a passing layout
    # across them (see compiled_kernel.decide_value_sets).
    order = np.argsort(((sun & moon) << 13) | (sun ^ moon), kind="stable")
    return sun[order], moon[order]


@cache
def _multisets(
    suns: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One representative value set per multiset of values, and how many value sets share it.

    A multiset is a set D of values held in both colours plus a set of values held once; the
    Sun cards are D and s−|D| of the singles, in C(singles, s−|D|) ways.
    """
    by_size = _masks_by_size()
    moons = 12 - suns
    sun_out, moon_out, weight_out = [], [], []
    for d in range(min(suns, moons) + 1):
        singles = 12 - 2 * d
        ways = math.comb(singles, suns - d)
        pool = by_size[singles]
        for doubled in by_size[d]:
            single_sets = pool[(pool & doubled) == 0]
            sun_part, moon_part = _split_singles(single_sets, suns - d)
            sun_out.append(doubled | sun_part)
            moon_out.append(doubled | moon_part)
            weight_out.append(np.full(len(single_sets), ways, dtype=np.int64))
    return np.concatenate(sun_out), np.concatenate(moon_out), np.concatenate(weight_out)


def _split_singles(
    single_sets: npt.NDArray[np.int64], take: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Give the ``take`` lowest values of each set to the Suns and the rest to the Moons
    (any split gives the same multiset, which is all a colour-blind clock sees)."""
    sun_part = np.zeros_like(single_sets)
    remaining = single_sets.copy()
    for _ in range(take):
        low = remaining & -remaining
        sun_part |= low
        remaining ^= low
    return sun_part, remaining


def _sampled(
    compiled: CompiledClock, seats: Seats, samples: int, seed: int, report: Progress
) -> OddsResult:
    """Monte Carlo over whole deals with the table's colours, seat by seat."""
    rng = np.random.default_rng(seed)
    letters = "".join(seat.hand + seat.extra for seat in seats.seats)
    is_sun = np.array([letter == "S" for letter in letters])
    hands = np.zeros(seats.players, dtype=np.int64)
    index = 0
    for number, seat in enumerate(seats.seats):
        for j in range(len(seat.hand) + len(seat.extra)):
            if j < len(seat.hand):
                hands[number] |= 1 << index
            index += 1
    values = np.zeros((samples, 12), dtype=np.int64)
    # A uniformly random ordered choice of distinct values per colour, dealt slot by slot —
    # the same law as rules.deals.deal_for_colours.
    values[:, is_sun] = np.argsort(rng.random((samples, 12)), axis=1)[:, : seats.suns] + 1
    values[:, ~is_sun] = np.argsort(rng.random((samples, 12)), axis=1)[:, : seats.moons] + 1
    colours = np.broadcast_to(np.where(is_sun, 0, 1).astype(np.int64), (samples, 12)).copy()
    hand_rows = np.broadcast_to(hands, (samples, seats.players)).copy()
    out = np.zeros(samples, dtype=np.uint8)
    chunks = 8 * max(1, _threads())
    for piece in range(_SLICES):
        lo, hi = samples * piece // _SLICES, samples * (piece + 1) // _SLICES
        report(100 * piece // _SLICES, f"sampling {samples:,} deals")
        if hi > lo:
            kernel.decide_many(
                values[lo:hi],
                colours[lo:hi],
                12,
                hand_rows[lo:hi],
                compiled.positions,
                compiled.globals,
                out[lo:hi],
                min(chunks, hi - lo),
            )
    report(100, "done")
    hits = int(out.sum())
    return OddsResult(hits / samples, False, samples, wilson_interval(hits, samples))


def wilson_interval(hits: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for ``hits`` successes in ``trials`` (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = hits / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
