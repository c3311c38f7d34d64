"""Colours at the table: the public notation and its validation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.seats import Seat, Seats, parse_colours


def test_it_parses_three_and_four_players() -> None:
    seats = parse_colours("SSMM/MMSS/SMSM")
    assert seats.players == 3
    assert seats.suns == 6 and seats.moons == 6
    assert parse_colours("ssm/mms/smm/sss").format() == "SSM/MMS/SMM/SSS"


def test_two_player_seats_have_a_set_of_4_and_a_set_of_2() -> None:
    seats = parse_colours("SSMM+SM / SMMM+SS")
    assert seats.seats == (Seat("SSMM", "SM"), Seat("SMMM", "SS"))
    assert seats.format() == "SSMM+SM/SMMM+SS"
    assert seats.suns == 6


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("SSSSSSSSSSSS", "2, 3 or 4 seats"),
        ("SSM/MMS/SMM/SSS/MMM", "2, 3 or 4 seats"),
        ("SSMMSM/SMMMSS", "set of 4 and a set of 2"),
        ("SSM+M/MMS+S", "set of 4 and a set of 2"),
        ("SSMM+SM/SMMM+S", "set of 4 and a set of 2"),
        ("SSM/MMS/SMMS", "each seat holds 4 cards"),
        ("SSMM/MMSS/SMSMS", "each seat holds 4 cards"),
        ("SSM+S/MMS/SMM/SSS", "Only 2-player seats"),
        ("SXM/MMS/SMM/SSS", r"S \(Sun\) and M \(Moon\) only"),
        ("SSMM++SM/SMMM+SS", "joined by one"),
        ("SSM//SMM/SSS", "no cards"),
        ("S" * 500, "far too long"),
    ],
)
def test_it_refuses_colours_that_do_not_fit_a_table(text: str, reason: str) -> None:
    with pytest.raises(RulesError, match=reason) as error:
        parse_colours(text)
    assert error.value.field == "colours"


def test_seats_cannot_be_built_invalid() -> None:
    with pytest.raises(RulesError):
        Seats((Seat("SSS"), Seat("MMM")))


seat_groups = st.sampled_from([2, 3, 4]).flatmap(
    lambda players: st.lists(
        st.text("SM", min_size=12 // players, max_size=12 // players),
        min_size=players,
        max_size=players,
    )
)


@given(seat_groups)
def test_colours_round_trip_through_the_notation(groups: list[str]) -> None:
    if len(groups) == 2:
        seats = Seats(tuple(Seat(group[:4], group[4:]) for group in groups))
    else:
        seats = Seats(tuple(Seat(group) for group in groups))
    assert parse_colours(seats.format()) == seats
    assert parse_colours(seats.format().lower()) == seats
