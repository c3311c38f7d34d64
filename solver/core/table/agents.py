"""Simulated players: what one player may know, and how a plan-following player decides.

The reference player in this module is deliberately plain Python and is the specification
for the compiled engine in ``agents_fast``: both must choose the same move in the same
situation (a test plays them game for game). Every float is combined in the same order in
both, so ties break identically.

Information discipline: a player decides from a :class:`View` only. The simulator builds a
fresh view each turn from public facts (the board's segments, colours, placers and face-up
values; the seats' colours; the plan; the face-up budget left) and the player's private
facts (the cards in hand, the faces of the cards they placed). The view holds no reference
to the deal, so the other players' hidden values are out of reach.

Slips: real tables do not play a plan perfectly. :func:`slip_of` turns three random numbers
into a :class:`Slip` (or none) and :func:`slipped_moves` is the player's ranking under it —
still a plain function of the View, so a slipping player can peek no more than a careful
one. With probability ``p`` a decision slips; half of the slips misread one face-down card
that another player placed by ±2 against the plan's belief convention, half play a uniformly
random placeable move. The random numbers come from their own seed, so ``p = 0`` plays
exactly the games a careful table plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.cards import Card, Colour
from rules.layout import Move

from . import exact
from .agents_fast import CARDS_IN_PLAY, LONE_MISS, MISREAD_SHARE, MOON, SLIP_MISREAD, SUN
from .plans import SEGMENTS
from .table_rules import TableRules, rules_for
from .view import View


def colour_index(colour: Colour) -> int:
    return SUN if colour == Colour.SUN else MOON


def hand_order(card: Card) -> tuple[int, int]:
    """The order in which a player considers their cards; the compiled engine uses it too."""
    return colour_index(card.colour), card.value


# --- The plan-following player ------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    move: Move
    tier: int  # 0 follows the plan; 1 breaks ownership/feasibility; 2 overfills; 3 illegal
    score: float


def rank_moves(view: View) -> list[Move]:
    """Every move this player could make, best first (the simulator takes the first move
    the referee accepts)."""
    convention = exact.followed(view.clock, view.plan)
    if convention is not None:  # Plan.exact: the convention's move, then every other one
        return exact.ranked(view, convention)
    return [c.move for c in rank_candidates(view)]


def rank_candidates(view: View) -> list[Candidate]:
    candidates = _candidates(view, None)
    candidates.sort(key=lambda c: (c.tier, -c.score))
    return candidates


def _candidates(view: View, misread: tuple[int, float] | None) -> list[Candidate]:
    """Every (card, segment) of this player, cards in :func:`hand_order` and segments in
    reading order, unsorted. ``misread`` (board index, error) shifts this player's estimate
    of that card's segment by the error: a face-down card read wrongly."""
    r = rules_for(view.clock, view.seats, view.plan)
    me = view.seat
    pub = [0.0] * SEGMENTS  # the public believed total per position
    adj = [0.0] * SEGMENTS  # my correction: true value minus belief, over my hidden cards
    cnt = [0] * SEGMENTS
    suns = [0] * SEGMENTS
    moons = [0] * SEGMENTS
    used_suns = [0] * r.players
    used_moons = [0] * r.players
    for placed, own in zip(view.board, view.own_cards, strict=True):
        p = r.position(placed.segment)
        if placed.face_up:
            assert placed.value is not None
            val = float(placed.value)
        else:
            val = r.belief(p, pub[p])
            if own is not None:
                adj[p] = adj[p] + (own.value - val)
        pub[p] = pub[p] + val
        cnt[p] += 1
        if colour_index(placed.colour) == SUN:
            suns[p] += 1
            used_suns[placed.seat] += 1
        else:
            moons[p] += 1
            used_moons[placed.seat] += 1
    est = [pub[p] + adj[p] for p in range(SEGMENTS)]
    if misread is not None:
        p = r.position(view.board[misread[0]].segment)
        est[p] = est[p] + misread[1]
    t = len(view.board)
    remaining_after = CARDS_IN_PLAY - t - 1
    suns_left = sum(r.seat_suns) - sum(used_suns)
    moons_left = sum(r.seat_moons) - sum(used_moons)
    my_cards_after = r.seat_suns[me] + r.seat_moons[me] - used_suns[me] - used_moons[me] - 1
    my_suns = r.seat_suns[me] - used_suns[me]
    my_moons = r.seat_moons[me] - used_moons[me]

    candidates: list[Candidate] = []
    for card in sorted(view.hand, key=hand_order):
        v = card.value
        is_sun = colour_index(card.colour) == SUN
        for p in range(SEGMENTS):
            # Tiers, strongest first: placement rules the referee enforces, then the clock's
            # resolution limits, then the plan's promises (ownership, keeping every
            # requirement reachable).
            tier = 0
            if t < len(r.first) and r.first[t] != p:
                tier = 3
            elif (
                cnt[p] >= r.max_count[p]
                or (is_sun and suns[p] >= r.max_sun[p])
                or (not is_sun and moons[p] >= r.max_moon[p])
                or (r.forbidden[p] >> v) & 1
                or (r.one_colour[p] and (moons[p] if is_sun else suns[p]) > 0)
            ):
                # The clock would fail: too many cards or of a colour, a forbidden value,
                # or a second colour where one is required.
                tier = 2
            elif not r.allowed[p][me] or not _still_reachable(
                r, p, is_sun, cnt, suns, moons, remaining_after,
                suns_left - is_sun, moons_left - (not is_sun),
                me, my_cards_after, my_suns - is_sun, my_moons - (not is_sun),
            ):  # fmt: skip
                tier = 1
            e_old = est[p]
            e_new = e_old + v
            target = r.targets[p]
            gain = abs(target - e_old) - abs(target - e_new)
            if cnt[p] == 0:
                gain = gain + r.open_bonus
            band = r.band_weight * (max(0.0, r.band_lo[p] - v) + max(0.0, v - r.band_hi[p]))
            pen = _order_penalty(r, p, e_new, cnt, est)
            score = gain - r.order_weight * pen - band
            if _misses_lone(r, p, v, e_new, cnt, est):
                score = score - LONE_MISS
            # The card on a lone segment goes face up while the budget lasts: it caps the
            # segments before it, and everyone should know by how much.
            face_up = view.face_up_left > 0 and (
                abs(v - r.belief(p, pub[p])) >= r.face_up_threshold
                or r.lone_floor[p] > 0.0
                or r.equal_next[p] == 1
                or r.equal_next[(p - 1) % SEGMENTS] == 1
            )
            move = Move(card, r.order[p], face_up)
            candidates.append(Candidate(move, tier, score))
    return candidates


def _order_penalty(r: TableRules, p: int, e_new: float, cnt: list[int], est: list[float]) -> float:
    """How far the believed totals break the rising order, the cap or a value range once
    position ``p`` holds ``e_new`` (segments without a card are skipped, except that an
    empty lone segment counts as holding its floor: it caps the segments read before it)."""
    pen = 0.0
    prev = 0.0
    has_prev = False
    for q in range(SEGMENTS):
        if q == p:
            x = e_new
        elif cnt[q] > 0:
            x = est[q]
        elif r.lone_floor[q] > 0.0:
            x = r.lone_floor[q]
        else:
            continue
        if has_prev:
            pen = pen + max(0.0, prev - x)
        pen = pen + max(0.0, x - r.cap)
        pen = pen + max(0.0, x - r.vmax[q])
        prev = x
        has_prev = True
    # Equal neighbours (both with cards): as far apart as their believed totals are.
    for q in range(SEGMENTS):
        n = (q + 1) % SEGMENTS
        if r.equal_next[q] and (q == p or cnt[q] > 0) and (n == p or cnt[n] > 0):
            a = e_new if q == p else est[q]
            b = e_new if n == p else est[n]
            pen = pen + abs(a - b)
    return pen


def _misses_lone(
    r: TableRules, p: int, v: int, e_new: float, cnt: list[int], est: list[float]
) -> bool:
    """Whether placing ``v`` at position ``p`` (believed total ``e_new`` after it) breaks the
    lone-segment convention (``plans.Plan.lone``): a card below the floor on a lone segment,
    or a segment read before a lone one above its cap (the floor while it is empty, then
    what its card is believed to be, never less than the floor) or above the next segment
    when that one has cards and is not the lone one."""
    if v < r.lone_floor[p]:
        return True
    for q in range(p + 1, SEGMENTS):
        if r.lone_floor[q] > 0.0:
            cap = r.lone_floor[q] if cnt[q] == 0 else max(r.lone_floor[q], est[q])
            if e_new > cap:
                return True
            if cnt[p + 1] > 0 and r.lone_floor[p + 1] == 0.0 and e_new > est[p + 1]:
                return True
    return False


def _still_reachable(
    r: TableRules,
    p: int,
    is_sun: bool,
    cnt: list[int],
    suns: list[int],
    moons: list[int],
    remaining_after: int,
    suns_left_after: int,
    moons_left_after: int,
    me: int,
    my_cards_after: int,
    my_suns_after: int,
    my_moons_after: int,
) -> bool:
    """After this move, can the cards still in play (counted by colour, which everyone
    knows) still give every segment its required number and colours of cards — overall,
    and for the segments this player alone covers?"""
    need = need_s = need_m = 0
    mine = mine_s = mine_m = 0
    for q in range(SEGMENTS):
        c = cnt[q] + (1 if q == p else 0)
        s = suns[q] + (1 if q == p and is_sun else 0)
        m = moons[q] + (1 if q == p and not is_sun else 0)
        dc = max(0, r.min_count[q] - c)
        ds = max(0, r.min_sun[q] - s)
        dm = max(0, r.min_moon[q] - m)
        need += dc
        need_s += ds
        need_m += dm
        if r.sole_owner[q] == me:
            mine += dc
            mine_s += ds
            mine_m += dm
    return (
        need <= remaining_after
        and need_s <= suns_left_after
        and need_m <= moons_left_after
        and mine <= my_cards_after
        and mine_s <= my_suns_after
        and mine_m <= my_moons_after
    )


# --- Slips ---------------------------------------------------------------------------------

# How far off a misread card is (SLIP_MISREAD) and the share of slips that misread a card
# (MISREAD_SHARE; the others play a random move) are in ``agents_fast``, which reads them.
MOST_SLIP_RATE = 0.5  # the highest slip rate the commands and the API accept


@dataclass(frozen=True)
class Slip:
    """One decision that departs from the plan.

    ``kind`` "misread": this player reads the ``index``-th face-down card that another
    player placed (in play order) as ``error`` away from what the plan's belief convention
    says. ``kind`` "random": this player plays the ``index``-th placeable move (cards in
    :func:`hand_order`, then segments in reading order) whatever the plan says.
    """

    kind: Literal["misread", "random"]
    index: int
    error: float = 0.0


def slip_of(view: View, rate: float, u: tuple[float, float, float]) -> Slip | None:
    """The slip of this decision, or None: a plain function of the View and three uniform
    random numbers in [0, 1), so it sees only what the player may know.

    ``u[0] < rate`` slips; then ``u[1] < MISREAD_SHARE`` misreads (``u[2]`` picks the card and the
    sign among the face-down cards others placed; with none on the board, nothing slips),
    else a random move (``u[2]`` picks it among the placeable ones). The compiled engine
    (``agents_fast``) draws the same slips from the same numbers.
    """
    if not u[0] < rate:
        return None
    if u[1] < MISREAD_SHARE:
        hidden = [
            i
            for i, placed in enumerate(view.board)
            if not placed.face_up and placed.seat != view.seat
        ]
        if not hidden:
            return None
        pick = int(u[2] * 2 * len(hidden))
        return Slip("misread", hidden[pick // 2], SLIP_MISREAD if pick % 2 == 0 else -SLIP_MISREAD)
    placeable = sum(1 for c in _candidates(view, None) if c.tier < 3)
    return Slip("random", int(u[2] * placeable))


def slipped_moves(view: View, slip: Slip | None) -> list[Move]:
    """The player's moves, best first, when this decision slips as ``slip`` says (None: the
    plan's own ranking, :func:`rank_moves`). A random move comes first, then the plan's."""
    if slip is None:
        return rank_moves(view)
    if slip.kind == "misread":
        if exact.followed(view.clock, view.plan) is not None:
            return rank_moves(view)  # the convention reads no hidden value: nothing to misread
        ranked = _candidates(view, (slip.index, slip.error))
        ranked.sort(key=lambda c: (c.tier, -c.score))
        return [c.move for c in ranked]
    candidates = _candidates(view, None)
    placeable = [c.move for c in candidates if c.tier < 3]
    candidates.sort(key=lambda c: (c.tier, -c.score))
    return [placeable[slip.index], *(c.move for c in candidates)]
