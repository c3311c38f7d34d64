"""Deals: 12 of the 24 cards, random or consistent with the colours."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import DECK, Card, Colour
from rules.deals import Deal, deal, deal_for_colours
from rules.errors import RulesError
from rules.seats import parse_colours


@pytest.mark.parametrize(("players", "hand", "extra"), [(2, 4, 2), (3, 4, 0), (4, 3, 0)])
def test_it_deals_12_distinct_cards_in_the_right_sizes(players: int, hand: int, extra: int) -> None:
    result = deal(players, random.Random(1))
    assert result.players == players
    assert all(len(cards) == hand for cards in result.hands)
    assert all(len(cards) == extra for cards in result.extras)
    assert len(set(result.cards)) == 12


def test_a_seeded_deal_is_repeatable() -> None:
    assert deal(3, random.Random(7)) == deal(3, random.Random(7))


def test_it_refuses_other_player_counts() -> None:
    with pytest.raises(RulesError):
        deal(5, random.Random(1))


def test_a_deal_knows_its_colours_and_owners() -> None:
    result = deal(2, random.Random(3))
    seats = result.seats
    assert [len(seat.hand) for seat in seats.seats] == [4, 4]
    assert result.owner(result.extras[1][0]) == 1
    out_of_play = next(card for card in DECK if card not in result.cards)
    assert result.owner(out_of_play) is None


def test_a_deal_cannot_hold_a_card_twice() -> None:
    sun = Card(Colour.SUN, 1)
    hands = ((sun, sun, Card(Colour.SUN, 2)),) + tuple(
        tuple(Card(Colour.MOON, v) for v in range(start, start + 3)) for start in (1, 4, 7)
    )
    with pytest.raises(RulesError, match="twice"):
        Deal(hands, ((),) * 4)


@given(st.sampled_from(["SSMM+SM/SMMM+SS", "SSSS/MMMM/SMSM", "SSS/MMM/SMS/MSM"]), st.integers())
def test_deals_for_colours_match_them_letter_by_letter(colours: str, seed: int) -> None:
    seats = parse_colours(colours)
    assert deal_for_colours(seats, random.Random(seed)).seats == seats


def test_deals_for_colours_are_uniform_over_values() -> None:
    # Each Sun value should land on the first Sun position about equally often.
    seats = parse_colours("SSS/MMM/SMS/MSM")
    rng = random.Random(0)
    counts = Counter(deal_for_colours(seats, rng).hands[0][0].value for _ in range(2400))
    assert set(counts) == set(range(1, 13))
    assert max(counts.values()) < 2 * min(counts.values())
