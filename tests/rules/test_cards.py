"""Cards and their notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import DECK, Card, Colour, parse_card
from rules.errors import RulesError


def test_the_deck_has_24_distinct_cards_of_two_colours_1_to_12() -> None:
    assert len(DECK) == 24 == len(set(DECK))
    assert {card.colour for card in DECK} == {Colour.SUN, Colour.MOON}
    assert {card.value for card in DECK} == set(range(1, 13))


def test_a_card_is_written_colour_letter_then_value() -> None:
    assert str(Card(Colour.SUN, 7)) == "S7"
    assert str(Card(Colour.MOON, 12)) == "M12"


@pytest.mark.parametrize("text", ["s7", "S7", " S7 ", "s07"[0:1] + "7"])
def test_parsing_ignores_case_and_spaces(text: str) -> None:
    assert parse_card(text) == Card(Colour.SUN, 7)


@pytest.mark.parametrize("text", ["S13", "S0", "X3", "M", "7", "", "S-1", "S07", "SS7", "S1.5"])
def test_it_refuses_cards_that_do_not_exist(text: str) -> None:
    with pytest.raises(RulesError, match="not a card") as error:
        parse_card(text)
    assert error.value.field == "card"


def test_a_card_cannot_be_built_with_a_bad_value() -> None:
    with pytest.raises(RulesError):
        Card(Colour.SUN, 13)
    with pytest.raises(RulesError):
        Card(Colour.MOON, True)


def test_cards_are_ordered_and_hashable() -> None:
    assert sorted([Card(Colour.SUN, 2), Card(Colour.SUN, 1)])[0].value == 1
    assert len({Card(Colour.SUN, 2), Card(Colour.SUN, 2)}) == 1


def test_a_card_prints_in_its_notation() -> None:
    assert [str(Card(Colour.SUN, 3)), str(Card(Colour.MOON, 5))] == ["S3", "M5"]


@given(st.sampled_from(DECK), st.booleans())
def test_every_card_round_trips_through_its_notation(card: Card, lower: bool) -> None:
    text = str(card).lower() if lower else str(card)
    assert parse_card(text) == card
