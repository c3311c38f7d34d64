"""The placement-phase referee."""

from __future__ import annotations

import random

import pytest

from rules.cards import parse_card
from rules.clock import Clock
from rules.deals import Deal, deal_for_colours
from rules.errors import RulesError
from rules.layout import Move
from rules.referee import check_move
from rules.seats import parse_colours

PLAIN = Clock("4-1", 4, 1)
THREE = parse_colours("SSMM/MMSS/SMSM")
TWO = parse_colours("SSSS+MM/MMMM+SS")


def move(text: str, segment: int = 1, face_up: bool = False) -> Move:
    return Move(parse_card(text), segment, face_up)


def test_any_seat_may_open() -> None:
    for seat in range(3):
        assert check_move(PLAIN, THREE, [], move("S1"), seat) is None


def test_a_named_opener_must_open() -> None:
    assert check_move(PLAIN, THREE, [], move("S1"), 1, opener=1) is None
    assert check_move(PLAIN, THREE, [], move("S1"), 0, opener=1) is not None


def test_play_passes_clockwise_one_card_per_turn() -> None:
    played = [move("S1")]  # opened by seat 2 (index 1)
    assert check_move(PLAIN, THREE, played, move("S2"), 2, opener=1) is None
    reason = check_move(PLAIN, THREE, played, move("S2"), 1, opener=1)
    assert reason == ("It is seat 3's turn, not seat 2's: play passes clockwise, one card each.")
    # After the last seat comes the first again.
    assert check_move(PLAIN, THREE, [move("S1"), move("M1")], move("S3"), 0, opener=1) is None


def test_the_opener_is_needed_once_moves_are_made_with_colours_only() -> None:
    with pytest.raises(RulesError, match="opener"):
        check_move(PLAIN, THREE, [move("S1")], move("S2"), 1)
    with pytest.raises(RulesError, match="no seat 4"):
        check_move(PLAIN, THREE, [], move("S2"), 3)


def test_a_card_cannot_be_placed_twice_nor_after_the_twelfth() -> None:
    assert check_move(PLAIN, THREE, [move("S1")], move("S1"), 1, opener=0) == (
        "S1 is already on the board."
    )
    twelve = [move(f"S{value}") for value in range(1, 13)]
    assert check_move(PLAIN, THREE, twelve, move("M1"), 0, opener=0) == (
        "All 12 cards are already placed."
    )


def test_with_colours_only_a_seat_plays_the_colours_it_holds() -> None:
    # Seat 1 holds SSMM: a third Sun is refused.
    played = [move("S1"), move("M1"), move("M3"), move("S2"), move("M4"), move("M5")]
    assert check_move(PLAIN, THREE, played, move("S3"), 0, opener=0) == (
        "Seat 1 has no Sun card left to play."
    )
    assert check_move(PLAIN, THREE, played, move("M6"), 0, opener=0) is None


def test_with_two_players_the_set_of_2_joins_after_each_placed_two() -> None:
    # Seat 1: SSSS + MM. Its Moons are in the set of 2.
    refused = check_move(PLAIN, TWO, [], move("M1"), 0)
    assert refused == ("The set of 2 joins the hand only after each player has placed two cards.")
    three_moves = [move("S1"), move("M2"), move("S3")]
    assert check_move(PLAIN, TWO, three_moves, move("M1"), 1, opener=0) is None  # seat 2's own
    four_moves = [*three_moves, move("M3")]
    assert check_move(PLAIN, TWO, four_moves, move("M1"), 0, opener=0) is None


def test_with_a_deal_the_card_must_be_in_the_seats_hand() -> None:
    deal = deal_for_colours(TWO, random.Random(5))
    own, other = deal.hands[0][0], deal.hands[1][0]
    assert check_move(PLAIN, deal, [], Move(own, 3), 0) is None
    assert check_move(PLAIN, deal, [], Move(other, 3), 0) == f"{other} is not in seat 1's hand."
    assert check_move(PLAIN, deal, [], Move(deal.extras[0][0], 3), 0) is not None
    # The opener follows from the owner of the first card.
    assert check_move(PLAIN, deal, [Move(own, 3)], Move(other, 2), 1) is None
    assert check_move(PLAIN, deal, [Move(other, 3)], Move(own, 2), 0) is None


def test_the_face_up_budget_is_for_the_whole_group() -> None:
    played = [move("S1", face_up=True), move("M1", face_up=True)]
    # Without a budget the referee does not count face-up cards.
    assert check_move(PLAIN, THREE, played, move("S2", face_up=True), 2, opener=0) is None
    assert (
        check_move(PLAIN, THREE, played, move("S2", face_up=True), 2, opener=0, face_up_budget=3)
        is None
    )
    assert (
        check_move(PLAIN, THREE, played, move("S2", face_up=True), 2, opener=0, face_up_budget=2)
        == "The group may play only 2 cards face up, and all are used."
    )
    assert check_move(PLAIN, THREE, played, move("S2"), 2, opener=0, face_up_budget=2) is None


def test_placement_rules_of_the_clock_are_enforced() -> None:
    ordered = Clock.from_json({"id": "2-1", "rules": [{"kind": "first_cards", "segments": [4, 5]}]})
    assert check_move(ordered, THREE, [], move("S1", 1), 0) == (
        "The group's first card must go to segment 4."
    )
    assert check_move(ordered, THREE, [], move("S1", 4), 0) is None
    assert check_move(ordered, THREE, [move("S1", 4)], move("S2", 4), 1, opener=0) is not None
    assert check_move(ordered, THREE, [move("S1", 4)], move("S2", 5), 1, opener=0) is None


@pytest.mark.parametrize("lang", ["nl", "ja"])
def test_reasons_are_worded_in_the_language_asked(lang: str) -> None:
    reason = check_move(PLAIN, THREE, [move("S1")], move("S1"), 1, opener=0, lang=lang)
    assert reason is not None and "S1" in reason and "already" not in reason


def test_a_whole_random_game_is_legal_when_turns_and_hands_are_followed() -> None:
    rng = random.Random(11)
    for players, colours in ((2, TWO), (3, THREE), (4, parse_colours("SSM/MMS/SMS/MSM"))):
        deal: Deal = deal_for_colours(colours, rng)
        opener = rng.randrange(players)
        hands = [list(deal.hands[i]) for i in range(players)]
        extras = [list(deal.extras[i]) for i in range(players)]
        moves: list[Move] = []
        for turn in range(12):
            seat = (opener + turn) % players
            if turn == 4:
                for index in range(players):
                    hands[index] += extras[index]
            card = hands[seat].pop(rng.randrange(len(hands[seat])))
            proposed = Move(card, rng.randint(1, 6))
            assert check_move(PLAIN, deal, moves, proposed, seat) is None
            assert check_move(PLAIN, colours, moves, proposed, seat, opener=opener) is None
            moves.append(proposed)
