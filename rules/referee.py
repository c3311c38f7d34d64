"""The placement-phase referee: may this seat place this card there, now?

Called by the solver's simulator for every candidate move, so it does no parsing, builds no
layout and allocates little; reasons are worded only for illegal moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.clock import Clock
from rules.deals import Deal
from rules.errors import RulesError
from rules.i18n import COLOUR_NAMES, say
from rules.layout import Move
from rules.seats import Seats

# With 2 players the set of 2 joins the hand once each player has placed two cards, i.e.
# after the first four moves of the game (turns alternate).
EXTRAS_JOIN_AFTER = 4

_DONE = {
    "en": "All 12 cards are already placed.",
    "nl": "Alle 12 kaarten liggen al.",
    "ja": "12枚のカードはすべて配置済みです。",
}
_TURN = {
    "en": "It is seat {expected}'s turn, not seat {seat}'s: play passes clockwise, one card each.",
    "nl": "Stoel {expected} is aan de beurt, niet stoel {seat}: er wordt kloksgewijs gespeeld, "
    "één kaart per beurt.",
    "ja": "今は{expected}番目の席の手番です（{seat}番目ではありません）。"
    "手番は時計回りに1枚ずつです。",
}
_PLACED = {
    "en": "{card} is already on the board.",
    "nl": "{card} ligt al op tafel.",
    "ja": "{card}はすでに配置されています。",
}
_NOT_HELD = {
    "en": "{card} is not in seat {seat}'s hand.",
    "nl": "{card} zit niet in de hand van stoel {seat}.",
    "ja": "{card}は{seat}番目の席の手札にありません。",
}
_NO_COLOUR = {
    "en": "Seat {seat} has no {colour} card left to play.",
    "nl": "Stoel {seat} heeft geen {colour}kaart meer om te spelen.",
    "ja": "{seat}番目の席には、もうプレイできる{colour}カードがありません。",
}
_NOT_YET = {
    "en": "The set of 2 joins the hand only after each player has placed two cards.",
    "nl": "De set van 2 komt pas in de hand als elke speler twee kaarten heeft gelegd.",
    "ja": "2枚のセットは、両プレイヤーが2枚ずつ配置した後で手札に加わります。",
}
_NO_FACE_UP = {
    "en": "The group may play only {budget} cards face up, and all are used.",
    "nl": "De groep mag maar {budget} kaarten open spelen, en die zijn allemaal gebruikt.",
    "ja": "表にして配置できるカードはグループ全体で{budget}枚までで、すでに使い切っています。",
}


def seat_to_play(opener: int, moves_played: int, players: int) -> int:
    """The seat whose turn it is after ``moves_played`` moves, when ``opener`` opened."""
    return (opener + moves_played) % players


def check_move(  # noqa: C901 - one branch per kind of refusal, in the rules' order
    clock: Clock,
    seats: Seats | Deal,
    moves_so_far: Sequence[Move],
    proposed: Move,
    seat_index: int,
    *,
    opener: int | None = None,
    face_up_budget: int | None = None,
    lang: str = "en",
) -> str | None:
    """None when seat ``seat_index`` (0-based, seating order) may place ``proposed`` now,
    else the reason in ``lang``.

    Checks: fewer than 12 cards placed; turn order (any seat opens, then play passes
    clockwise one card per turn); the card is not on the board and belongs to the seat —
    by value when ``seats`` is a Deal, by colour when only the colours (Seats) are known;
    the 2-player set of 2 only after each player has placed two cards; the face-up budget
    when given; and the clock's placement rules.

    ``opener`` is the seat that placed the first move. It may be left out when no move is
    made yet or when ``seats`` is a Deal (the owner of the first card opened); otherwise
    RulesError, like for a seat index outside the table.
    """
    players = seats.players
    if not 0 <= seat_index < players:
        raise RulesError.from_wording(_NO_SEAT, "seat", seat=seat_index + 1, players=players)
    played = len(moves_so_far)
    if played >= 12:
        return say(_DONE, lang)

    if played == 0:
        # Any seat may open; a caller that fixed the opener gets it enforced.
        opener = seat_index if opener is None else opener
    elif opener is None:
        if not isinstance(seats, Deal):
            raise RulesError.from_wording(_NEEDS_OPENER, "opener")
        opener = seats.owner(moves_so_far[0].card)
        if opener is None:
            raise RulesError.from_wording(_NOT_DEALT, "moves", card=moves_so_far[0].card)
    expected = seat_to_play(opener, played, players)
    if seat_index != expected:
        return say(_TURN, lang, expected=expected + 1, seat=seat_index + 1)

    card = proposed.card
    if any(move.card == card for move in moves_so_far):
        return say(_PLACED, lang, card=card)

    extras_joined = played >= EXTRAS_JOIN_AFTER
    if isinstance(seats, Deal):
        if card not in seats.hands[seat_index]:
            if card in seats.extras[seat_index]:
                if not extras_joined:
                    return say(_NOT_YET, lang)
            else:
                return say(_NOT_HELD, lang, card=card, seat=seat_index + 1)
    else:
        seat = seats.seats[seat_index]
        letter = card.colour.value
        own_moves = moves_so_far[(seat_index - opener) % players :: players]
        used = sum(1 for move in own_moves if move.card.colour is card.colour)
        in_hand = seat.hand.count(letter)
        if extras_joined:
            in_hand += seat.extra.count(letter)
        if used >= in_hand:
            if not extras_joined and used < in_hand + seat.extra.count(letter):
                return say(_NOT_YET, lang)
            colour = say(COLOUR_NAMES[letter], lang)
            return say(_NO_COLOUR, lang, seat=seat_index + 1, colour=colour)

    if proposed.face_up and face_up_budget is not None:
        used_face_up = sum(1 for move in moves_so_far if move.face_up)
        if used_face_up >= face_up_budget:
            return say(_NO_FACE_UP, lang, budget=face_up_budget)

    for rule in clock.rules:
        if rule.restricts_placement:
            reason = rule.check_move(tuple(moves_so_far), proposed, lang)
            if reason is not None:
                return reason
    return None


_NO_SEAT = {
    "en": "There is no seat {seat} at a {players}-player table.",
    "nl": "Er is geen stoel {seat} aan een tafel met {players} spelers.",
    "ja": "{players}人プレイのテーブルに{seat}番目の席はありません。",
}
_NEEDS_OPENER = {
    "en": "The referee needs the opener once moves are made.",
    "nl": "De scheidsrechter moet weten wie begon zodra er zetten zijn gedaan.",
    "ja": "手が進んだ後は、審判には最初に置いた席が必要です。",
}
_NOT_DEALT = {
    "en": "{card} was not dealt.",
    "nl": "{card} is niet gedeeld.",
    "ja": "{card}は配られていません。",
}
