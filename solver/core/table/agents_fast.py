"""The compiled engine, and the one home of every decision rule the simulated players follow.

Each convention is a numba function in this module, written once and called by both engines:

- the public belief of a face-down card (:func:`_belief`) and how a player keeps the
  believed totals of the board (:func:`_place`);
- the order a player considers their cards (:func:`_sort_hand`);
- the targets player: each move's tier (:func:`_tier`: placement rules, the clock's limits,
  the plan's promises) and score (:func:`_score`: the targets, the bands, the order
  penalty, the lone segment's floor), the best first (:func:`_better`);
- when to play face up (:func:`_face_up`);
- the slip model: whether a decision slips, which card a misread picks and which move a
  random slip plays (:func:`draw_slip`, :func:`_placeable_move`);
- the exactly-twelve convention (:func:`exact_move`, at the end of this module).

The compiled engine (:func:`play_many`) calls them on the arrays of a whole batch of games.
The reference engine (``simulate.play_reference``, plain Python: deal, views, referee,
resolution) turns each player's ``View`` into arrays and calls the same functions, through
:func:`targets_table`, :func:`draw_slip` and :func:`exact_move` (``agents``, ``exact``).
``tests/solver/core/table/test_agents_fast.py`` and ``test_slips.py`` play both engines on
the same deals and demand the same moves and outcomes: what they check now is the flow of
the game (views, referee, resolution), as the decisions have one home.

Cards are encoded as ``colour * 12 + value - 1`` (Sun = 0, Moon = 1); positions are reading
positions 0..5 from the start segment.

Every number the kernels read is defined in this module (or in ``plans``, which stands
below it), and the modules of the table import it from here: numba freezes a global into
the machine code it compiles, and its cache notices a change to this file only. For the
same reason every helper of a kernel lives here too.
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
# What breaking the lone-segment convention costs a move (:func:`_score`): more than any
# score, so such a move comes after every other move that keeps the plan.
LONE_MISS = 1000.0
SLIP_MISREAD = 2.0  # how far off a misread face-down card is, either way
MISREAD_SHARE = 0.5  # the share of slips that misread a card; the others play a random move
NO_SLIP, MISREAD_SLIP, RANDOM_SLIP = 0, 1, 2  # the kinds :func:`draw_slip` returns

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@numba.njit(cache=True)
def _belief(target: float, before: float, w: float) -> float:
    """What everyone reads into a hidden card on a segment whose target is ``target`` and
    whose believed total is ``before``: the plan's public convention (``need_weight``)."""
    need = min(max(target - before, 1.0), 12.0)
    return w * need + (1.0 - w) * AVERAGE_CARD


@numba.njit(cache=True, inline="always")
def _place(
    p: int, v: int, is_sun: bool, placer: int, face_up: bool, known: bool,
    target: float, w: float, pub: FloatArray, adj: FloatArray,
    cnt: IntArray, suns: IntArray, moons: IntArray, used_suns: IntArray, used_moons: IntArray,
) -> None:  # fmt: skip
    """One card placed at position ``p``, as one player counts it: ``pub`` (the public
    believed totals) reads a face-down card by the belief convention, and ``adj`` (this
    player's correction) adds its true value minus that belief where the player ``known``s
    it (their own card); the counts by position and colour, and the placer's cards used."""
    if face_up:
        pub[p] = pub[p] + v
    else:
        b = _belief(target, pub[p], w)
        if known:
            adj[p] = adj[p] + (v - b)
        pub[p] = pub[p] + b
    cnt[p] += 1
    if is_sun:
        suns[p] += 1
        used_suns[placer] += 1
    else:
        moons[p] += 1
        used_moons[placer] += 1


@numba.njit(cache=True, inline="always")
def _sort_hand(slots: IntArray, n: int, colours: IntArray, values: IntArray) -> None:
    """Sort ``slots[:n]`` (indices into ``colours`` and ``values``) in the order a player
    considers their cards: Suns before Moons, then by value."""
    for i in range(1, n):
        s = slots[i]
        key = colours[s] * 100 + values[s]
        k = i
        while k > 0 and colours[slots[k - 1]] * 100 + values[slots[k - 1]] > key:
            slots[k] = slots[k - 1]
            k -= 1
        slots[k] = s


@numba.njit(cache=True, inline="always")
def _hands(
    values: IntArray, slot_colour: IntArray, slot_seat: IntArray, players: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Each seat's dealing slots in the order a player considers them (:func:`_sort_hand`),
    how many, and each seat's Suns and Moons."""
    order = np.empty((players, MAX_HAND), dtype=np.int64)
    n_slots = np.zeros(players, dtype=np.int64)
    seat_suns = np.zeros(players, dtype=np.int64)
    seat_moons = np.zeros(players, dtype=np.int64)
    for s in range(CARDS_IN_PLAY):
        seat = slot_seat[s]
        order[seat, n_slots[seat]] = s
        n_slots[seat] += 1
        if slot_colour[s] == 0:
            seat_suns[seat] += 1
        else:
            seat_moons[seat] += 1
    for seat in range(players):
        _sort_hand(order[seat], n_slots[seat], slot_colour, values)
    return order, n_slots, seat_suns, seat_moons


@numba.njit(cache=True, inline="always")
def draw_slip(
    rate: float, u0: float, u1: float, u2: float, me: int, t: int,
    board_seat: IntArray, board_face: IntArray, n_cards: int, n_first: int,
) -> tuple[int, int, float]:  # fmt: skip
    """The slip of this decision, from three uniform numbers in [0, 1): (NO_SLIP, -1, 0),
    (MISREAD_SLIP, the board index of the card misread, the error) or (RANDOM_SLIP, the
    index of the move among the placeable ones, 0).

    ``u0 < rate`` slips; then ``u1 < MISREAD_SHARE`` misreads (``u2`` picks the card and the
    sign among the face-down cards others placed; with none on the board, nothing slips),
    else a random move (``u2`` picks it among this player's ``n_cards`` cards times the
    positions they may go to, :func:`_placeable_move`)."""
    if not u0 < rate:
        return NO_SLIP, -1, 0.0
    if u1 < MISREAD_SHARE:
        n_hidden = 0
        for i in range(t):
            if board_face[i] == 0 and board_seat[i] != me:
                n_hidden += 1
        pick = int(u2 * 2 * n_hidden)
        k = pick // 2
        for i in range(t):
            if board_face[i] == 0 and board_seat[i] != me:
                if k == 0:
                    return MISREAD_SLIP, i, SLIP_MISREAD if pick % 2 == 0 else -SLIP_MISREAD
                k -= 1
        return NO_SLIP, -1, 0.0
    per_card = 1 if t < n_first else SEG
    return RANDOM_SLIP, int(u2 * (n_cards * per_card)), 0.0


@numba.njit(cache=True, inline="always")
def _placeable_move(index: int, t: int, n_first: int, first_position: int) -> tuple[int, int]:
    """The ``index``-th placeable move (cards in hand order, then positions in reading
    order) as (card, position): where a first_cards rule places the ``t``-th card, one
    position per card."""
    if t < n_first:
        return index, first_position
    return index // SEG, index % SEG


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
def _tier(
    p: int, v: int, is_sun: bool, me: int, t: int, ints: IntArray, allowed: IntArray,
    info: IntArray, cnt: IntArray, suns: IntArray, moons: IntArray, left: IntArray,
) -> int:  # fmt: skip
    """How far a move of card ``v`` to position ``p`` breaks the rules, strongest first:
    3 a placement rule the referee enforces (first cards), 2 the clock's resolution limits
    (too many cards or of a colour, a forbidden value, a second colour where one is
    required), 1 the plan's promises (ownership, keeping every segment's required number and
    colours of cards reachable, overall and for the segments this player alone covers), 0
    none."""
    if t < info[4] and info[2 + t] != p:
        return 3
    max_count, max_sun, max_moon = ints[1], ints[3], ints[5]
    forbidden, one_colour = ints[7], ints[8]
    if (
        cnt[p] >= max_count[p]
        or (is_sun and suns[p] >= max_sun[p])
        or ((not is_sun) and moons[p] >= max_moon[p])
        or (forbidden[p] >> v) & 1 == 1
        or (one_colour[p] == 1 and (moons[p] if is_sun else suns[p]) > 0)
    ):
        return 2
    if allowed[p, me] == 0:
        return 1
    min_count, min_sun, min_moon, sole = ints[0], ints[2], ints[4], ints[6]
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
        need <= left[0]
        and need_s <= left[1] - sun_i
        and need_m <= left[2] - (1 - sun_i)
        and mine <= left[3]
        and mine_s <= left[4] - sun_i
        and mine_m <= left[5] - (1 - sun_i)
    )
    return 0 if ok else 1


@numba.njit(cache=True, inline="always")
def _score(
    p: int, v: int, ints: IntArray, floats: FloatArray, scalars: FloatArray,
    est: FloatArray, cnt: IntArray,
) -> float:  # fmt: skip
    """How much a card ``v`` at position ``p`` helps, by the believed totals ``est``: how
    much closer to its target it brings the segment (plus a bonus for opening one), less
    the plan's band around the card and the order penalty (the believed totals breaking the
    rising order, the cap or a value range; an empty lone segment counts as holding its
    floor, as it caps the segments read before it; equal neighbours as far apart as their
    totals), less LONE_MISS where the move breaks the lone-segment convention
    (``plans.Plan.lone``): a card below the floor on a lone segment, or a segment read
    before a lone one above its cap (the floor while it is empty, then what its card is
    believed to be, never less than the floor) or above the next segment when that one has
    cards and is not the lone one."""
    equal_next = ints[9]
    targets, vmax, band_lo, band_hi = floats[0], floats[2], floats[3], floats[4]
    lone_floor = floats[5]
    order_w, open_bonus, band_w, cap = scalars[1], scalars[2], scalars[4], scalars[5]
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
            x = lone_floor[q]
        else:
            continue
        if has_prev:
            pen = pen + max(0.0, prev - x)
        pen = pen + max(0.0, x - cap)
        pen = pen + max(0.0, x - vmax[q])
        prev = x
        has_prev = True
    for q in range(SEG):
        n = (q + 1) % SEG
        if equal_next[q] == 1 and (q == p or cnt[q] > 0) and (n == p or cnt[n] > 0):
            a = e_new if q == p else est[q]
            b = e_new if n == p else est[n]
            pen = pen + abs(a - b)
    score = gain - order_w * pen - band
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
    return score


@numba.njit(cache=True, inline="always")
def _better(tier: int, score: float, than_tier: int, than_score: float) -> bool:
    """The targets player's preference: the lower tier, then the higher score (an equal
    move keeps the one considered first: cards in hand order, positions in reading order)."""
    return tier < than_tier or (tier == than_tier and score > than_score)


@numba.njit(cache=True, inline="always")
def _face_up(
    face_up_left: int, v: int, p: int, pub: FloatArray, ints: IntArray, floats: FloatArray,
    scalars: FloatArray,
) -> bool:  # fmt: skip
    """Whether a card ``v`` placed at ``p`` by the plan's targets goes face up: while the
    budget lasts, when it is far from what the belief convention would read into it, on a
    lone segment (it caps the segments before it, and everyone should know by how much),
    and on a segment that must equal a neighbour."""
    if face_up_left <= 0:
        return False
    equal_next = ints[9]
    b = _belief(floats[0, p], pub[p], scalars[0])
    return (
        abs(v - b) >= scalars[3]
        or floats[5, p] > 0.0
        or equal_next[p] == 1
        or equal_next[(p - 1) % SEG] == 1
    )


@numba.njit(cache=True, inline="always")
def _by_targets(
    free: IntArray, me: int, t: int, values: IntArray, slot_colour: IntArray,
    ints: IntArray, floats: FloatArray, allowed: IntArray, scalars: FloatArray, info: IntArray,
    est: FloatArray, cnt: IntArray, suns: IntArray, moons: IntArray, left: IntArray,
    every_tier: IntArray, every_score: FloatArray,
) -> tuple[int, int]:  # fmt: skip
    """The targets player's choice among the cards ``free`` (in hand order): (card, position)
    of the best tier, then the best score (:func:`_better`). With ``every_tier`` and
    ``every_score`` of shape [cards, SEG] (not empty), also every move's tier and score."""
    every = every_tier.shape[0] > 0
    best_tier, best_score, best_slot, best_p = 99, 0.0, -1, -1
    for k in range(free.shape[0]):
        s = free[k]
        v = values[s]
        is_sun = slot_colour[s] == 0
        for p in range(SEG):
            tier = _tier(p, v, is_sun, me, t, ints, allowed, info, cnt, suns, moons, left)
            if tier > best_tier and not every:
                continue
            score = _score(p, v, ints, floats, scalars, est, cnt)
            if every:
                every_tier[k, p] = tier
                every_score[k, p] = score
            if _better(tier, score, best_tier, best_score):
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
    slips: FloatArray,  # [12, 3] the three uniform numbers of each decision (draw_slip)
) -> bool:
    """One game: each turn the player's decision (a slip, the exactly-twelve convention, or
    the plan's targets), its placement, and the clock's resolution at the end."""
    forbidden = ints[7]
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
    no_tiers = np.zeros((0, SEG), dtype=np.int64)  # _by_targets: the choice only
    no_scores = np.zeros((0, SEG))

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
        kind, index, error = draw_slip(
            slip_rate, slips[t, 0], slips[t, 1], slips[t, 2], me, t, board_seat, board_face,
            n_free, n_first,
        )  # fmt: skip
        if kind == MISREAD_SLIP:
            est[board_pos[index]] = est[board_pos[index]] + error
        elif kind == RANDOM_SLIP:
            k, p = _placeable_move(index, t, n_first, first_position)
            s = free[k]
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
                info, est, cnt, suns, moons, left, no_tiers, no_scores,
            )  # fmt: skip
        v = values[s]
        face_up = exact_face == 1 or (
            exact_face < 0 and _face_up(face_up_left, v, p, pub, ints, floats, scalars)
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
        is_sun = slot_colour[s] == 0
        _place(
            p, v, is_sun, me, face_up, True, floats[0, p], scalars[0], pub, adj[me],
            cnt, suns, moons, used_suns, used_moons,
        )  # fmt: skip
        sums[p] += v
        if (forbidden[p] >> v) & 1 == 1:
            barred[p] = 1
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


@numba.njit(cache=True)
def targets_table(
    me: int,
    hand_values: IntArray,  # this player's cards, in any order
    hand_colours: IntArray,  # SUN or MOON
    board_position: IntArray,  # per placed card, in play order
    board_seat: IntArray,
    board_colour: IntArray,  # SUN or MOON: the card's back
    board_face: IntArray,  # 1: face up
    board_value: IntArray,  # read only where this player may know it: face up, or their own
    face_up_left: int,
    ints: IntArray,
    floats: FloatArray,
    allowed: IntArray,
    scalars: FloatArray,
    info: IntArray,
    seat_suns: IntArray,  # TableRules.seat_suns
    seat_moons: IntArray,
    misread: int,  # a misread slip's board index (draw_slip), or -1
    error: float,  # and how far off that card is read
    random: int,  # a random slip's index among the placeable moves (draw_slip), or -1
) -> IntArray:
    """The targets player's moves for the reference engine, from what its View shows, best
    first, as rows (index into the hand, position, face up 1/0): a random slip's move first,
    then every move of every card by :func:`_better`, the same decisions as
    :func:`_play_one`'s. A misread slip shifts this player's reading of one card."""
    n = hand_values.shape[0]
    t = board_position.shape[0]
    order = np.arange(n)
    _sort_hand(order, n, hand_colours, hand_values)
    pub = np.zeros(SEG)
    adj = np.zeros(SEG)
    cnt = np.zeros(SEG, dtype=np.int64)
    suns = np.zeros(SEG, dtype=np.int64)
    moons = np.zeros(SEG, dtype=np.int64)
    used_suns = np.zeros(info[0], dtype=np.int64)
    used_moons = np.zeros(info[0], dtype=np.int64)
    for i in range(t):
        p = board_position[i]
        _place(
            p, board_value[i], board_colour[i] == SUN, board_seat[i], board_face[i] == 1,
            board_seat[i] == me, floats[0, p], scalars[0], pub, adj,
            cnt, suns, moons, used_suns, used_moons,
        )  # fmt: skip
    est = np.zeros(SEG)
    for p in range(SEG):
        est[p] = pub[p] + adj[p]
    if misread >= 0:
        est[board_position[misread]] = est[board_position[misread]] + error
    left = np.zeros(6, dtype=np.int64)
    _count_left(left, t, me, seat_suns, seat_moons, used_suns, used_moons)
    tiers = np.zeros((n, SEG), dtype=np.int64)
    scores = np.zeros((n, SEG))
    _by_targets(
        order, me, t, hand_values, hand_colours, ints, floats, allowed, scalars, info,
        est, cnt, suns, moons, left, tiers, scores,
    )  # fmt: skip
    ranking = np.arange(n * SEG)  # a stable insertion sort: equal moves keep their order
    for i in range(1, n * SEG):
        j = ranking[i]
        k = i
        while k > 0 and _better(
            tiers[j // SEG, j % SEG], scores[j // SEG, j % SEG],
            tiers[ranking[k - 1] // SEG, ranking[k - 1] % SEG],
            scores[ranking[k - 1] // SEG, ranking[k - 1] % SEG],
        ):  # fmt: skip
            ranking[k] = ranking[k - 1]
            k -= 1
        ranking[k] = j
    first = 1 if random >= 0 else 0
    slipped = 0  # the random slip's move, as k * SEG + p
    if random >= 0:
        first_position = info[2 + t] if t < info[4] else -1
        k, p = _placeable_move(random, t, info[4], first_position)
        slipped = k * SEG + p
    moves = np.empty((n * SEG + first, 3), dtype=np.int64)
    for r in range(n * SEG + first):
        j = slipped if r < first else ranking[r - first]
        k, p = j // SEG, j % SEG
        moves[r, 0] = order[k]
        moves[r, 1] = p
        face_up = _face_up(face_up_left, hand_values[order[k]], p, pub, ints, floats, scalars)
        moves[r, 2] = 1 if face_up else 0
    return moves


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
