"""Was it winnable? The perfect-information answer for a played layout, its witness, and what
it refuses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.deals import Deal, deal
from rules.errors import RulesError
from rules.inputs import check_layout
from rules.layout import Layout, Move, parse_layout
from rules.referee import check_move
from rules.validate import validate
from solver.core.oracle.oracle import Oracle
from solver.core.oracle.postmortem import PLACEMENT_KINDS, postmortem
from tests.solver.core.oracle.test_oracle import CLOCKS as ORACLE_CLOCKS
from tests.solver.core.oracle.test_oracle_reference import reference_passable

# The oracle tests' clocks, and one whose ranges leave few arrangements.
CLOCKS: dict[str, dict[str, Any]] = {
    **ORACLE_CLOCKS,
    "tight ranges": {
        "id": "5-3",
        "start": 2,
        "cap": 24,
        "rules": [
            {"kind": "value_range", "segment": 2, "min": 9, "max": 11},
            {"kind": "value_range", "segment": 6, "min": 14, "max": 16},
            {"kind": "strictly_rising"},
        ],
    },
}


def _without_placement(clock: Clock) -> Clock:
    data = clock.to_json()
    data["rules"] = [rule for rule in data["rules"] if rule["kind"] not in PLACEMENT_KINDS]
    return Clock.from_json(data)


def _table_order(the_deal: Deal) -> list[Any]:
    """The cards as the table played them: one card per turn from seat 0, each seat its hand
    first (so with 2 players its first two cards come from its set of 4)."""
    queues = [list(the_deal.seat_cards(seat)) for seat in range(the_deal.players)]
    return [queues[i % the_deal.players][i // the_deal.players] for i in range(12)]


def _played(the_deal: Deal, rng: random.Random) -> Layout:
    """A failed-looking game: the deal's cards in table order, each at a random segment."""
    return Layout.from_moves(Move(card, rng.randint(1, 6)) for card in _table_order(the_deal))


def _legal_for(clock: Clock, the_deal: Deal, witness: Layout) -> None:
    """The witness's moves are a game ``the_deal``'s seats could play, seat 0 opening or not."""
    assert witness.moves is not None
    first_seat = the_deal.owner(witness.moves[0].card)
    assert first_seat is not None
    for index, move in enumerate(witness.moves):
        seat = (first_seat + index) % the_deal.players
        reason = check_move(clock, the_deal, witness.moves[:index], move, seat, opener=first_seat)
        assert reason is None, (index, move, reason)


@pytest.mark.parametrize("name", sorted(CLOCKS))
def test_it_agrees_with_the_oracle_on_random_deals_in_both_forms(name: str) -> None:
    clock = Clock.from_json(CLOCKS[name])
    full, layout_rules = Oracle(clock), Oracle(_without_placement(clock))
    rng = random.Random(name)
    answers = []
    for players in (2, 3, 4) * 25:
        the_deal = deal(players, rng)
        played = _played(the_deal, rng)
        by_segments = parse_layout(played.format_segments())

        answer = postmortem(clock, by_segments)
        assert answer.winnable == layout_rules.passable(the_deal)
        assert answer.placement_checked is False
        answers.append(answer.winnable)

        answer = postmortem(clock, played, players)
        assert answer.placement_checked is True
        if players == 2 and clock.rules and any(r.restricts_placement for r in clock.rules):
            # Only the first two cards of a 2-player seat surely were its set of 4: winnable
            # here is winnable for the oracle, which knows the whole set.
            assert not answer.winnable or full.passable(the_deal)
        else:
            assert answer.winnable == full.passable(the_deal)
    assert True in answers
    if name == "tight ranges":  # often lost: both answers are exercised
        assert answers.count(False) > 10


@pytest.mark.parametrize("name", ["1-1", "tight ranges"])
def test_it_agrees_with_a_plain_python_search(name: str) -> None:
    """Independent of the oracle's kernel: the reference search of the oracle's own tests."""
    clock = Clock.from_json(CLOCKS[name])
    rng = random.Random(f"reference {name}")
    seen = set()
    for _ in range(12):
        the_deal = deal(4, rng)
        answer = postmortem(clock, parse_layout(_played(the_deal, rng).format_segments()))
        assert answer.winnable == reference_passable(clock, the_deal)
        seen.add(answer.winnable)
    assert True in seen
    if name == "tight ranges":
        assert False in seen


@pytest.mark.parametrize("name", sorted(CLOCKS))
def test_every_witness_passes_the_rules_engine_and_check_layout(name: str) -> None:
    clock = Clock.from_json(CLOCKS[name])
    rng = random.Random(f"witness {name}")
    witnesses = 0
    for players in (2, 3, 4) * 15:
        the_deal = deal(players, rng)
        played = _played(the_deal, rng)
        for layout, seats in ((played, players), (played, None), (parse_layout(str(played)), None)):
            segment_form = parse_layout(played.format_segments())
            for given in (layout, segment_form) if seats is None else (layout,):
                answer = postmortem(clock, given, seats)
                if not answer.winnable:
                    assert answer.witness is None and answer.to_json()["witness"] is None
                    continue
                witnesses += 1
                text = answer.to_json()["witness"]
                assert isinstance(text, str)
                witness = parse_layout(text)
                assert sorted(witness.cards) == sorted(the_deal.cards)
                judged = clock if answer.placement_checked else _without_placement(clock)
                assert validate(judged, witness).passed
                verdict = check_layout(clock, text)
                assert verdict.passed, verdict.summary()
                assert (witness.moves is not None) == answer.placement_checked
                if seats is not None:
                    _legal_for(clock, the_deal, witness)
    assert witnesses > 30


def test_a_deal_that_cannot_be_won_is_not_winnable() -> None:
    """1-1 wants exactly one card at segment 1, a Sun: twelve Moons can never pass it."""
    moons = parse_layout("M1 M2 | M3 | M4 | M5 M6 | M7 M8 | M9 M10 M11 M12")
    for layout in (moons, parse_layout(" ".join(f"M{v}@{v % 6 + 1}" for v in range(1, 13)))):
        answer = postmortem(get_clock("1-1"), layout, 3)
        assert answer.winnable is False
        assert answer.to_json() == {
            "winnable": False,
            "witness": None,
            "placement_checked": layout.moves is not None,
            "special_rules_known": True,
            "unchecked": [],
        }
        assert "Not winnable" in answer.summary()
    # The same cards on a clock without that rule are winnable.
    assert postmortem(get_clock("1-1").base_rules_only(), moons).winnable


def test_a_failed_layout_whose_cards_could_pass_gets_a_passing_witness() -> None:
    clock = get_clock("1-1")
    played = parse_layout("S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1")
    assert not validate(clock, played).passed  # two cards at segment 1, then values drop
    answer = postmortem(clock, played)
    assert answer.winnable
    assert validate(clock, answer.witness).passed  # type: ignore[arg-type]
    assert sorted(answer.witness.cards) == sorted(played.cards)  # type: ignore[union-attr]


ORDERED_CLOCK = {
    "id": "3-1",
    "start": 1,
    "cap": 24,
    "rules": [
        {"kind": "first_cards", "segments": [1, 1]},
        {"kind": "card_count", "segment": 1, "count": 1},
    ],
}


def test_the_segment_form_judges_only_the_layout_rules_and_says_so() -> None:
    """Two first cards on segment 1, which holds one card: no game passes. The segment form
    cannot see the order, so it judges the layout rules only and says it did."""
    clock = Clock.from_json(ORDERED_CLOCK)
    played = "S1@1 S2@2 S3@3 S4@4 S5@5 S6@6 M1@2 M2@3 M3@4 M4@5 M5@6 M6@6"
    by_moves = postmortem(clock, parse_layout(played))
    assert by_moves.winnable is False and by_moves.placement_checked is True
    by_segments = postmortem(clock, parse_layout(parse_layout(played).format_segments()))
    assert by_segments.winnable is True and by_segments.placement_checked is False
    assert "move form" in by_segments.summary()
    assert "placement" in by_segments.summary()
    assert "Niet gecontroleerd" not in by_segments.summary("nl")  # its own sentence, in Dutch
    assert "zetvorm" in by_segments.summary("nl")
    assert "手順形式" in by_segments.summary("ja")


def test_with_two_players_only_the_cards_surely_in_a_set_of_4_may_open() -> None:
    """The first card goes to segment 1, the second to segment 2, which must hold a lone 12.
    The only 12 is M12, played last. With 2 players its seat played it as its sixth card:
    maybe from its set of 2, so it cannot be shown to open. With 4 players it is a card of
    seat 4, which plays right after seat 3 opens: winnable."""
    clock = Clock.from_json(
        {
            "id": "3-3",
            "start": 2,
            "cap": 24,
            "rules": [
                {"kind": "first_cards", "segments": [1, 2]},
                {"kind": "card_count", "segment": 2, "count": 1},
                {"kind": "value_range", "segment": 2, "min": 12, "max": 12},
            ],
        }
    )
    played = parse_layout("S1@1 S2@1 S3@2 S4@2 S5@3 S6@3 S7@4 S8@4 M9@5 M10@5 M11@6 M12@6")
    assert postmortem(clock, played, 2).winnable is False
    four = postmortem(clock, played, 4)
    assert four.winnable is True
    assert four.witness is not None and four.witness.moves is not None
    assert (str(four.witness.moves[1].card), four.witness.moves[1].segment) == ("M12", 2)
    assert four.witness.moves[0].card in (played.cards[2], played.cards[6], played.cards[10])
    assert check_layout(clock, four.witness.format_moves()).passed
    # Without the table size anyone may have held anything.
    assert postmortem(clock, played).winnable is True
    # With 2 players, a 12 played as a seat's first card may open.
    early = parse_layout("S1@1 M12@1 S3@2 S4@2 S5@3 S6@3 S7@4 S8@4 M9@5 M10@5 M11@6 S2@6")
    assert postmortem(clock, early, 2).winnable is True


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("S3 | M5 | S2 M3 | M9 S1 | S6 S8 M2 | M12 S9", 11),
        ("S3@1 M5@2", 2),
        ("- | - | - | - | - | -", 0),
    ],
)
def test_it_refuses_a_partial_layout(text: str, count: int) -> None:
    layout = parse_layout(text, complete=False)
    with pytest.raises(RulesError) as refused:
        postmortem(get_clock("1-1"), layout)
    assert refused.value.field == "layout"
    assert f"exactly 12 cards; this one has {count}" in refused.value.message
    assert "12" in refused.value.in_language("ja")


@pytest.mark.parametrize("players", [1, 5, True, "3"])
def test_it_refuses_a_table_size_outside_two_to_four(players: Any) -> None:
    with pytest.raises(RulesError) as refused:
        postmortem(
            get_clock("1-1"),
            parse_layout("S1@1 " + " ".join(f"M{v}@6" for v in range(1, 12))),
            players,
        )
    assert refused.value.field == "players"


def test_an_untranscribed_clock_is_judged_by_what_is_known_and_says_so() -> None:
    clock = get_clock("2-1")
    assert not clock.transcribed
    answer = postmortem(clock, parse_layout("S3 | M5 | S2 M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"))
    assert answer.winnable is True
    assert answer.to_json()["special_rules_known"] is False
    assert "not transcribed" in answer.summary()
