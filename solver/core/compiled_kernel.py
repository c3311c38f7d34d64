"""The numba-compiled exact search behind the oracle and the odds.

A deal is up to 12 cards given as ``values`` (1..12) and ``colours`` (0 Sun, 1 Moon); a set of
cards is a bitmask over their indices. The search fills the segments in reading order (start
segment first) with a subset of the cards not used yet, so that each value is at least the
previous one. Two things make it fast enough to decide every value set of a table:

* sound pruning at every node: the cards left must fit the segments left by count, by colour
  and by value — they must be able to give every remaining segment at least the last value
  (and each segment's minimum) and at most what the cap and value ranges allow;
* a memo of failures per (position, cards used): a node that failed with last value L also
  fails with any larger L unless an "equal values" rule lies ahead, so the memo keeps the set
  of failing L as a 128-bit set and fills it upwards when that monotonicity holds.

The constraint layout is defined in :mod:`solver.core.compiled`. Nothing here allocates per
node; the memo is stamped with a counter so that it need not be cleared between deals.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from solver.core.compiled import (
    CNT_MAX,
    CNT_MIN,
    EQUAL_PREVIOUS,
    FIRST_A,
    FIRST_B,
    FORBIDDEN,
    IMPOSSIBLE,
    MOON_MAX,
    MOON_MIN,
    SEGMENTS,
    SINGLE_COLOUR,
    STEP,
    SUM_MAX,
    SUM_MIN,
    SUN_MAX,
    SUN_MIN,
)

# Work arrays per thread: stamps (SEGMENTS, 4096) and failure bit sets (SEGMENTS, 4096, 2).
MEMO_STATES = 1 << 12
MAX_CARDS = 12


def _layout(sizes: list[tuple[str, int]]) -> dict[str, int]:
    offsets, at = {}, 0
    for name, size in sizes:
        offsets[name] = at
        at += size
    offsets["SCRATCH"] = at
    return offsets


# Scalars and small per-deal arrays live in one int64 scratch vector, so that a search
# allocates nothing; numba reads these module constants as compile-time constants.
_OFF = _layout(
    [
        ("lo_sum", 128), ("lo_sun", 128), ("lo_pop", 128),  # subset tables by 6-bit halves
        ("allowed", 6), ("allowed_suf", 6),
        ("cnt_min_suf", 7), ("cnt_max_suf", 7), ("cnt_max", 6),
        ("sun_min_suf", 7), ("sun_max_suf", 7), ("moon_min_suf", 7), ("moon_max_suf", 7),
        ("ub", 6), ("mono", 6), ("choice", 6), ("perm", 12), ("values", 12), ("colours", 12),
        ("rank", 12), ("need_at", 2),
        ("list", 6 * 13), ("stack", 6 * 13), ("list_suf", 6 * 14), ("ubd", 6 * 6), ("top", 13),
        ("frame", 6 * 12),  # the search state per position, see _search
    ]
)  # fmt: skip
_LO_SUM, _HI_SUM = _OFF["lo_sum"], _OFF["lo_sum"] + 64
_LO_SUN, _HI_SUN = _OFF["lo_sun"], _OFF["lo_sun"] + 64
_LO_POP, _HI_POP = _OFF["lo_pop"], _OFF["lo_pop"] + 64
_ALLOWED, _ALLOWED_SUF = _OFF["allowed"], _OFF["allowed_suf"]
_CNT_MIN_SUF, _CNT_MAX_SUF, _CNT_MAX = _OFF["cnt_min_suf"], _OFF["cnt_max_suf"], _OFF["cnt_max"]
_SUN_MIN_SUF, _SUN_MAX_SUF = _OFF["sun_min_suf"], _OFF["sun_max_suf"]
_MOON_MIN_SUF, _MOON_MAX_SUF = _OFF["moon_min_suf"], _OFF["moon_max_suf"]
_UB, _MONO, _CHOICE, _PERM, _VALUES = (
    _OFF["ub"],
    _OFF["mono"],
    _OFF["choice"],
    _OFF["perm"],
    _OFF["values"],
)
_LIST, _STACK, _LIST_SUF, _UBD, _TOP = (
    _OFF["list"],
    _OFF["stack"],
    _OFF["list_suf"],
    _OFF["ubd"],
    _OFF["top"],
)
_FRAME = _OFF["frame"]
_COLOURS, _RANK, _NEED_AT = _OFF["colours"], _OFF["rank"], _OFF["need_at"]
SCRATCH = _OFF["SCRATCH"]  # s[SCRATCH] is the memo stamp counter


def new_memo() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Fresh work arrays for one thread: memo stamps, memo bits, scratch (stamp counter at 0)."""
    return (
        np.zeros((SEGMENTS, MEMO_STATES), dtype=np.int64),
        np.zeros((SEGMENTS, MEMO_STATES, 2), dtype=np.uint64),
        np.zeros(SCRATCH + 1, dtype=np.int64),
    )


@njit(cache=True)
def _prepare(values, colours, n, pos, s):
    """Per-deal tables (cards already sorted by value): subset sums, Sun counts and sizes by
    6-bit halves, allowed cards per position, and the clock's suffix bounds."""
    # Built upwards: a mask's entry is the entry without its top bit, plus that card.
    for half in range(2):
        base = half * 6
        off = half * 64
        s[_LO_SUM + off] = 0
        s[_LO_SUN + off] = 0
        s[_LO_POP + off] = 0
        for b in range(6):
            top = 1 << b
            value = 0
            sun = 0
            present = 0
            if base + b < n:
                value = values[base + b]
                sun = 1 - colours[base + b]
                present = 1
            for m in range(top):
                s[_LO_SUM + off + (m | top)] = s[_LO_SUM + off + m] + value
                s[_LO_SUN + off + (m | top)] = s[_LO_SUN + off + m] + sun
                s[_LO_POP + off + (m | top)] = s[_LO_POP + off + m] + present
    for k in range(SEGMENTS):
        allowed = 0
        for i in range(n):
            if not (pos[FORBIDDEN, k] >> values[i]) & 1:
                allowed |= 1 << i
        s[_ALLOWED + k] = allowed
    for off in (
        _CNT_MIN_SUF,
        _CNT_MAX_SUF,
        _SUN_MIN_SUF,
        _SUN_MAX_SUF,
        _MOON_MIN_SUF,
        _MOON_MAX_SUF,
    ):
        s[off + SEGMENTS] = 0
    for k in range(SEGMENTS - 1, -1, -1):
        cmin = max(pos[CNT_MIN, k], pos[SUN_MIN, k] + pos[MOON_MIN, k])
        cmax = min(pos[CNT_MAX, k], pos[SUN_MAX, k] + pos[MOON_MAX, k])
        s[_CNT_MAX + k] = cmax
        s[_CNT_MIN_SUF + k] = s[_CNT_MIN_SUF + k + 1] + cmin
        s[_CNT_MAX_SUF + k] = s[_CNT_MAX_SUF + k + 1] + cmax
        s[_SUN_MIN_SUF + k] = s[_SUN_MIN_SUF + k + 1] + pos[SUN_MIN, k]
        s[_SUN_MAX_SUF + k] = s[_SUN_MAX_SUF + k + 1] + min(pos[SUN_MAX, k], cmax)
        s[_MOON_MIN_SUF + k] = s[_MOON_MIN_SUF + k + 1] + pos[MOON_MIN, k]
        s[_MOON_MAX_SUF + k] = s[_MOON_MAX_SUF + k + 1] + min(pos[MOON_MAX, k], cmax)
    # ub[k]: the most position k may hold, given that every later value is at least as large
    # (plus the strict steps) and no later value may exceed its own bound.
    for k in range(SEGMENTS - 1, -1, -1):
        ub = pos[SUM_MAX, k]
        if k < SEGMENTS - 1:
            ub = min(ub, s[_UB + k + 1] - pos[STEP, k + 1])
        s[_UB + k] = ub
    suf = 0
    mono = 1
    for k in range(SEGMENTS - 1, -1, -1):
        suf |= s[_ALLOWED + k]
        s[_ALLOWED_SUF + k] = suf
        if pos[EQUAL_PREVIOUS, k]:
            mono = 0
        s[_MONO + k] = mono


@njit(cache=True, inline="always")
def _sum(s, m):
    return s[_LO_SUM + (m & 63)] + s[_HI_SUM + (m >> 6)]


@njit(cache=True, inline="always")
def _suns(s, m):
    return s[_LO_SUN + (m & 63)] + s[_HI_SUN + (m >> 6)]


@njit(cache=True, inline="always")
def _pop(s, m):
    return s[_LO_POP + (m & 63)] + s[_HI_POP + (m >> 6)]


@njit(cache=True)
def _segment_ok(k, sub, last, pos, s, need_at, need_a, need_b):
    """Does ``sub`` satisfy position k's own rules after a previous value ``last``?"""
    count = _pop(s, sub)
    if count < pos[CNT_MIN, k] or count > pos[CNT_MAX, k]:
        return False
    suns = _suns(s, sub)
    moons = count - suns
    if suns < pos[SUN_MIN, k] or suns > pos[SUN_MAX, k]:
        return False
    if moons < pos[MOON_MIN, k] or moons > pos[MOON_MAX, k]:
        return False
    if pos[SINGLE_COLOUR, k] and suns > 0 and moons > 0:
        return False
    total = _sum(s, sub)
    if total < pos[SUM_MIN, k] or total > s[_UB + k]:
        return False
    if k > 0:
        if total < last + pos[STEP, k]:
            return False
        if pos[EQUAL_PREVIOUS, k] and total != last:
            return False
    if need_at[0] == k and not sub & need_a:
        return False
    return not (need_at[1] == k and not sub & need_b)


@njit(cache=True)
def _node_ok(k, rem, last, n, pos, s):
    """Can the cards ``rem`` possibly fill positions k..5 after a value ``last``? (sound)

    Also leaves in s[_UBD + 6k + j] the most position j ≥ k can hold with these cards.
    """
    count = _pop(s, rem)
    if count < s[_CNT_MIN_SUF + k] or count > s[_CNT_MAX_SUF + k]:
        return False
    suns = _suns(s, rem)
    if suns < s[_SUN_MIN_SUF + k] or suns > s[_SUN_MAX_SUF + k]:
        return False
    moons = count - suns
    if moons < s[_MOON_MIN_SUF + k] or moons > s[_MOON_MAX_SUF + k]:
        return False
    if rem & ~s[_ALLOWED_SUF + k]:
        return False
    # top[c]: the sum of the c largest cards left (cards are sorted, so scan from the top).
    s[_TOP] = 0
    c = 0
    for i in range(n - 1, -1, -1):
        if (rem >> i) & 1:
            c += 1
            s[_TOP + c] = s[_TOP + c - 1] + s[_VALUES + i]
    ubd = _UBD + 6 * k
    spare = 0
    for j in range(SEGMENTS - 1, k - 1, -1):
        u = min(s[_UB + j], s[_TOP + min(s[_CNT_MAX + j], count)])
        if j < SEGMENTS - 1:
            u = min(u, s[ubd + j + 1] - pos[STEP, j + 1])
        s[ubd + j] = u
        spare += u
    total = _sum(s, rem)
    if total > spare:
        return False
    cur = last
    need = 0
    for j in range(k, SEGMENTS):
        cur = max(cur + pos[STEP, j], pos[SUM_MIN, j]) if j > 0 else pos[SUM_MIN, j]
        if cur > s[ubd + j]:
            return False
        need += cur
    if total < need:
        return False
    # Every position left needs at least `floor` (the smallest value it may take). A card
    # worth that much can cover a position alone; smaller cards must pool, so at most
    # big + small_total // floor positions can be covered.
    floor = last + pos[STEP, k] if k > 0 else 0
    floor = max(floor, pos[SUM_MIN, k])
    if floor > 1:
        big = 0
        small = 0
        for i in range(n):
            if (rem >> i) & 1:
                if s[_VALUES + i] >= floor:
                    big += 1
                else:
                    small += s[_VALUES + i]
        if big + small // floor < SEGMENTS - k:
            return False
    return True


# Fields of a search frame (one per reading position, at s[_FRAME + 12k + field]).
_F_REM, _F_LAST, _F_LO, _F_HI, _F_CMIN, _F_CMAX, _F_M, _F_C, _F_P, _F_TOTAL, _F_SUB = range(11)


@njit(cache=True)
def _fail(k, rem, last, s, mstamp, mbits, stamp):
    """Remember that position k with cards ``rem`` left fails after a value ``last``."""
    word = last >> 6
    if mstamp[k, rem] != stamp:
        mstamp[k, rem] = stamp
        mbits[k, rem, 0] = np.uint64(0)
        mbits[k, rem, 1] = np.uint64(0)
    if s[_MONO + k]:
        # Failing after `last` means failing after anything larger: set every bit >= last.
        full = ~np.uint64(0)
        if word == 0:
            mbits[k, rem, 0] |= full << np.uint64(last)
            mbits[k, rem, 1] = full
        else:
            mbits[k, rem, 1] |= full << np.uint64(last - 64)
    else:
        mbits[k, rem, word] |= np.uint64(1) << np.uint64(last & 63)


@njit(cache=True)
def _failed(k, rem, last, mstamp, mbits, stamp):
    if mstamp[k, rem] != stamp:
        return False
    return (mbits[k, rem, last >> 6] >> np.uint64(last & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _open(k, rem, last, n, pos, s, mstamp, mbits, stamp):
    """Enter position k (< 5) with cards ``rem`` after ``last``: set up its frame, or return
    False when the node is known or proved to fail."""
    if _failed(k, rem, last, mstamp, mbits, stamp):
        return False
    if not _node_ok(k, rem, last, n, pos, s):
        _fail(k, rem, last, s, mstamp, mbits, stamp)
        return False
    # The value range for this position, and the card counts that leave the later positions
    # enough (and not too many) cards.
    lo = pos[SUM_MIN, k]
    if k > 0:
        lo = max(lo, last + pos[STEP, k])
    hi = s[_UBD + 6 * k + k]
    if k > 0 and pos[EQUAL_PREVIOUS, k]:
        lo = max(lo, last)
        hi = min(hi, last)
    # Every later position holds at least as much as this one, so this one holds at most
    # an even share of the cards left; and at least what the later positions cannot hold.
    total = _sum(s, rem)
    hi = min(hi, total // (SEGMENTS - k))
    later = 0
    for j in range(k + 1, SEGMENTS):
        later += s[_UBD + 6 * k + j]
    lo = max(lo, total - later)
    count = _pop(s, rem)
    # The allowed cards in ascending value, with suffix sums for the "can still reach lo" test;
    # subsets are then generated by backtracking without ever leaving [lo, hi].
    lst = _LIST + 13 * k
    lsuf = _LIST_SUF + 14 * k
    avail = rem & s[_ALLOWED + k]
    m = 0
    for i in range(n):
        if (avail >> i) & 1:
            s[lst + m] = i
            m += 1
    s[lsuf + m] = 0
    for j in range(m - 1, -1, -1):
        s[lsuf + j] = s[lsuf + j + 1] + s[_VALUES + s[lst + j]]
    f = _FRAME + 12 * k
    s[f + _F_REM] = rem
    s[f + _F_LAST] = last
    s[f + _F_LO] = lo
    s[f + _F_HI] = hi
    s[f + _F_CMIN] = max(pos[CNT_MIN, k], count - s[_CNT_MAX_SUF + k + 1])
    s[f + _F_CMAX] = min(s[_CNT_MAX + k], count - s[_CNT_MIN_SUF + k + 1])
    s[f + _F_M] = m
    s[f + _F_C] = 0
    s[f + _F_P] = 0
    s[f + _F_TOTAL] = 0
    s[f + _F_SUB] = 0
    return True


@njit(cache=True)
def _next(k, pos, s, need_at, need_a, need_b):
    """Advance position k's frame to its next candidate subset; False when exhausted.

    Subsets come in lexicographic order of ascending cards, each within the value range.
    """
    f = _FRAME + 12 * k
    lst = _LIST + 13 * k
    stk = _STACK + 13 * k
    lsuf = _LIST_SUF + 14 * k
    m, lo, hi = s[f + _F_M], s[f + _F_LO], s[f + _F_HI]
    cmin, cmax, last = s[f + _F_CMIN], s[f + _F_CMAX], s[f + _F_LAST]
    c, p, total, sub = s[f + _F_C], s[f + _F_P], s[f + _F_TOTAL], s[f + _F_SUB]
    while True:
        extend = p < m and c < cmax
        v = 0
        if extend:
            v = s[_VALUES + s[lst + p]]
            if total + v > hi:
                extend = False  # ascending values: every later card overshoots too
            elif total + s[lsuf + max(p, m - (cmax - c))] < lo:
                extend = False  # even the largest cards left cannot reach lo
        if extend:
            s[stk + c] = p
            c += 1
            total += v
            sub |= 1 << s[lst + p]
            p += 1
            if (
                c >= cmin
                and total >= lo
                and _segment_ok(k, sub, last, pos, s, need_at, need_a, need_b)
            ):
                s[f + _F_C] = c
                s[f + _F_P] = p
                s[f + _F_TOTAL] = total
                s[f + _F_SUB] = sub
                return True
            continue
        if c == 0:
            return False
        c -= 1
        q = s[stk + c]
        total -= s[_VALUES + s[lst + q]]
        sub ^= 1 << s[lst + q]
        p = q + 1


@njit(cache=True)
def _search(n, pos, s, need_at, need_a, need_b, mstamp, mbits, stamp):
    """Depth-first search over positions 0..5; True with the subsets in s[_CHOICE:] on
    success. Iterative on purpose: numba's on-disk cache cannot reload recursive functions."""
    full = (1 << n) - 1
    last_k = SEGMENTS - 1
    if not _open(0, full, 0, n, pos, s, mstamp, mbits, stamp):
        return False
    k = 0
    while k >= 0:
        f = _FRAME + 12 * k
        if not _next(k, pos, s, need_at, need_a, need_b):
            _fail(k, s[f + _F_REM], s[f + _F_LAST], s, mstamp, mbits, stamp)
            k -= 1
            continue
        rem = s[f + _F_REM] ^ s[f + _F_SUB]
        total = s[f + _F_TOTAL]
        if k + 1 == last_k:
            # The last position takes every card left.
            if not rem & ~s[_ALLOWED + last_k] and _segment_ok(
                last_k, rem, total, pos, s, need_at, need_a, need_b
            ):
                for j in range(last_k):
                    s[_CHOICE + j] = s[_FRAME + 12 * j + _F_SUB]
                s[_CHOICE + last_k] = rem
                return True
            continue
        if _open(k + 1, rem, total, n, pos, s, mstamp, mbits, stamp):
            k += 1
    return False


@njit(cache=True)
def decide(values, colours, n, hands, pos, glob, mstamp, mbits, s):
    """Decide one deal of ``n`` ≤ 12 cards. ``hands`` holds each seat's first-placed cards as
    masks (its hand; with 2 players its set of 4), read only for a first_cards rule.

    Returns the opening seat of a passing game (0 when the clock has no first_cards rule),
    or -1 when none exists. On success :func:`choice` gives the witness subsets.
    """
    if glob[IMPOSSIBLE]:
        return -1
    # The search generates subsets in ascending value, so it works on the cards sorted
    # (insertion sort into the scratch vector: a deal is small and allocating costs more).
    for j in range(n):
        value = values[j]
        i = j
        while i > 0 and s[_VALUES + i - 1] > value:
            s[_VALUES + i] = s[_VALUES + i - 1]
            s[_PERM + i] = s[_PERM + i - 1]
            i -= 1
        s[_VALUES + i] = value
        s[_PERM + i] = j
    for j in range(n):
        s[_COLOURS + j] = colours[s[_PERM + j]]
        s[_RANK + s[_PERM + j]] = j
    _prepare(s[_VALUES : _VALUES + n], s[_COLOURS : _COLOURS + n], n, pos, s)
    full = (1 << n) - 1
    need_at = s[_NEED_AT : _NEED_AT + 2]
    need_at[0] = glob[FIRST_A]
    need_at[1] = glob[FIRST_B]
    rank = s[_RANK : _RANK + n]
    seats = hands.shape[0] if need_at[0] >= 0 else 1
    for opener in range(seats):
        s[SCRATCH] += 1
        need_a = full
        need_b = full
        if need_at[0] >= 0:
            need_a = _remap(hands[opener], rank, n)
            need_b = _remap(hands[(opener + 1) % hands.shape[0]], rank, n)
        if _search(n, pos, s, need_at, need_a, need_b, mstamp, mbits, s[SCRATCH]):
            for k in range(SEGMENTS):
                original = 0
                for j in range(n):
                    if (s[_CHOICE + k] >> j) & 1:
                        original |= 1 << s[_PERM + j]
                s[_CHOICE + k] = original
            return opener
    return -1


@njit(cache=True, inline="always")
def _remap(mask, rank, n):
    out = 0
    for i in range(n):
        if (mask >> i) & 1:
            out |= 1 << rank[i]
    return out


@njit(cache=True)
def choice(s):
    """The witness subsets of the last successful :func:`decide`, by reading position."""
    return s[_CHOICE : _CHOICE + SEGMENTS].copy()


@njit(cache=True)
def decide_many_serial(values, colours, n, hands, pos, glob, out):
    """:func:`decide` for each row of ``values``/``colours``/``hands``; 1 in ``out`` = passable."""
    mstamp = np.zeros((SEGMENTS, MEMO_STATES), dtype=np.int64)
    mbits = np.zeros((SEGMENTS, MEMO_STATES, 2), dtype=np.uint64)
    s = np.zeros(SCRATCH + 1, dtype=np.int64)
    for i in range(values.shape[0]):
        out[i] = decide(values[i], colours[i], n, hands[i], pos, glob, mstamp, mbits, s) >= 0


@njit(cache=True, parallel=True)
def decide_many(values, colours, n, hands, pos, glob, out, chunks):
    """:func:`decide_many_serial` split into ``chunks`` pieces run on all cores."""
    rows = values.shape[0]
    for c in prange(chunks):
        lo = rows * c // chunks
        hi = rows * (c + 1) // chunks
        mstamp = np.zeros((SEGMENTS, MEMO_STATES), dtype=np.int64)
        mbits = np.zeros((SEGMENTS, MEMO_STATES, 2), dtype=np.uint64)
        s = np.zeros(SCRATCH + 1, dtype=np.int64)
        for i in range(lo, hi):
            out[i] = decide(values[i], colours[i], n, hands[i], pos, glob, mstamp, mbits, s) >= 0


@njit(cache=True)
def _cards_of(sun_mask, moon_mask, values, colours):
    """The cards of a value set (bit v of a mask = value v of that colour), in value order."""
    n = 0
    for v in range(1, 13):
        if (sun_mask >> v) & 1:
            values[n] = v
            colours[n] = 0
            n += 1
        if (moon_mask >> v) & 1:
            values[n] = v
            colours[n] = 1
            n += 1
    return n


@njit(cache=True, parallel=True)
def decide_value_sets(sun_masks, moon_masks, pos, glob, out, chunks):
    """Decide every value set ``(sun_masks[r], moon_masks[r])``; 1 in ``out[r]`` = passable.

    Only for clocks without seat rules: the hands passed to :func:`decide` are empty.
    """
    rows = sun_masks.shape[0]
    for c in prange(chunks):
        lo = rows * c // chunks
        hi = rows * (c + 1) // chunks
        mstamp = np.zeros((SEGMENTS, MEMO_STATES), dtype=np.int64)
        mbits = np.zeros((SEGMENTS, MEMO_STATES, 2), dtype=np.uint64)
        s = np.zeros(SCRATCH + 1, dtype=np.int64)
        values = np.zeros(MAX_CARDS, dtype=np.int64)
        colours = np.zeros(MAX_CARDS, dtype=np.int64)
        hands = np.zeros(1, dtype=np.int64)
        for r in range(lo, hi):
            n = _cards_of(sun_masks[r], moon_masks[r], values, colours)
            out[r] = decide(values[:n], colours[:n], n, hands, pos, glob, mstamp, mbits, s) >= 0
