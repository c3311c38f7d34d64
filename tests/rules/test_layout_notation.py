"""Layouts in segment form and move form, face-up marks, and their bad inputs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import DECK, Card, parse_card
from rules.errors import RulesError
from rules.layout import MAX_LAYOUT_CHARS, Layout, Move, parse_layout

EXAMPLE = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7"


def test_segment_form_keeps_each_segments_cards_in_order() -> None:
    layout = parse_layout(EXAMPLE)
    assert layout.cards_at(5) == (parse_card("S2"), parse_card("M12"))
    assert layout.sums == (3, 5, 5, 9, 14, 21)
    assert layout.moves is None
    assert layout.format_segments() == EXAMPLE


def test_move_form_gives_the_layout_and_the_play_order() -> None:
    text = "S3@1 S5@2 M5@3 S9@4 S2@5 M12@5 S1@6 S7@6 M1@6 M2@6 M3@6 M7@6"
    layout = parse_layout(text)
    assert layout.format_segments() == EXAMPLE
    assert layout.moves is not None and layout.moves[0] == Move(parse_card("S3"), 1)
    assert layout.format_moves() == text


def test_face_up_marks_are_read_in_both_forms() -> None:
    segment_form = parse_layout("S3* | S5 | M5 | S9 | S2 M12* | S1 S7 M1 M2 M3 M7")
    assert segment_form.face_up == {parse_card("S3"), parse_card("M12")}
    move_form = parse_layout("S3*@1 S5@2 M5@3 S9@4 S2@5 M12@5* S1@6 S7@6 M1@6 M2@6 M3@6 M7@6")
    assert move_form.face_up == {parse_card("S3"), parse_card("M12")}
    assert move_form.format_moves().startswith("S3*@1 ")


def test_an_empty_segment_is_allowed_in_the_notation() -> None:
    layout = parse_layout("S3 S5 | | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7")
    assert layout.segments[1] == ()
    assert parse_layout(layout.format_segments()) == layout
    assert parse_layout("S3 S5 | - | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7") == layout


def test_format_moves_needs_the_play_order() -> None:
    with pytest.raises(RulesError, match="play order"):
        parse_layout(EXAMPLE).format_moves()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("S13 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7", "'S13' is not a card"),
        ("X3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7", "'X3' is not a card"),
        ("S0 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7", "'S0' is not a card"),
        ("S3 | S3 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7", "S3 appears twice"),
        ("S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3", "exactly 12 cards; this one has 11"),
        ("S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7 M8", "this one has 13"),
        ("S3 | S5 | M5 | S9 | S2 M12 S1 S7 M1 M2 M3 M7", "six groups"),
        ("S3 | S5 | M5 | S9 | S2 | M12 | S1 S7 M1 M2 M3 M7", "six groups"),
        ("S3@7 S5@2", "Segment 7 does not exist"),
        ("S3@0 S5@2", "Segment 0 does not exist"),
        ("S3@x S5@2", "a segment is a number 1–6"),
        ("S3 S5@2", "has no segment"),
        ("S3@1 | S5@2", "not both"),
        ("S3@1 S3@2 M1@3 M2@4 M3@5 M4@6 M5@1 M6@1 M7@1 M8@1 M9@1 M10@1", "S3 appears twice"),
        ("S3 " * 1000, "characters long"),
    ],
)
def test_it_refuses_bad_layouts_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(RulesError, match=reason) as error:
        parse_layout(text)
    assert error.value.field == "layout" or reason.endswith("is not a card")


def test_the_length_limit_is_two_thousand_characters() -> None:
    assert MAX_LAYOUT_CHARS == 2000
    padded = EXAMPLE + " " * (2000 - len(EXAMPLE))
    assert parse_layout(padded).sums == (3, 5, 5, 9, 14, 21)


def test_a_partial_layout_may_be_parsed_when_asked() -> None:
    assert len(parse_layout("S3@1 S5@2", complete=False).cards) == 2


def test_a_layout_is_always_consistent() -> None:
    with pytest.raises(RulesError, match="six segments"):
        Layout(((),) * 5)
    with pytest.raises(RulesError, match="face-up"):
        Layout(((parse_card("S1"),), (), (), (), (), ()), frozenset({parse_card("S2")}))
    with pytest.raises(RulesError, match="moves do not match"):
        Layout(((parse_card("S1"),), (), (), (), (), ()), moves=(Move(parse_card("S1"), 2),))


@st.composite
def move_lists(draw: st.DrawFn) -> list[Move]:
    cards: list[Card] = draw(st.permutations(DECK))[:12]
    return [Move(card, draw(st.integers(1, 6)), draw(st.booleans())) for card in cards]


@given(move_lists())
def test_move_form_round_trips(moves: list[Move]) -> None:
    layout = Layout.from_moves(moves)
    assert parse_layout(layout.format_moves()) == layout
    assert parse_layout(layout.format_moves().lower()) == layout


@given(move_lists())
def test_segment_form_round_trips(moves: list[Move]) -> None:
    layout = Layout.from_moves(moves)
    segment_form = Layout(layout.segments, layout.face_up)
    assert parse_layout(segment_form.format_segments()) == segment_form
