"""Odds over every value set consistent with the table's colours."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from rules.cards import Card, Colour
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.deals import deal_for_colours
from rules.layout import Layout
from rules.seats import parse_colours
from rules.validate import passes
from solver.core.oracle import compiled_kernel as kernel
from solver.core.oracle.compiled import compile_clock
from solver.core.oracle.odds import (
    _multiset_weights,
    _multisets,
    _value_sets,
    colour_position,
    forget_exact_odds,
    odds,
    value_set_hits,
    wilson_interval,
)
from solver.core.oracle.oracle import Oracle

SIX_SIX = parse_colours("SSMM/SMSM/MMSS")
SEVEN_FIVE = parse_colours("SSSM/SSMM/SMMS")


def _clock(*rules: dict[str, Any], cap: int | None = 24) -> dict[str, Any]:
    return {"id": "2-1", "start": 1, "cap": cap, "rules": list(rules)}


SEGMENT_SIX_ONE_CARD = _clock({"kind": "card_count", "segment": 6, "count": 1})


def test_a_clock_no_deal_can_pass_has_odds_zero() -> None:
    # Five segments of at least 1 each, then 4 cards worth at most 2 in total: impossible.
    clock = _clock({"kind": "value_range", "segment": 6, "min": 0, "max": 2})
    result = odds(clock, SIX_SIX)
    assert (result.odds, result.exact, result.deals) == (0.0, True, 853_776)


def test_exact_odds_weigh_every_value_set_of_the_split() -> None:
    result = odds(SEGMENT_SIX_ONE_CARD, SEVEN_FIVE)
    assert result.exact
    assert result.deals == math.comb(12, 7) * math.comb(12, 5) == 627_264
    assert result.interval == (result.odds, result.odds)


def test_multisets_weigh_exactly_the_value_sets_that_share_them() -> None:
    for suns in (3, 6, 8):
        sun, moon, weights = _multisets(suns)
        assert weights.sum() == math.comb(12, suns) * math.comb(12, 12 - suns)
        values = np.array([(s << 13) | m for s, m in zip(sun, moon, strict=True)])
        assert len(np.unique(values)) == len(values)
    assert len(_multisets(6)[0]) == 73_789


def test_grouping_by_multiset_gives_the_same_odds_as_every_value_set() -> None:
    # The clock reads no colours, so both ways must agree to the last value set.
    compiled = compile_clock(SEGMENT_SIX_ONE_CARD)
    for colours in ("SSMM/MMMM/MMMM", "SSSS/SSSS/SSMM"):
        seats = parse_colours(colours)
        sun, moon = _value_sets(seats.suns)
        out = np.zeros(len(sun), dtype=np.uint8)
        kernel.decide_value_sets(sun, moon, compiled.positions, compiled.globals, out, 8)
        assert 0 < out.mean() < 1
        assert odds(compiled, seats).odds == pytest.approx(out.mean(), abs=1e-12)


# An independent model of SEGMENT_SIX_ONE_CARD in plain Python, for the exact odds below.
# Values rise from segment 1, so segment 6 is the largest: its one card must be a card of the
# highest value v (any other segment holding a higher card would be worth more). The other
# 11 cards then pass exactly when they fit in 5 bins of capacity v (the cap of 24 never
# binds: v <= 12), because the bins can be laid out in rising order and, with 11 cards, a
# packing into fewer bins splits into 5 non-empty ones.


def _pack(values: Sequence[int], bins: int, capacity: int) -> list[list[int]] | None:
    """A packing of ``values`` (largest first) into ``bins`` bins of ``capacity``, or None;
    a plain depth-first search over which bin each value goes to."""
    loads: list[list[int]] = [[] for _ in range(bins)]

    def place(index: int) -> bool:
        if index == len(values):
            return True
        tried: set[int] = set()
        for load in loads:
            total = sum(load)
            if total in tried or total + values[index] > capacity:
                continue  # a bin with the same total was tried already
            tried.add(total)
            load.append(values[index])
            if place(index + 1):
                return True
            load.pop()
        return False

    return loads if sum(values) <= bins * capacity and place(0) else None


def _plain_layout(cards: Sequence[Card]) -> Layout | None:
    """A passing layout of SEGMENT_SIX_ONE_CARD for these 12 cards, or None if none exists."""
    ordered = sorted(cards, key=lambda card: -card.value)
    packed = _pack([card.value for card in ordered[1:]], 5, ordered[0].value)
    if packed is None:
        return None
    while any(not load for load in packed):  # split a bin of 2 or more into the empty one
        empty = next(load for load in packed if not load)
        empty.append(next(load for load in packed if len(load) > 1).pop())
    remaining = list(ordered[1:])
    segments = []
    for load in sorted(packed, key=sum):
        segment = []
        for value in load:
            card = next(card for card in remaining if card.value == value)
            remaining.remove(card)
            segment.append(card)
        segments.append(tuple(segment))
    return Layout((*segments, (ordered[0],)))


@cache
def _plain_passable(values: tuple[int, ...]) -> bool:
    """The same decision from the values alone (largest first): all this clock reads."""
    return _pack(values[1:], 5, values[0]) is not None


@pytest.mark.parametrize("suns", [1, 2, 3])
def test_exact_odds_agree_with_enumerating_every_value_set_in_plain_python(suns: int) -> None:
    # Every choice of Sun values and Moon values, one by one: no grouping, no kernel.
    seats = parse_colours("S" * suns + "M" * (4 - suns) + "/MMMM/MMMM")
    hits = total = 0
    for sun_values in combinations(range(1, 13), suns):
        for moon_values in combinations(range(1, 13), 12 - suns):
            total += 1
            hits += _plain_passable(tuple(sorted(sun_values + moon_values, reverse=True)))
    result = odds(SEGMENT_SIX_ONE_CARD, seats)
    assert result.exact and result.deals == total
    assert result.odds == hits / total
    assert 0 < hits < total


def test_the_plain_model_finds_layouts_the_rules_engine_passes() -> None:
    # Each value set the model calls passable comes with a layout that the rules engine
    # passes (here every value set of a 2-Sun table holding the Sun 1 and the Sun 2).
    clock = Clock.from_json(SEGMENT_SIX_ONE_CARD)
    found = 0
    for moon_values in combinations(range(1, 13), 10):
        cards = [Card(Colour.SUN, 1), Card(Colour.SUN, 2)]
        cards += [Card(Colour.MOON, value) for value in moon_values]
        layout = _plain_layout(cards)
        assert (layout is not None) is _plain_passable(
            tuple(sorted((card.value for card in cards), reverse=True))
        )
        if layout is not None:
            found += 1
            assert passes(clock, layout), layout.segments
    assert found > 0


def test_one_card_on_segment_six_passes_about_one_deal_in_six() -> None:
    # Random deals pass about 16% of the time; the exact value for 6/6 is pinned here:
    # 138,518 of the 853,776 value sets, counted with the plain model above over every
    # multiset of values (a value held in both colours d times over leaves C(12-2d, 6-d)
    # ways to colour the rest).
    assert odds(SEGMENT_SIX_ONE_CARD, SIX_SIX).odds == pytest.approx(0.16224161841044957)
    hits = total = 0
    for counts in _value_counts(12, 12):
        values = tuple(value for value in range(12, 0, -1) for _ in range(counts[12 - value]))
        doubles = counts.count(2)
        weight = math.comb(12 - 2 * doubles, 6 - doubles)
        total += weight
        hits += weight * _plain_passable(values)
    assert (hits, total) == (138_518, 853_776)
    assert odds(SEGMENT_SIX_ONE_CARD, SIX_SIX).odds == hits / total


def _value_counts(values: int, cards: int) -> Iterator[tuple[int, ...]]:
    """How many of each value (12 down to 1) are in play: 0, 1 or 2, ``cards`` in all."""
    if values == 0:
        if cards == 0:
            yield ()
        return
    for count in (0, 1, 2):
        if count <= cards:
            for rest in _value_counts(values - 1, cards - count):
                yield (count, *rest)


def test_sampled_odds_cover_the_exact_odds() -> None:
    exact = odds(SEGMENT_SIX_ONE_CARD, SIX_SIX).odds
    sampled = odds(SEGMENT_SIX_ONE_CARD, SIX_SIX, samples=20_000, seed=1)
    assert not sampled.exact and sampled.deals == 20_000
    assert sampled.interval[0] <= exact <= sampled.interval[1]
    assert sampled.interval[1] - sampled.interval[0] < 0.011
    assert sampled == odds(SEGMENT_SIX_ONE_CARD, SIX_SIX, samples=20_000, seed=1)


def test_colour_rules_are_decided_per_value_set() -> None:
    # Segment 1 must hold exactly 3 Suns and nothing else: possible with 3 Suns at the table
    # only when they are small enough for the rest to rise above them.
    three_suns = parse_colours("SSSM/MMMM/MMMM")
    clock = _clock({"kind": "colours", "segment": 1, "sun": 3, "moon": 0})
    result = odds(clock, three_suns)
    assert result.exact and result.deals == math.comb(12, 3) * math.comb(12, 9)
    assert 0.0 < result.odds < 1.0
    # Two Suns cannot make three.
    assert odds(clock, parse_colours("SSMM/MMMM/MMMM")).odds == 0.0


def test_catalogue_clock_one_one_passes_every_deal_with_every_card_visible() -> None:
    result = odds(get_clock("1-1"), SIX_SIX)
    assert (result.odds, result.exact) == (1.0, True)


def test_a_seat_rule_gives_sampled_odds() -> None:
    clock = _clock({"kind": "first_cards", "segments": [6, 1]})
    result = odds(clock, SIX_SIX, samples=500)
    assert not result.exact and result.deals == 500


@pytest.mark.parametrize("colours", ["SSMM+SM/SMMM+SS", "SSM/MMS/SMS/MSM"])
def test_sampled_seat_rule_odds_agree_with_dealing_through_the_rules_engine(
    colours: str,
) -> None:
    # Segment 1 takes two cards from neighbouring seats (the first two placed), worth 2–6:
    # whether that works depends on who holds the small cards. The vectorised sampler must
    # deal hands (the sets of 4 with 2 players) exactly as rules.deals does.
    clock = _clock(
        {"kind": "first_cards", "segments": [1, 1]},
        {"kind": "card_count", "segment": 1, "count": 2},
        {"kind": "value_range", "segment": 1, "min": 2, "max": 6},
    )
    seats = parse_colours(colours)
    sampled = odds(clock, seats, samples=20_000, seed=2)
    oracle = Oracle(clock)
    rng = random.Random(5)
    dealt = sum(oracle.passable(deal_for_colours(seats, rng)) for _ in range(3000)) / 3000
    spread = math.sqrt(sampled.odds * (1 - sampled.odds) * (1 / 20_000 + 1 / 3000))
    assert 0.5 < sampled.odds < 0.97
    assert abs(sampled.odds - dealt) < 4 * spread


def test_progress_is_reported_up_to_one_hundred() -> None:
    seen: list[int] = []
    clock = _clock({"kind": "card_count", "segment": 5, "count": 2})
    odds(clock, SIX_SIX, progress=lambda percent, stage: seen.append(percent))
    assert seen == sorted(seen) and seen[-1] == 100 and len(seen) >= 10


def test_exact_odds_are_remembered_for_the_same_clock_and_split() -> None:
    clock = _clock({"kind": "card_count", "segment": 4, "count": 2})
    first = odds(clock, SIX_SIX)
    seen: list[int] = []
    again = odds(clock, parse_colours("SMMS/MSSM/SMSM"), progress=lambda p, s: seen.append(p))
    assert again == first and seen == [100]
    assert odds(clock, SEVEN_FIVE).deals == 627_264  # another split is computed afresh


def test_untranscribed_clocks_and_unknown_kinds_are_refused() -> None:
    with pytest.raises(ValueError, match="not transcribed"):
        odds(get_clock("2-1"), SIX_SIX)
    with pytest.raises(ValueError, match="'nearest_value'"):
        odds(_clock({"kind": "nearest_value", "segment": 2}), SIX_SIX)
    with pytest.raises(ValueError, match="at least 1"):
        odds(SEGMENT_SIX_ONE_CARD, SIX_SIX, samples=0)


def test_wilson_interval_is_the_textbook_one() -> None:
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson_interval(0, 10)[0] == 0.0


def test_reusing_a_layout_across_recoloured_value_sets_changes_no_answer() -> None:
    # decide_value_sets tries the last passing layout on value sets with the same values;
    # deciding each value set from scratch must give the same answers.
    clock = _clock(
        {"kind": "colours", "segment": 2, "sun": 1, "moon": 1},
        {"kind": "single_colour", "segment": 5, "colour": "S"},
    )
    compiled = compile_clock(clock)
    sun, moon = _value_sets(3)
    shared = np.zeros(len(sun), dtype=np.uint8)
    kernel.decide_value_sets(sun, moon, compiled.positions, compiled.globals, shared, 4)
    # The 24 cards in the kernel's order (value, then Sun before Moon); keep each row's 12.
    slot_value = np.repeat(np.arange(1, 13), 2)
    slot_colour = np.tile([0, 1], 12)
    masks = np.where(slot_colour == 0, sun[:, None], moon[:, None])
    present = (masks >> slot_value) & 1 == 1
    slots = np.argsort(~present, axis=1, kind="stable")[:, :12]
    values, colours = slot_value[slots], slot_colour[slots]
    alone = np.zeros(len(sun), dtype=np.uint8)
    hands = np.zeros((len(sun), 1), dtype=np.int64)
    kernel.decide_many_serial(
        values, colours, 12, hands, compiled.positions, compiled.globals, alone
    )
    assert 0 < alone.mean() < 1
    assert np.array_equal(shared, alone)


@pytest.mark.parametrize(
    "rules",
    [
        [],
        [{"kind": "value_range", "segment": 3, "min": 5, "max": 9}],
        [{"kind": "strictly_rising"}],
        [{"kind": "equal_neighbours", "segments": [2, 3]}],
        [{"kind": "forbidden_values", "segment": 1, "values": [1, 2]}],
        [
            {"kind": "max_cards", "segment": 6, "count": 2},
            {"kind": "min_cards", "segment": 1, "count": 3},
        ],
        [{"kind": "colours", "segment": 2, "sun": 1, "moon": 1}],
    ],
)
def test_trying_the_last_layout_on_other_values_changes_no_answer(rules: list[Any]) -> None:
    # decide_value_sets first tries the previous passing layout (by rank) on value sets with
    # other values; deciding each from scratch must give the same answers.
    compiled = compile_clock(_clock(*rules))
    sun, moon, _ = _multisets(6)
    sun, moon = sun[::7], moon[::7]
    shared = np.zeros(len(sun), dtype=np.uint8)
    kernel.decide_value_sets(sun, moon, compiled.positions, compiled.globals, shared, 4)
    alone = np.zeros(len(sun), dtype=np.uint8)
    values, colours = _kernel_rows(sun, moon)
    hands = np.zeros((len(sun), 1), dtype=np.int64)
    kernel.decide_many_serial(
        values, colours, 12, hands, compiled.positions, compiled.globals, alone
    )
    assert np.array_equal(shared, alone)
    assert alone.any()


def _kernel_rows(
    sun: np.ndarray[Any, Any], moon: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Each value set's 12 cards as kernel arrays (value order, Sun before Moon)."""
    slot_value = np.repeat(np.arange(1, 13), 2)
    slot_colour = np.tile([0, 1], 12)
    masks = np.where(slot_colour == 0, sun[:, None], moon[:, None])
    present = (masks >> slot_value) & 1 == 1
    slots = np.argsort(~present, axis=1, kind="stable")[:, :12]
    return slot_value[slots], slot_colour[slots]


def test_multiset_weights_count_every_value_set_of_each_split() -> None:
    for suns in range(13):
        weights = _multiset_weights(suns)
        assert weights.sum() == math.comb(12, suns) * math.comb(12, 12 - suns)
    assert (_multiset_weights(6) > 0).all()
    assert (_multiset_weights(7) == 0).sum() == math.comb(12, 6)  # six doubled values


def test_a_clock_seen_at_another_split_gives_the_same_exact_odds() -> None:
    # Decisions per multiset are shared by every split of one clock: 6/6 after 7/5 decides
    # only what 7/5 did not, and must agree with 6/6 decided from nothing (and the count
    # pinned above).
    forget_exact_odds()
    fresh = odds(SEGMENT_SIX_ONE_CARD, SIX_SIX)
    forget_exact_odds()
    odds(SEGMENT_SIX_ONE_CARD, SEVEN_FIVE)
    after = odds(SEGMENT_SIX_ONE_CARD, SIX_SIX)
    assert after == fresh
    assert after.odds == 138_518 / 853_776
    # And a split with one Moon, from the decisions already made, against the plain model.
    hits = sum(
        _plain_passable(tuple(sorted((*suns, moon), reverse=True)))
        for suns in combinations(range(1, 13), 11)
        for moon in range(1, 13)
    )
    one_moon = odds(SEGMENT_SIX_ONE_CARD, parse_colours("SSSS/SSSS/SSSM"))
    assert (one_moon.odds, one_moon.deals) == (hits / 144, 144)


# Clocks whose colour rules sit on one segment: odds() decides them per multiset of values
# (compiled_kernel.colour_multisets); value_set_hits decides every value set on its own and
# is the reference.
ONE_COLOUR_SEGMENT = [
    _clock({"kind": "colours", "segment": 6, "sun": 1, "moon": 0}),
    _clock({"kind": "colours", "segment": 1, "sun": 1, "moon": 0}),
    _clock({"kind": "single_colour", "segment": 4}),
    _clock(
        {"kind": "colours", "segment": 2, "sun": 0, "moon": 2},
        {"kind": "value_range", "segment": 5, "min": 10, "max": 16},
    ),
    _clock({"kind": "colours", "segment": 3, "sun": 1, "moon": 1}),
    _clock({"kind": "single_colour", "segment": 5, "colour": "M"}, cap=None),
    {
        "id": "2-1",
        "start": 4,
        "cap": 18,
        "rules": [
            {"kind": "colours", "segment": 5, "sun": 2, "moon": 1},
            {"kind": "strictly_rising"},
        ],
    },
]


@pytest.mark.parametrize("clock", ONE_COLOUR_SEGMENT)
def test_colour_rules_on_one_segment_give_exactly_the_per_value_set_count(
    clock: dict[str, Any],
) -> None:
    compiled = compile_clock(clock)
    position = colour_position(compiled)
    assert position is not None
    forget_exact_odds()
    # Splits one after another, so that later ones start from what earlier ones learnt,
    # then the first split again from nothing.
    for suns in (3, 9, 2):
        expected = value_set_hits(compiled, suns)
        result = odds(compiled, parse_colours(_split(suns)))
        assert result.odds * result.deals == pytest.approx(expected, abs=1e-6)
        assert result.deals == math.comb(12, suns) ** 2
    forget_exact_odds()
    assert odds(compiled, parse_colours(_split(3))).odds * 48_400 == pytest.approx(
        value_set_hits(compiled, 3), abs=1e-6
    )


def test_colour_rules_on_one_segment_at_six_suns_after_seven() -> None:
    # The benchmark's order: 7 Suns / 5 Moons first, then 6/6 from what 7/5 taught.
    clock = compile_clock(ONE_COLOUR_SEGMENT[2])
    forget_exact_odds()
    for colours in (SEVEN_FIVE, SIX_SIX):
        hits = value_set_hits(clock, colours.suns)
        assert odds(clock, colours).odds == hits / (
            math.comb(12, colours.suns) * math.comb(12, colours.moons)
        )


def test_colour_rules_on_two_segments_are_decided_per_value_set() -> None:
    clock = _clock(
        {"kind": "colours", "segment": 1, "sun": 1, "moon": 0},
        {"kind": "single_colour", "segment": 6},
    )
    compiled = compile_clock(clock)
    assert colour_position(compiled) is None
    assert colour_position(compile_clock(SEGMENT_SIX_ONE_CARD)) is None
    result = odds(compiled, parse_colours(_split(3)))
    assert result.exact and result.odds == value_set_hits(compiled, 3) / 48_400


def _split(suns: int) -> str:
    """A 3-player table with ``suns`` Suns."""
    letters = "S" * suns + "M" * (12 - suns)
    return "/".join(letters[i : i + 4] for i in range(0, 12, 4))


def _random_colour_clock(rng: random.Random) -> dict[str, Any]:
    """A clock with one or two colour rules on one segment and one or two other rules."""
    segment = rng.randint(1, 6)
    sun, moon = rng.choice([(1, 0), (0, 1), (1, 1), (2, 0), (0, 2), (2, 1)])
    colour_rules: list[dict[str, Any]] = [
        {"kind": "colours", "segment": segment, "sun": sun, "moon": moon},
        {"kind": "single_colour", "segment": segment},
        {"kind": "single_colour", "segment": segment, "colour": rng.choice("SM")},
    ]
    rules = rng.sample(colour_rules, rng.randint(1, 2))
    others: list[dict[str, Any]] = [
        {"kind": "card_count", "segment": 6, "count": 1},
        {"kind": "card_count", "segment": rng.randint(1, 6), "count": 2},
        {"kind": "value_range", "segment": rng.randint(2, 5), "min": 6, "max": 12},
        {"kind": "forbidden_values", "segment": rng.randint(1, 6), "values": [1, 12]},
        {"kind": "strictly_rising"},
    ]
    rules += rng.sample(others, rng.randint(1, 2))
    return {"id": "2-1", "start": 1, "cap": rng.choice([None, 24]), "rules": rules}


@pytest.mark.parametrize("seed", range(12))
def test_random_one_segment_colour_clocks_agree_with_every_value_set(seed: int) -> None:
    compiled = compile_clock(_random_colour_clock(random.Random(seed)))
    assert colour_position(compiled) is not None
    forget_exact_odds()
    for suns in (3, 9, 2):
        result = odds(compiled, parse_colours(_split(suns)))
        assert round(result.odds * result.deals) == value_set_hits(compiled, suns)
