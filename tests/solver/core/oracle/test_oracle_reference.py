"""The compiled oracle against independent references.

* On reduced decks (7 cards) a numpy brute force tries every one of the 6^7 ways to put the
  cards on the six segments and applies the rules as docs/game.md states them.
* On full 12-card deals a plain Python search (subsets per segment, a memo, no clever bounds)
  decides the same question; it is slow, so it runs on a sample.
* Completeness through the rules engine: a layout built to pass (checked by rules.validate)
  must make the oracle find a passing game for its cards.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.deals import Deal, deal
from rules.errors import RulesError
from rules.layout import SEGMENTS, Layout, Move
from rules.validate import passes, validate
from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import compile_clock
from solver.core.oracle.oracle import Oracle

READING = 6

# ---------------------------------------------------------------------------- strategies


def _rule(draw: Any, kind: str) -> dict[str, Any]:
    segment = draw(st.integers(1, 6))
    if kind in ("card_count", "max_cards", "min_cards"):
        return {"kind": kind, "segment": segment, "count": draw(st.integers(1, 4))}
    if kind == "colours":
        sun, moon = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        return {"kind": kind, "segment": segment, "sun": sun, "moon": moon}
    if kind == "value_range":
        low = draw(st.integers(0, 24))
        return {"kind": kind, "segment": segment, "min": low, "max": low + draw(st.integers(0, 15))}
    if kind == "single_colour":
        colour = draw(st.sampled_from([None, "S", "M"]))
        rule = {"kind": kind, "segment": segment}
        return rule if colour is None else {**rule, "colour": colour}
    if kind == "forbidden_values":
        values = draw(st.sets(st.integers(1, 12), min_size=1, max_size=4))
        return {"kind": kind, "segment": segment, "values": sorted(values)}
    if kind == "equal_neighbours":
        return {"kind": kind, "segments": [segment, segment % 6 + 1]}
    if kind == "first_cards":
        return {"kind": kind, "segments": [segment, draw(st.integers(1, 6))]}
    return {"kind": kind}  # strictly_rising


KINDS = [
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
]


@st.composite
def clocks(draw: Any, kinds: list[str] = KINDS, max_rules: int = 3) -> Clock:
    rules = [draw(st.sampled_from(kinds).map(lambda kind: kind)) for _ in range(max_rules)]
    chosen = [_rule(draw, kind) for kind in rules[: draw(st.integers(0, max_rules))]]
    data = {
        "id": "2-1",
        "start": draw(st.integers(1, 6)),
        "cap": draw(st.sampled_from([None, 24, 18])),
        "rules": chosen,
    }
    try:
        return Clock.from_json(data)
    except RulesError:
        assume(False)
        raise


# ------------------------------------------------------ brute force on a reduced deck


@cache
def _assignments(n: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Every way to put n cards on segments 0..5, shape (6^n, n), and its indicator
    on[r, seg, i] = card i is on segment seg."""
    a = np.array(list(itertools.product(range(6), repeat=n)), dtype=np.int8)
    return a, np.stack([(a == seg) for seg in range(6)], axis=1)


def brute_force(clock: Clock, values: list[int], colours: list[int], hands: list[int]) -> bool:
    """Try every assignment of the cards to printed segments; rules applied as docs/game.md says."""
    data = clock.to_json()
    n = len(values)
    a, on = _assignments(n)  # a[r, i] = printed segment - 1 of card i
    vals = np.array(values)
    suns = 1 - np.array(colours)
    flat = on.reshape(-1, n).astype(np.int16)
    sums = (flat @ vals.astype(np.int16)).reshape(-1, 6)
    counts = flat.sum(axis=1).reshape(-1, 6)
    sun_counts = (flat @ suns.astype(np.int16)).reshape(-1, 6)
    order = [(data["start"] - 1 + k) % 6 for k in range(6)]
    read = sums[:, order]
    ok = (counts > 0).all(axis=1) & (np.diff(read, axis=1) >= 0).all(axis=1)
    if data["cap"] is not None:
        ok &= read[:, -1] <= data["cap"]
    # Several first_cards rules all speak of the same two opening moves.
    openings = {tuple(rule["segments"]) for rule in data["rules"] if rule["kind"] == "first_cards"}
    if len(openings) > 1:
        return False
    for rule in data["rules"]:
        kind = rule["kind"]
        seg = rule.get("segment", 1) - 1
        if kind == "card_count":
            ok &= counts[:, seg] == rule["count"]
        elif kind == "max_cards":
            ok &= counts[:, seg] <= rule["count"]
        elif kind == "min_cards":
            ok &= counts[:, seg] >= rule["count"]
        elif kind == "colours":
            ok &= (sun_counts[:, seg] == rule["sun"]) & (
                counts[:, seg] - sun_counts[:, seg] == rule["moon"]
            )
        elif kind == "value_range":
            ok &= (sums[:, seg] >= rule["min"]) & (sums[:, seg] <= rule["max"])
        elif kind == "single_colour":
            colour = rule.get("colour")
            all_sun = sun_counts[:, seg] == counts[:, seg]
            all_moon = sun_counts[:, seg] == 0
            ok &= all_sun if colour == "S" else all_moon if colour == "M" else all_sun | all_moon
        elif kind == "forbidden_values":
            bad = np.isin(vals, rule["values"])
            ok &= ~(on[:, seg, :] & bad).any(axis=1)
        elif kind == "equal_neighbours":
            x, y = (s - 1 for s in rule["segments"])
            ok &= sums[:, x] == sums[:, y]
        elif kind == "strictly_rising":
            ok &= (np.diff(read, axis=1) > 0).all(axis=1)
        elif kind == "first_cards":
            x, y = (s - 1 for s in rule["segments"])
            players = len(hands)
            opened = np.zeros(len(a), dtype=bool)
            for opener in range(players):
                mine = np.array([(hands[opener] >> i) & 1 for i in range(n)], dtype=bool)
                nxt = np.array([(hands[(opener + 1) % players] >> i) & 1 for i in range(n)])
                opened |= (on[:, x, :] & mine).any(axis=1) & (on[:, y, :] & nxt.astype(bool)).any(
                    axis=1
                )
            ok &= opened
    return bool(ok.any())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clock=clocks(), seed=st.integers(0, 10_000))
def test_the_oracle_agrees_with_brute_force_on_seven_cards(clock: Clock, seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(range(24), 7)
    values = [c % 12 + 1 for c in cards]
    colours = [c // 12 for c in cards]
    hands = [0b0000011, 0b0001100, 0b0110000]  # three seats; card 6 is nobody's first card
    compiled = compile_clock(clock)
    mstamp, mbits, scratch = kernel.new_memo()
    opener = kernel.decide(
        np.array(values, dtype=np.int64),
        np.array(colours, dtype=np.int64),
        7,
        np.array(hands, dtype=np.int64),
        compiled.positions,
        compiled.globals,
        mstamp,
        mbits,
        scratch,
    )
    assert (opener >= 0) == brute_force(clock, values, colours, hands)


# ------------------------------------------------- plain Python search on 12 cards


def reference_passable(clock: Clock, the_deal: Deal) -> bool:  # noqa: C901 - plain reference
    """A slow, simple exact search: subsets per segment in reading order, a memo on
    (position, cards left, last value); rules read straight from the clock's JSON."""
    data = clock.to_json()
    cards = the_deal.cards
    order = [(data["start"] - 1 + k) % 6 + 1 for k in range(6)]
    cap = data["cap"] if data["cap"] is not None else 10_000
    by_segment: dict[int, list[dict[str, Any]]] = {s: [] for s in SEGMENTS}
    strict = False
    for rule in data["rules"]:
        if rule["kind"] == "strictly_rising":
            strict = True
        elif "segment" in rule:
            by_segment[rule["segment"]].append(rule)
    assert not any(r["kind"] in ("first_cards", "equal_neighbours") for r in data["rules"])

    def fits(segment: int, group: tuple[Card, ...]) -> bool:
        total = sum(c.value for c in group)
        suns = sum(c.colour is Colour.SUN for c in group)
        for rule in by_segment[segment]:
            kind = rule["kind"]
            if kind == "card_count" and len(group) != rule["count"]:
                return False
            if kind == "max_cards" and len(group) > rule["count"]:
                return False
            if kind == "min_cards" and len(group) < rule["count"]:
                return False
            if kind == "colours" and (suns, len(group) - suns) != (rule["sun"], rule["moon"]):
                return False
            if kind == "value_range" and not rule["min"] <= total <= rule["max"]:
                return False
            if kind == "forbidden_values" and any(c.value in rule["values"] for c in group):
                return False
            if kind == "single_colour":
                colours = {c.colour.value for c in group}
                if len(colours) > 1 or ("colour" in rule and colours != {rule["colour"]}):
                    return False
        return True

    @cache
    def search(k: int, left: frozenset[Card], last: int) -> bool:
        if k == 5:
            group = tuple(left)
            total = sum(c.value for c in group)
            return (
                bool(group)
                and total >= last + strict * (k > 0)
                and total <= cap
                and fits(order[k], group)
            )
        if sum(c.value for c in left) < (6 - k) * last:
            return False
        for size in range(1, len(left) - (5 - k) + 1):
            for group in itertools.combinations(sorted(left), size):
                total = sum(c.value for c in group)
                if total > cap or total < last + (strict and k > 0):
                    continue
                if fits(order[k], group) and search(k + 1, left - set(group), total):
                    return True
        return False

    return search(0, frozenset(cards), 0)


SEGMENT_SIX_ONE_CARD = {
    "id": "2-1",
    "start": 1,
    "cap": 24,
    "rules": [{"kind": "card_count", "segment": 6, "count": 1}],
}


def _packs(items: list[int], bins: int, capacity: int) -> bool:
    """Can ``items`` go into ``bins`` bins of ``capacity``? (largest first, plain DFS)"""
    loads = [0] * bins
    items = sorted(items, reverse=True)

    def place(i: int) -> bool:
        if i == len(items):
            return True
        tried = set()
        for b in range(bins):
            if loads[b] + items[i] <= capacity and loads[b] not in tried:
                tried.add(loads[b])
                loads[b] += items[i]
                if place(i + 1):
                    return True
                loads[b] -= items[i]
        return False

    return place(0)


def one_card_on_segment_six(values: list[int]) -> bool:
    """Segment 6 (read last) holds one card c; the other five values must not exceed c. Any
    five groups can be read in rising order, so: do the other 11 cards pack into 5 bins of
    size c? (11 cards in at most 5 bins can always be spread so that none is empty.)"""
    return any(
        _packs(values[:i] + values[i + 1 :], 5, min(values[i], 24)) for i in range(len(values))
    )


def test_one_card_on_segment_six_agrees_with_bin_packing_on_a_sample() -> None:
    oracle = Oracle(Clock.from_json(SEGMENT_SIX_ONE_CARD))
    rng = random.Random(6)
    verdicts = []
    for _ in range(300):
        the_deal = deal(4, rng)
        verdict = oracle.passable(the_deal)
        assert verdict == one_card_on_segment_six([c.value for c in the_deal.cards]), the_deal
        verdicts.append(verdict)
    assert 0.08 < sum(verdicts) / len(verdicts) < 0.3  # both answers are exercised


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    clock=clocks(
        kinds=["card_count", "colours", "value_range", "single_colour", "forbidden_values"],
        max_rules=2,
    ),
    seed=st.integers(0, 10_000),
)
def test_the_oracle_agrees_with_the_reference_on_twelve_cards(clock: Clock, seed: int) -> None:
    the_deal = deal(3, random.Random(seed))
    assert Oracle(clock).passable(the_deal) == reference_passable(clock, the_deal)


# ------------------------------------------- completeness through the rules engine


@st.composite
def passing_games(draw: Any) -> tuple[Clock, Deal]:  # noqa: C901 - a strategy
    """A deal, a layout of its cards that rises from the start segment, and a clock whose
    special rules that layout keeps (checked by rules.validate)."""
    players = draw(st.sampled_from([2, 3, 4]))
    the_deal = deal(players, random.Random(draw(st.integers(0, 100_000))))
    cards = list(the_deal.cards)
    segment_of = [draw(st.integers(0, 5)) for _ in cards]
    for k in range(6):  # every segment gets a card
        segment_of[k] = k
    perm = draw(st.permutations(range(12)))
    groups: list[list[Card]] = [[] for _ in range(6)]
    for index in perm:
        groups[segment_of[index]].append(cards[index])
    groups.sort(key=lambda g: sum(c.value for c in g))
    start = draw(st.integers(1, 6))
    segments: list[tuple[Card, ...]] = [()] * 6
    for k, group in enumerate(groups):
        segments[(start - 1 + k) % 6] = tuple(group)
    layout = Layout(tuple(segments))
    rules: list[dict[str, Any]] = []
    for segment in draw(st.lists(st.integers(1, 6), max_size=4)):
        group = segments[segment - 1]
        total = sum(c.value for c in group)
        suns = sum(c.colour is Colour.SUN for c in group)
        kind = draw(st.sampled_from(KINDS))
        if kind == "card_count" or kind == "max_cards" or kind == "min_cards":
            rules.append({"kind": kind, "segment": segment, "count": len(group)})
        elif kind == "colours":
            rules.append({"kind": kind, "segment": segment, "sun": suns, "moon": len(group) - suns})
        elif kind == "value_range":
            rules.append({"kind": kind, "segment": segment, "min": total, "max": total + 1})
        elif kind == "single_colour" and suns in (0, len(group)):
            rules.append({"kind": kind, "segment": segment, "colour": "S" if suns else "M"})
        elif kind == "forbidden_values":
            unused = sorted(set(range(1, 13)) - {c.value for c in group})
            if unused:
                rules.append({"kind": kind, "segment": segment, "values": unused[:3]})
        elif kind == "equal_neighbours":
            other = segment % 6 + 1
            if sum(c.value for c in segments[other - 1]) == total:
                rules.append({"kind": kind, "segments": [segment, other]})
        elif kind == "strictly_rising":
            values = sorted(sum(c.value for c in g) for g in groups)
            if len(set(values)) == 6:
                rules.append({"kind": kind})
        elif kind == "first_cards" and not any(r["kind"] == kind for r in rules):
            # Any seat may open: its first card and the next seat's first card (from the
            # hand, the set of 4 with 2 players) name the two segments.
            opener = draw(st.integers(0, players - 1))
            first = draw(st.sampled_from(the_deal.hands[opener]))
            second = draw(st.sampled_from(the_deal.hands[(opener + 1) % players]))
            where = {card: s for s, group in enumerate(segments, start=1) for card in group}
            rules.append({"kind": kind, "segments": [where[first], where[second]]})
    clock = Clock.from_json({"id": "2-1", "start": start, "cap": None, "rules": rules})
    assert passes(clock, layout)
    return clock, the_deal


@settings(max_examples=80, deadline=None)
@given(game=passing_games())
def test_the_oracle_finds_a_game_whenever_one_exists(game: tuple[Clock, Deal]) -> None:
    clock, the_deal = game
    witness = Oracle(clock).solve(the_deal.seats, the_deal)
    assert witness is not None
    assert validate(clock, witness.layout).passed


def test_a_first_cards_rule_needs_the_right_seats() -> None:
    # The only passing games open with the Sun 1 on segment 1 and follow with the Sun 2 on
    # segment 2, so the seat after the holder of the Sun 1 must hold the Sun 2.
    clock = Clock.from_json(
        {
            "id": "2-1",
            "start": 1,
            "cap": None,
            "rules": [
                {"kind": "first_cards", "segments": [1, 2]},
                {"kind": "value_range", "segment": 1, "min": 1, "max": 1},
                {"kind": "value_range", "segment": 2, "min": 2, "max": 2},
            ],
        }
    )
    sun = [Card(Colour.SUN, v) for v in range(1, 13)]
    moon = [Card(Colour.MOON, v) for v in range(3, 13)]
    apart = Deal(
        ((sun[0], sun[2], sun[3]), (sun[1], sun[4], sun[5]), tuple(moon[:3]), tuple(moon[3:6])),
        ((), (), (), ()),
    )
    together = Deal(
        ((sun[0], sun[1], sun[3]), (sun[2], sun[4], sun[5]), tuple(moon[:3]), tuple(moon[3:6])),
        ((), (), (), ()),
    )
    witness = Oracle(clock).solve(apart.seats, apart)
    assert witness is not None
    assert witness.moves[:2] == (Move(sun[0], 1), Move(sun[1], 2))
    assert validate(clock, witness.layout).passed
    assert Oracle(clock).solve(together.seats, together) is None
