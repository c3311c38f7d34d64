"""The compiled engine: the plan-following player of ``solver.core.table.agents`` in numba.

This is a line-for-line translation of :func:`solver.core.table.agents.rank_candidates` (first
choice only) and of the slips (:func:`solver.core.table.agents.slip_of`), plus the game loop
and the resolution of the clock kinds listed in ``table_rules.PLANNED_KINDS``. The
exactly-twelve convention has its one home here (:func:`exact_move`, at the end of this
module): ``exact.choose`` calls it for the reference player.
``tests/solver/core/table/test_agents_fast.py`` and ``test_slips.py`` beside it play both
engines on the same deals and demand the same moves and outcomes, so change the two together.

Cards are encoded as ``colour * 12 + value - 1`` (Sun = 0, Moon = 1); positions are reading
positions 0..5 from the start segment.

Every number the kernels read is defined in this module (or in ``plans``, which stands
below it), and the modules of the table import it from here: numba freezes a global into
the machine code it compiles, and its cache notices a change to this file only.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .plans import AVERAGE_CARD

SEG = 6
MAX_HAND = 6
CARDS_IN_PLAY = 12
SUN, MOON = 0, 1
ANY_COLOUR = 2  # TableRules.exact_colour: either colour
# What breaking the lone-segment convention costs a move (``agents._misses_lone``): more than
# any score, so such a move comes after every other move that keeps the plan.
LONE_MISS = 1000.0
SLIP_MISREAD = 2.0  # how far off a misread face-down card is, either way
MISREAD_SHARE = 0.5  # the share of slips that misread a card; the others play a random move

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@numba.njit(cache=True)
def _belief(target: float, before: float, w: float) -> float:
    need = min(max(target - before, 1.0), 12.0)
    return w * need + (1.0 - w) * AVERAGE_CARD


@numba.njit(cache=True, inline="always")
def _hands(
    values: IntArray, slot_colour: IntArray, slot_seat: IntArray, players: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Each seat's dealing slots sorted the way a player looks at their hand
    (``agents.hand_order``), how many, and each seat's Suns and Moons."""
    order = np.empty((players, MAX_HAND), dtype=np.int64)
    n_slots = np.zeros(players, dtype=np.int64)
    seat_suns = np.zeros(players, dtype=np.int64)
    seat_moons = np.zeros(players, dtype=np.int64)
    for s in range(CARDS_IN_PLAY):
        seat = slot_seat[s]
        key = slot_colour[s] * 100 + values[s]
        k = n_slots[seat]
        while k > 0:
            o = order[seat, k - 1]
            if slot_colour[o] * 100 + values[o] <= key:
                break
            order[seat, k] = o
            k -= 1
        order[seat, k] = s
        n_slots[seat] += 1
        if slot_colour[s] == 0:
            seat_suns[seat] += 1
        else:
            seat_moons[seat] += 1
    return order, n_slots, seat_suns, seat_moons


@numba.njit(cache=True, inline="always")
def _misread(
    est: FloatArray, me: int, t: int,
    board_pos: IntArray, board_seat: IntArray, board_face: IntArray, u: float,
) -> None:  # fmt: skip
    """A misread slip (``agents.slip_of``): this player reads the ``pick // 2``-th face-down
    card another player placed ±SLIP_MISREAD off; with none on the board, nothing slips."""
    n_hidden = 0
    for i in range(t):
        if board_face[i] == 0 and board_seat[i] != me:
            n_hidden += 1
    if n_hidden > 0:
        pick = int(u * 2 * n_hidden)
        k = pick // 2
        for i in range(t):
            if board_face[i] == 0 and board_seat[i] != me:
                if k == 0:
                    error = SLIP_MISREAD if pick % 2 == 0 else -SLIP_MISREAD
                    est[board_pos[i]] = est[board_pos[i]] + error
                    break
                k -= 1


@numba.njit(cache=True, inline="always")
def _count_left(
    left: IntArray, t: int, me: int,
    seat_suns: IntArray, seat_moons: IntArray, used_suns: IntArray, used_moons: IntArray,
) -> None:  # fmt: skip
    """Fill ``left`` for :func:`_tier`: the cards in play after this move, their Suns and
    Moons, and this player's cards after it, Suns and Moons (this card still counted)."""
    left[0] = CARDS_IN_PLAY - t - 1
    left[1] = seat_suns.sum() - used_suns.sum()
    left[2] = seat_moons.sum() - used_moons.sum()
    left[3] = seat_suns[me] + seat_moons[me] - used_suns[me] - used_moons[me] - 1
    left[4] = seat_suns[me] - used_suns[me]
    left[5] = seat_moons[me] - used_moons[me]


@numba.njit(cache=True, inline="always")
def _by_targets(  # noqa: C901 - one flat loop, for speed (docstring)
    free: IntArray, me: int, t: int, values: IntArray, slot_colour: IntArray,
    ints: IntArray, floats: FloatArray, allowed: IntArray, scalars: FloatArray, info: IntArray,
    est: FloatArray, cnt: IntArray, suns: IntArray, moons: IntArray, left: IntArray,
) -> tuple[int, int]:  # fmt: skip
    """``agents.rank_candidates``' first choice: (slot, position) of the best tier, then the
    best score, cards in hand order and positions in reading order breaking ties. One flat
    loop: split into functions, numba runs it about half as fast again."""
    min_count, max_count = ints[0], ints[1]
    min_sun, max_sun, min_moon, max_moon = ints[2], ints[3], ints[4], ints[5]
    sole, forbidden, one_colour, equal_next = ints[6], ints[7], ints[8], ints[9]
    targets, vmax, band_lo, band_hi = floats[0], floats[2], floats[3], floats[4]
    lone_floor = floats[5]
    order_w, open_bonus, band_w, cap = scalars[1], scalars[2], scalars[4], scalars[5]
    n_first = info[4]
    remaining_after, suns_left, moons_left = left[0], left[1], left[2]
    my_cards_after, my_suns, my_moons = left[3], left[4], left[5]
    best_tier, best_score, best_slot, best_p = 99, 0.0, -1, -1
    for k in range(free.shape[0]):
        s = free[k]
        v = values[s]
        is_sun = slot_colour[s] == 0
        for p in range(SEG):
            tier = 0
            if t < n_first and info[2 + t] != p:
                tier = 3
            elif (
                cnt[p] >= max_count[p]
                or (is_sun and suns[p] >= max_sun[p])
                or ((not is_sun) and moons[p] >= max_moon[p])
                or (forbidden[p] >> v) & 1 == 1
                or (one_colour[p] == 1 and (moons[p] if is_sun else suns[p]) > 0)
            ):
                tier = 2
            elif allowed[p, me] == 0:
                tier = 1
            else:
                need = need_s = need_m = 0
                mine = mine_s = mine_m = 0
                for q in range(SEG):
                    c = cnt[q] + (1 if q == p else 0)
                    ss = suns[q] + (1 if (q == p and is_sun) else 0)
                    mm = moons[q] + (1 if (q == p and not is_sun) else 0)
                    dc = max(0, min_count[q] - c)
                    ds = max(0, min_sun[q] - ss)
                    dm = max(0, min_moon[q] - mm)
                    need += dc
                    need_s += ds
                    need_m += dm
                    if sole[q] == me:
                        mine += dc
                        mine_s += ds
                        mine_m += dm
                sun_i = 1 if is_sun else 0
                ok = (
                    need <= remaining_after
                    and need_s <= suns_left - sun_i
                    and need_m <= moons_left - (1 - sun_i)
                    and mine <= my_cards_after
                    and mine_s <= my_suns - sun_i
                    and mine_m <= my_moons - (1 - sun_i)
                )
                if not ok:
                    tier = 1
            if tier > best_tier:
                continue
            e_old = est[p]
            e_new = e_old + v
            target = targets[p]
            gain = abs(target - e_old) - abs(target - e_new)
            if cnt[p] == 0:
                gain = gain + open_bonus
            band = band_w * (max(0.0, band_lo[p] - v) + max(0.0, v - band_hi[p]))
            pen = 0.0
            prev = 0.0
            has_prev = False
            for q in range(SEG):
                if q == p:
                    x = e_new
                elif cnt[q] > 0:
                    x = est[q]
                elif lone_floor[q] > 0.0:
                    x = lone_floor[q]  # an empty lone segment counts as its floor
                else:
                    continue
                if has_prev:
                    pen = pen + max(0.0, prev - x)
                pen = pen + max(0.0, x - cap)
                pen = pen + max(0.0, x - vmax[q])
                prev = x
                has_prev = True
            # agents._order_penalty: equal neighbours, both with cards.
            for q in range(SEG):
                n = (q + 1) % SEG
                if equal_next[q] == 1 and (q == p or cnt[q] > 0) and (n == p or cnt[n] > 0):
                    a = e_new if q == p else est[q]
                    b = e_new if n == p else est[n]
                    pen = pen + abs(a - b)
            score = gain - order_w * pen - band
            # agents._misses_lone: the lone-segment convention (plans.Plan.lone).
            miss = v < lone_floor[p]
            for q in range(p + 1, SEG):
                if lone_floor[q] > 0.0:
                    lone_cap = lone_floor[q] if cnt[q] == 0 else max(lone_floor[q], est[q])
                    if e_new > lone_cap:
                        miss = True
                    if cnt[p + 1] > 0 and lone_floor[p + 1] == 0.0 and e_new > est[p + 1]:
                        miss = True
            if miss:
                score = score - LONE_MISS
            if tier < best_tier or score > best_score:
                best_tier = tier
                best_score = score
                best_slot = s
                best_p = p
    return best_slot, best_p


@numba.njit(cache=True, inline="always")
def _resolved(
    ints: IntArray, floats: FloatArray, cap: float, strict: int,
    cnt: IntArray, suns: IntArray, moons: IntArray, sums: IntArray, barred: IntArray,
) -> bool:  # fmt: skip
    """Whether the clock passes, for the kinds the compiled engine knows (rules.validate is
    the reference)."""
    min_count, max_count = ints[0], ints[1]
    min_sun, max_sun, min_moon, max_moon = ints[2], ints[3], ints[4], ints[5]
    one_colour, equal_next = ints[8], ints[9]
    vmin, vmax = floats[1], floats[2]
    for p in range(SEG):
        if cnt[p] == 0 or cnt[p] < min_count[p] or cnt[p] > max_count[p]:
            return False
        if suns[p] < min_sun[p] or suns[p] > max_sun[p]:
            return False
        if moons[p] < min_moon[p] or moons[p] > max_moon[p]:
            return False
        if sums[p] > cap or sums[p] < vmin[p] or sums[p] > vmax[p]:
            return False
        if barred[p] == 1 or (one_colour[p] == 1 and suns[p] > 0 and moons[p] > 0):
            return False
        if p > 0 and (sums[p] < sums[p - 1] or (strict == 1 and sums[p] == sums[p - 1])):
            return False
        if equal_next[p] == 1 and sums[p] != sums[(p + 1) % SEG]:
            return False
    return True


@numba.njit(cache=True)
def _play_one(
    values: IntArray,  # [12] card value per dealing slot
    slot_colour: IntArray,  # [12]
    slot_seat: IntArray,  # [12]
    slot_extra: IntArray,  # [12] 1 = the 2-player set of 2
    ints: IntArray,
    floats: FloatArray,
    allowed: IntArray,
    scalars: FloatArray,
    info: IntArray,
    face_up_budget: int,
    moves_out: IntArray,  # [12, 4] seat, slot, position, face_up
    slip_rate: float,
    slips: FloatArray,  # [12, 3] the three uniform numbers of each decision (agents.slip_of)
) -> bool:
    """One game: each turn the player's decision (a slip, the exactly-twelve convention, or
    the plan's targets), its placement, and the clock's resolution at the end."""
    forbidden, equal_next = ints[7], ints[9]
    lone_floor = floats[5]
    players, opener, n_first = info[0], info[1], info[4]
    exact_colour = info[6]  # TableRules.exact_colour: -1 unless the plan is exact
    order, n_slots, seat_suns, seat_moons = _hands(values, slot_colour, slot_seat, players)
    used = np.zeros(CARDS_IN_PLAY, dtype=np.int64)
    pub = np.zeros(SEG)
    adj = np.zeros((players, SEG))
    cnt = np.zeros(SEG, dtype=np.int64)
    suns = np.zeros(SEG, dtype=np.int64)
    moons = np.zeros(SEG, dtype=np.int64)
    used_suns = np.zeros(players, dtype=np.int64)
    used_moons = np.zeros(players, dtype=np.int64)
    sums = np.zeros(SEG, dtype=np.int64)
    barred = np.zeros(SEG, dtype=np.int64)  # a card of a forbidden value lies there
    est = np.zeros(SEG)
    face_up_left = face_up_budget
    board_pos = np.zeros(CARDS_IN_PLAY, dtype=np.int64)
    board_seat = np.zeros(CARDS_IN_PLAY, dtype=np.int64)
    board_face = np.zeros(CARDS_IN_PLAY, dtype=np.int64)
    board_value = np.zeros(CARDS_IN_PLAY, dtype=np.int64)
    free = np.zeros(MAX_HAND, dtype=np.int64)
    left = np.zeros(6, dtype=np.int64)  # what _tier counts on

    for t in range(CARDS_IN_PLAY):
        me = (opener + t) % players
        extras_in = players != 2 or t >= 4
        for p in range(SEG):
            est[p] = pub[p] + adj[me, p]
        n_free = int(np.int64(0))  # the cards this player may play now (int64: one signature)
        for k in range(n_slots[me]):
            s = order[me, k]
            if not (used[s] == 1 or (slot_extra[s] == 1 and not extras_in)):
                free[n_free] = s
                n_free += 1
        first_position = info[2 + t] if t < n_first else -1
        s, p, exact_face = -1, -1, -1  # exact_face: the convention's face up (1) or down (0)
        if slips[t, 0] < slip_rate:  # this decision slips (agents.slip_of)
            if slips[t, 1] < MISREAD_SHARE:
                _misread(est, me, t, board_pos, board_seat, board_face, slips[t, 2])
            else:  # a uniformly random placeable move: cards in hand order, then positions
                per_card = 1 if t < n_first else SEG
                j = int(slips[t, 2] * (n_free * per_card))
                s = free[j // per_card]
                p = first_position if t < n_first else j % per_card
        if s < 0 and exact_colour >= 0:
            s, p, exact_face = _exact_first_legal(
                me, free[:n_free], values, slot_colour, exact_colour,
                board_pos[:t], board_seat[:t], board_face[:t], board_value[:t], face_up_left,
                first_position,
            )  # fmt: skip
        if s < 0:
            _count_left(left, t, me, seat_suns, seat_moons, used_suns, used_moons)
            s, p = _by_targets(
                free[:n_free], me, t, values, slot_colour, ints, floats, allowed, scalars,
                info, est, cnt, suns, moons, left,
            )  # fmt: skip
        v = values[s]
        b = _belief(floats[0, p], pub[p], scalars[0])
        face_up = exact_face == 1 or (
            exact_face < 0
            and face_up_left > 0
            and (
                abs(v - b) >= scalars[3]
                or lone_floor[p] > 0.0
                or equal_next[p] == 1
                or equal_next[(p - 1) % SEG] == 1
            )
        )
        used[s] = 1
        board_pos[t] = p
        board_seat[t] = me
        board_face[t] = 1 if face_up else 0
        board_value[t] = v
        moves_out[t, 0] = me
        moves_out[t, 1] = s
        moves_out[t, 2] = p
        moves_out[t, 3] = 1 if face_up else 0
        if face_up:
            face_up_left -= 1
            pub[p] = pub[p] + v
        else:
            adj[me, p] = adj[me, p] + (v - b)
            pub[p] = pub[p] + b
        cnt[p] += 1
        sums[p] += v
        if (forbidden[p] >> v) & 1 == 1:
            barred[p] = 1
        if slot_colour[s] == 0:
            suns[p] += 1
            used_suns[me] += 1
        else:
            moons[p] += 1
            used_moons[me] += 1
    return _resolved(ints, floats, scalars[5], info[5], cnt, suns, moons, sums, barred)


@numba.njit(cache=True, parallel=True)
def play_many(
    values: IntArray,  # [games, 12]
    slot_colour: IntArray,
    slot_seat: IntArray,
    slot_extra: IntArray,
    ints: IntArray,
    floats: FloatArray,
    allowed: IntArray,
    scalars: FloatArray,
    info: IntArray,
    face_up_budget: int,
    moves_out: IntArray,  # [games, 12, 4]
    slip_rate: float,
    slips: FloatArray,  # [games, 12, 3]
) -> npt.NDArray[np.bool_]:
    games = values.shape[0]
    passed = np.zeros(games, dtype=np.bool_)
    for g in numba.prange(games):
        passed[g] = _play_one(
            values[g], slot_colour, slot_seat, slot_extra, ints, floats, allowed, scalars,
            info, face_up_budget, moves_out[g], slip_rate, slips[g],
        )  # fmt: skip
    return passed


# --- The exactly-twelve convention -------------------------------------------------------
# Its one home: :func:`exact_move` is the convention's decision (``exact.choose`` hands it a
# View as arrays; the engine above calls it through ``_exact_first_legal``). It lives in this
# module because numba caches a kernel by its own file: a helper in another module could
# change without the cached engine noticing.
# Positions: the lone segment is 5, the segments that end at exactly 12 are 4, 3, 2 and 1
# (latest first), and 0 takes the rest.

TOP = 12  # the lone card, and what every segment read before it ends at
LONE, REST = 5, 0
EXACT = (4, 3, 2, 1)  # the segments that end at exactly TOP, as positions, latest first


@numba.njit(cache=True)
def _making(vals: IntArray, n: int, total: int) -> int:
    """A bit mask of the fewest of ``vals[:n]`` that add up to ``total``, the first in
    ``itertools.combinations`` order; 0 if none do."""
    idx = np.empty(max(n, 1), dtype=np.int64)
    for k in range(1, n + 1):
        for i in range(k):
            idx[i] = i
        while True:
            s = 0
            for i in range(k):
                s += vals[idx[i]]
            if s == total:
                mask = 0
                for i in range(k):
                    mask |= 1 << idx[i]
                return mask
            i = k - 1
            while i >= 0 and idx[i] == n - k + i:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for j in range(i + 1, k):
                idx[j] = idx[j - 1] + 1
    return 0


@numba.njit(cache=True)
def _largest(vals: IntArray, n: int, mask: int) -> int:
    """The index of the first of the largest values in ``mask``."""
    best = -1
    for i in range(n):
        if (mask >> i) & 1 == 1 and (best < 0 or vals[i] > vals[best]):
            best = i
    return best


@numba.njit(cache=True)
def _total(s: int, me: int, known: IntArray, hidden: IntArray, opener: IntArray) -> int:
    """The segment's total where this player knows it (face up, or theirs); -1 if not."""
    if hidden[s] > 0 or (opener[s] >= 0 and opener[s] != me):
        return -1
    return known[s]


@numba.njit(cache=True)
def _spare(
    vals: IntArray, n: int, skip: int, me: int,
    known: IntArray, hidden: IntArray, opener: IntArray,
) -> bool:  # fmt: skip
    """Whether the hand ``vals[:n]`` without card ``skip`` still finishes every segment of
    this player's to TOP."""
    pool = np.empty(max(n, 1), dtype=np.int64)
    m = 0
    for i in range(n):
        if i != skip:
            pool[m] = vals[i]
            m += 1
    for s in EXACT:
        total = _total(s, me, known, hidden, opener)
        if opener[s] == me and hidden[s] == 0 and 0 <= total < TOP:
            mask = _making(pool, m, TOP - total)
            if mask == 0:
                return False
            kept = 0
            for i in range(m):
                if (mask >> i) & 1 == 0:
                    pool[kept] = pool[i]
                    kept += 1
            m = kept
    return True


@numba.njit(cache=True)
def exact_move(  # noqa: C901 - one branch per priority
    me: int,
    lone_colour: int,  # the colour the lone 12 must have: SUN, MOON or ANY_COLOUR
    hand_values: IntArray,  # this player's cards, in any order
    hand_colours: IntArray,  # SUN or MOON
    board_position: IntArray,  # per placed card, in play order
    board_seat: IntArray,
    board_face: IntArray,  # 1: face up
    board_value: IntArray,  # read only where this player may know it: face up, or their own
    face_up_left: int,
) -> tuple[int, int, int]:
    """The convention's move by its priorities (``exact``'s docstring): (index into the
    hand, position, face up 1/0). The hand is considered by value, the Moon before the Sun."""
    n = hand_values.shape[0]
    hand = np.empty(n, dtype=np.int64)  # indices into the hand, in the convention's order
    for i in range(n):
        key = hand_values[i] * 2 + (1 - hand_colours[i])
        k = i
        while k > 0 and hand_values[hand[k - 1]] * 2 + (1 - hand_colours[hand[k - 1]]) > key:
            hand[k] = hand[k - 1]
            k -= 1
        hand[k] = i
    vals = np.empty(max(n, 1), dtype=np.int64)
    for i in range(n):
        vals[i] = hand_values[hand[i]]
    cards = np.zeros(SEG, dtype=np.int64)
    known = np.zeros(SEG, dtype=np.int64)
    hidden = np.zeros(SEG, dtype=np.int64)
    opener = np.full(SEG, -1, dtype=np.int64)
    for i in range(board_position.shape[0]):
        p = board_position[i]
        if cards[p] == 0 and board_face[i] == 0:
            opener[p] = board_seat[i]
        cards[p] += 1
        if board_face[i] == 1 or board_seat[i] == me:
            known[p] += board_value[i]
        else:
            hidden[p] += 1
    if cards[LONE] == 0:  # the 12 alone on the last segment
        for i in range(n):
            colour = hand_colours[hand[i]]
            if vals[i] == TOP and (lone_colour == ANY_COLOUR or colour == lone_colour):
                return hand[i], LONE, 0
    for s in EXACT:  # finish a segment, never with a card your own segments still need
        total = _total(s, me, known, hidden, opener)
        if cards[s] > 0 and 0 <= total < TOP:
            mine = opener[s] == me and hidden[s] == 0
            for i in range(n):
                if vals[i] == TOP - total and (
                    mine or _spare(vals, n, i, me, known, hidden, opener)
                ):
                    return hand[i], s, 0
    for s in EXACT:  # continue your own
        total = _total(s, me, known, hidden, opener)
        if opener[s] == me and hidden[s] == 0 and 0 <= total < TOP:
            mask = _making(vals, n, TOP - total)
            if mask != 0:
                return hand[_largest(vals, n, mask)], s, 0
    empty = -1
    for s in EXACT:
        if cards[s] == 0:
            empty = s
            break
    if empty >= 0:  # open your own on the latest empty segment
        mask = _making(vals, n, TOP)
        if mask != 0:
            return hand[_largest(vals, n, mask)], empty, 0
    if face_up_left > 0:
        for low, high in ((10, TOP), (4, 9)):
            if empty >= 0:  # open face up, the largest card first
                for i in range(n - 1, -1, -1):
                    if low <= vals[i] <= high:
                        return hand[i], empty, 1
            if low == 10:  # add to a face-up segment, face up, below 12
                for s in EXACT:
                    if cards[s] > 0 and opener[s] < 0:
                        total = _total(s, me, known, hidden, opener)
                        for i in range(n - 1, -1, -1):
                            if total >= 0 and total + vals[i] < TOP:
                                return hand[i], s, 1
    for s in EXACT:  # a card nothing else takes, on a face-up segment at or below 12
        if cards[s] > 0 and opener[s] < 0:
            total = _total(s, me, known, hidden, opener)
            for i in range(n - 1, -1, -1):
                if total >= 0 and total + vals[i] <= TOP:
                    return hand[i], s, 0
    return hand[0], REST, 0  # else the smallest card, face down on the first segment read


@numba.njit(cache=True)
def _exact_first_legal(
    me: int,
    slots: IntArray,  # the cards this player may play now, as slots of the deal
    values: IntArray,
    slot_colour: IntArray,
    lone_colour: int,
    board_position: IntArray,
    board_seat: IntArray,
    board_face: IntArray,
    board_value: IntArray,
    face_up_left: int,
    first_position: int,  # where the clock's first_cards rule puts this card; -1: anywhere
) -> tuple[int, int, int]:
    """The first move of exact.ranked the referee accepts, as (slot, position, face up):
    :func:`exact_move`'s, unless a first_cards rule sends this card elsewhere; then the first
    card of the hand in the Card order (Moon before Sun, then by value) face down where the
    rule says."""
    n = slots.shape[0]
    hand_values = np.empty(n, dtype=np.int64)
    hand_colours = np.empty(n, dtype=np.int64)
    for i in range(n):
        hand_values[i] = values[slots[i]]
        hand_colours[i] = slot_colour[slots[i]]
    i, p, face_up = exact_move(
        me, lone_colour, hand_values, hand_colours,
        board_position, board_seat, board_face, board_value, face_up_left,
    )  # fmt: skip
    if first_position < 0 or p == first_position:
        return slots[i], p, face_up
    best = 0
    for i in range(n):  # the Card order: colour letter (M before S), then value
        if (1 - hand_colours[i]) * 100 + hand_values[i] < (
            (1 - hand_colours[best]) * 100 + hand_values[best]
        ):
            best = i
    return slots[best], first_position, 0
