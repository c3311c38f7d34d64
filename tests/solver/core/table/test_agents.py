"""A simulated player cannot reach what a player may not know."""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import fields

from rules.cards import Card
from rules.clock import Clock
from rules.deals import Deal
from rules.layout import Move
from rules.seats import parse_colours
from solver.core.table.agents import rank_moves
from solver.core.table.plans import h_plan
from solver.core.table.simulate import GameRecord, deal_of, draw_values, play_reference
from solver.core.table.view import View

CLOCK = Clock("2-1", 2, 1)
SEATS = parse_colours("SSMM+SM/SMMM+SS")
PLAN = h_plan(CLOCK, SEATS)


def _reachable(root: object) -> list[object]:
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def _views(deal: Deal) -> list[View]:
    views: list[View] = []

    def spy(view: View) -> list[Move]:
        views.append(view)
        return rank_moves(view)

    play_reference(CLOCK, SEATS, PLAN, 2, deal, player=spy)
    return views


def test_a_view_reaches_only_own_and_face_up_cards() -> None:
    deal = deal_of(SEATS, draw_values(SEATS, 1, seed=3)[0])
    views = _views(deal)
    assert len(views) == 12
    for view in views:
        own = set(view.hand) | {c for c in view.own_cards if c is not None}
        face_up = {Card(m.colour, m.value) for m in view.board if m.face_up and m.value is not None}
        objects = _reachable(view)
        assert not any(isinstance(obj, Deal) for obj in objects)
        cards = {obj for obj in objects if isinstance(obj, Card)}
        assert cards <= own | face_up, f"seat {view.seat + 1} sees {cards - own - face_up}"


def test_the_view_has_no_field_for_the_deal() -> None:
    assert {f.name for f in fields(View)} == {
        "seat", "clock", "seats", "plan", "hand", "board", "own_cards", "face_up_left",
    }  # fmt: skip


def _position(deal: Deal, card: Card) -> tuple[int, int, int]:
    for seat in range(deal.players):
        for extra, group in enumerate((deal.hands[seat], deal.extras[seat])):
            if card in group:
                return seat, extra, group.index(card)
    raise AssertionError(card)


def _other_values_for(deal: Deal, keep: int) -> Deal:
    """The same colours everywhere, seat ``keep``'s cards unchanged, every other card a
    different value of its colour."""
    taken = set(deal.cards)
    hands, extras = [], []
    for seat in range(deal.players):
        new_groups = []
        for group in (deal.hands[seat], deal.extras[seat]):
            if seat == keep:
                new_groups.append(group)
                continue
            new = []
            for card in group:
                free = [Card(card.colour, v) for v in range(1, 13)]
                new.append(next(c for c in free if c not in taken))
                taken.add(new[-1])
            new_groups.append(tuple(new))
        hands.append(new_groups[0])
        extras.append(new_groups[1])
    return Deal(tuple(hands), tuple(extras))


def _replaying(
    record: GameRecord, original: Deal, this_deal: Deal, turn: int, decisions: list[Move]
) -> Callable[[View], list[Move]]:
    """A player that replays ``record`` (the same dealt positions, segments and faces, but
    the cards of ``this_deal``) until ``turn``, then decides as the plan says."""

    def player(view: View) -> list[Move]:
        t = len(view.board)
        if t < turn:
            move = record.moves[t]
            seat, extra, index = _position(original, move.card)
            card = (this_deal.extras if extra else this_deal.hands)[seat][index]
            return [Move(card, move.segment, move.face_up)]
        if t == turn:
            decisions.append(rank_moves(view)[0])
        return rank_moves(view)

    return player


def test_changing_hidden_cards_does_not_change_a_decision() -> None:
    # Face-up cards would show the other values, so this game is played without any.
    plan = PLAN.with_(face_up_threshold=12.0)
    deal = deal_of(SEATS, draw_values(SEATS, 1, seed=5)[0])
    record = play_reference(CLOCK, SEATS, plan, 0, deal)
    for turn in range(1, 12):
        me = record.seats[turn]
        twin = _other_values_for(deal, keep=me)
        assert set(twin.seat_cards(1 - me)).isdisjoint(deal.seat_cards(1 - me))
        decisions: list[Move] = []
        for this_deal in (deal, twin):
            play_reference(
                CLOCK,
                SEATS,
                plan,
                0,
                this_deal,
                _replaying(record, deal, this_deal, turn, decisions),
            )
        assert decisions[0] == decisions[1], f"turn {turn}"
