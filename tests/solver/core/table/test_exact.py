"""The exactly-twelve convention (solver.core.table.exact): where it applies, what each priority
plays, that a table following it passes deals the plans of targets and weights lose, and
the plan that says it (Plan.exact): its JSON, its engine, its slips, its words, its hint."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.layout import Move
from rules.seats import parse_colours
from solver.core.search.search import recommend
from solver.core.table.agents import Slip, rank_moves, slipped_moves
from solver.core.table.agents_fast import SUN
from solver.core.table.exact import Convention, choose, convention_for
from solver.core.table.plans import Plan, h_plan
from solver.core.table.simulate import draw_slips, draw_values, pass_count
from solver.core.table.table_rules import rules_for
from solver.core.table.view import PublicMove, View
from solver.core.words import plan_speech

S, M = Colour.SUN, Colour.MOON
LONE_SUN = Clock.from_json(
    {"id": "5-1", "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}]}
)
SEATS = parse_colours("SSM/MMS/SMS/MSM")


def _rule_clock(start: int, *rules: dict[str, object]) -> Clock:
    clock_id = "5-1" if start == 1 else "5-2"
    clock = Clock.from_json({"id": clock_id, "rules": list(rules)})
    return replace(clock, start=start)


def test_it_applies_where_the_segment_read_last_holds_one_card() -> None:
    assert convention_for(LONE_SUN) == Convention((1, 2, 3, 4, 5, 6), S)
    moon = _rule_clock(1, {"kind": "colours", "segment": 6, "sun": 0, "moon": 1})
    assert convention_for(moon) == Convention((1, 2, 3, 4, 5, 6), M)
    # Read from segment 3, segment 2 is read last; either colour may lie there.
    turned = _rule_clock(3, {"kind": "card_count", "segment": 2, "count": 1})
    convention = convention_for(turned)
    assert convention == Convention((3, 4, 5, 6, 1, 2), None)
    assert convention.lone == 2 and convention.rest == 3
    assert convention.exact == (1, 6, 5, 4)


@pytest.mark.parametrize(
    "rules",
    [
        [],  # the base clock
        [{"kind": "max_cards", "segment": 5, "count": 1}],  # one card, but not read last
        [{"kind": "card_count", "segment": 6, "count": 2}],  # read last, but two cards
    ],
)
def test_it_does_not_apply_elsewhere(rules: list[dict[str, object]]) -> None:
    assert convention_for(Clock.from_json({"id": "5-1", "rules": rules})) is None


def _view(
    hand: list[Card], board: list[tuple[int, int, Card, bool]], face_up_left: int = 0
) -> View:
    """Seat 1's view (index 0): ``board`` as (seat index, segment, card, face up)."""
    public = tuple(
        PublicMove(seat, segment, card.colour, up, card.value if up else None)
        for seat, segment, card, up in board
    )
    own = tuple(card if seat == 0 else None for seat, _, card, _ in board)
    plan = h_plan(LONE_SUN, SEATS)
    return View(0, LONE_SUN, SEATS, plan, tuple(hand), public, own, face_up_left)


def _first(view: View) -> Move:
    """The move a player of an exact plan offers first (``agents.rank_moves``)."""
    move = rank_moves(replace(view, plan=replace(view.plan, exact=True)))[0]
    assert move == choose(view, convention_for(LONE_SUN) or Convention((), None))
    return move


def test_the_sun_12_goes_alone_on_the_last_segment_first() -> None:
    view = _view([Card(S, 3), Card(S, 12), Card(M, 9)], [(3, 3, Card(M, 9), True)], 3)
    assert _first(view) == Move(Card(S, 12), 6)


def test_a_face_up_segment_is_finished_to_exactly_12() -> None:
    view = _view([Card(S, 3), Card(M, 5), Card(M, 8)], [(3, 3, Card(M, 7), True)])
    assert _first(view) == Move(Card(M, 5), 3)


def test_a_card_ones_own_segment_needs_is_kept_for_it() -> None:
    # Seat 1 opened segment 4 with its 6 and holds 1 and 5 to finish it: the 1 that would
    # finish segment 3 (11, face up) stays, and segment 4 gets its next card.
    board = [(0, 4, Card(S, 6), False), (1, 3, Card(M, 11), True)]
    view = _view([Card(S, 1), Card(M, 5)], board)
    assert _first(view) == Move(Card(M, 5), 4)
    # Without a segment of its own to feed, the 1 finishes segment 3.
    view = _view([Card(S, 1), Card(M, 5)], [(1, 3, Card(M, 11), True)])
    assert _first(view) == Move(Card(S, 1), 3)


def test_a_segment_is_opened_face_down_only_with_cards_that_make_12() -> None:
    # 3 + 4 + 5 = 12: the latest empty segment, opened with the largest of them.
    assert _first(_view([Card(M, 3), Card(S, 4), Card(M, 5)], [])) == Move(Card(M, 5), 5)
    # 2 + 4 + 9 makes no 12: face up while the table has some, else the first segment.
    hand = [Card(M, 2), Card(S, 4), Card(M, 9)]
    assert _first(_view(hand, [], 2)) == Move(Card(M, 9), 5, True)
    assert _first(_view(hand, [])) == Move(Card(M, 2), 1)


def test_a_card_nothing_else_takes_keeps_a_face_up_segment_at_or_below_12() -> None:
    board = [(2, 2, Card(M, 9), True)]
    # 11 would take segment 2 past 12, 2 keeps it at 11: the 2 goes there, face down.
    assert _first(_view([Card(M, 2), Card(S, 11)], board)) == Move(Card(M, 2), 2)
    # Nothing fits: the smallest card goes to the first segment read.
    assert _first(_view([Card(M, 4), Card(S, 11)], board)) == Move(Card(M, 4), 1)


def test_a_table_following_it_passes_deals_the_plans_lose() -> None:
    # The panel's "1 Sun on 6 (alone)": every game ends legally (the referee checks each
    # move), and the convention passes several times the deals the "H" plan does.
    values = draw_values(SEATS, 2000, 424_242)
    plan = replace(h_plan(LONE_SUN, SEATS), opener=4)
    with_it = pass_count(LONE_SUN, SEATS, replace(plan, exact=True), 4, values)
    assert with_it > 3 * max(pass_count(LONE_SUN, SEATS, plan, 4, values), 5)


# --- A plan that says it ------------------------------------------------------------------


def test_a_plan_carries_the_convention_in_its_json() -> None:
    plan = replace(h_plan(LONE_SUN, SEATS), exact=True)
    data = plan.to_json()
    assert data["exact"] is True
    assert Plan.from_json(data, players=4) == plan
    assert "exact" not in replace(plan, exact=False).to_json()
    with pytest.raises(ValueError, match="plan.exact"):
        Plan.from_json({**data, "exact": "yes"})


def test_both_engines_play_it_and_pass_the_same_deals() -> None:
    # Move for move agreement is in test_agents_fast; here the rates, with and without slips.
    plan = replace(h_plan(LONE_SUN, SEATS), opener=4, exact=True)
    rules = rules_for(LONE_SUN, SEATS, plan)
    assert rules.compiled_ok and rules.exact_colour == SUN
    assert rules_for(LONE_SUN, SEATS, replace(plan, exact=False)).exact_colour == -1
    values = draw_values(SEATS, 1500, 424_242)
    slips = draw_slips(1500, 5)
    counts = {
        engine: (
            pass_count(LONE_SUN, SEATS, plan, 4, values, engine),
            pass_count(LONE_SUN, SEATS, plan, 4, values, engine, 0.2, slips),
        )
        for engine in ("compiled", "reference")
    }
    assert counts["compiled"] == counts["reference"]
    assert counts["compiled"][0] > counts["compiled"][1] > 0


def test_on_a_clock_without_the_segment_the_flag_changes_nothing() -> None:
    clock = Clock("2-1", 2, 1)
    seats = parse_colours("SSMM/SMSM/MMSS")
    plan = h_plan(clock, seats)
    values = draw_values(seats, 300, 8)
    flagged = replace(plan, exact=True)
    assert pass_count(clock, seats, flagged, 3, values) == pass_count(clock, seats, plan, 3, values)
    assert plan_speech(flagged, clock, seats, 3).lines == plan_speech(plan, clock, seats, 3).lines


def test_a_misread_leaves_the_convention_alone_a_random_move_does_not() -> None:
    board = [(1, 3, Card(M, 7), True), (2, 4, Card(S, 5), False)]
    view = _view([Card(S, 3), Card(M, 5), Card(M, 8)], board)
    view = replace(view, plan=replace(view.plan, exact=True))
    assert slipped_moves(view, Slip("misread", 1, 2.0))[0] == Move(Card(M, 5), 3)
    random = slipped_moves(view, Slip("random", 0))[0]
    assert random != Move(Card(M, 5), 3)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["Segments 2, 3, 4 and 5 each end at exactly 12", "The Sun 12", "Dee opens"]),
        ("nl", ["De segmenten 2, 3, 4 en 5 eindigen elk op precies 12", "De zon 12"]),
        ("ja", ["区画2、3、4、5はそれぞれちょうど12", "太陽の12", "Deeから始めます"]),
    ],
)
def test_the_table_says_it_in_three_lines(lang: str, said: list[str]) -> None:
    plan = replace(h_plan(LONE_SUN, SEATS), opener=4, exact=True)
    speech = plan_speech(plan, LONE_SUN, SEATS, 4, lang, ["Ada", "Bo", "Cy", "Dee"])
    assert len(speech.lines) == 3
    for part in said:
        assert part in speech.said()
    assert any("12" in detail for detail in speech.details)


@pytest.mark.slow
def test_a_hint_on_such_a_clock_recommends_it() -> None:
    hint = recommend(LONE_SUN, SEATS, 4, seed=0, effort=0.1, compute_odds=False)
    assert hint.plan.exact
    assert hint.pass_rate_with_slips is not None and hint.pass_rate_with_slips > 0.01
    assert "exactly 12" in hint.words["en"]
