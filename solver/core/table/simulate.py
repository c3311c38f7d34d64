"""Silent-play simulation: deal, let plan-following players place in turn, resolve.

Two engines play the same players:

- the **reference** engine (pure Python): builds each player's :class:`~.view.View`,
  asks the player for its ranked moves, lets ``rules.referee.check_move`` accept the first
  legal one, and resolves with ``rules.validate.passes``. It is the specification.
- the **compiled** engine (``agents_fast``, numba): the same decisions on arrays, tens of
  thousands of games a second. It models the rule kinds in ``table_rules.PLANNED_KINDS``; clocks
  with other kinds fall back to the reference engine.

Deals are drawn uniformly among those with the seats' colours, letter by letter (the same
law as ``rules.deals.deal_for_colours``), from a numpy generator so that both engines, and
every plan compared in a search, play exactly the same deals for a given seed.

Slips (``agents.slip_of``): with a slip rate above 0, each decision of each game also gets
three uniform random numbers (:func:`draw_slips`), drawn from a seed of their own so that the
deals do not change with the rate, and at rate 0 every game is exactly the careful one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from rules.cards import Card, Colour
from rules.clock import Clock
from rules.deals import Deal
from rules.layout import Layout, Move
from rules.referee import check_move
from rules.seats import Seats
from rules.validate import passes

from .agents import MOST_SLIP_RATE, rank_moves, slip_of, slipped_moves
from .agents_fast import CARDS_IN_PLAY, MISREAD_SHARE, play_many
from .plans import Plan
from .table_rules import TableRules, pack, rules_for
from .view import PublicMove, View

Engine = Literal["auto", "compiled", "reference"]
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SimResult:
    pass_rate: float
    interval: tuple[float, float]  # 95% Wilson score interval
    games: int

    def to_json(self) -> dict[str, object]:
        return {
            "pass_rate": round(self.pass_rate, 4),
            "interval": [round(self.interval[0], 4), round(self.interval[1], 4)],
            "games": self.games,
        }


def wilson(passed: int, games: int) -> tuple[float, float]:
    """95% Wilson score interval; sound at 0 and 1, unlike the normal approximation."""
    if games == 0:
        return (0.0, 1.0)
    p = passed / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    # At 0 or all passes the bound is exactly 0 or 1; say so rather than 3e-18.
    low = 0.0 if passed == 0 else max(0.0, centre - half)
    high = 1.0 if passed == games else min(1.0, centre + half)
    return (low, high)


# --- Deals ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slots:
    """Where each of the 12 dealt cards sits: every seat's hand, then every seat's set of 2
    (the order of ``deal_for_colours``)."""

    colour: npt.NDArray[np.int64]  # 0 Sun, 1 Moon
    seat: npt.NDArray[np.int64]
    extra: npt.NDArray[np.int64]


def slots_for(seats: Seats) -> Slots:
    colour, seat, extra = [], [], []
    for is_extra in (0, 1):
        for index, s in enumerate(seats.seats):
            for letter in s.extra if is_extra else s.hand:
                colour.append(0 if letter == "S" else 1)
                seat.append(index)
                extra.append(is_extra)
    return Slots(
        np.array(colour, dtype=np.int64),
        np.array(seat, dtype=np.int64),
        np.array(extra, dtype=np.int64),
    )


def draw_values(seats: Seats, games: int, seed: int) -> npt.NDArray[np.int64]:
    """Card values per slot, [games, 12]: each game takes a uniformly random ordered
    selection of distinct Sun values for the Sun slots and of Moon values for the Moon
    slots, so every deal with these colours is equally likely."""
    slots = slots_for(seats)
    rng = np.random.default_rng(seed)
    sun_perm = np.argsort(rng.random((games, 12)), axis=1) + 1
    moon_perm = np.argsort(rng.random((games, 12)), axis=1) + 1
    values = np.empty((games, CARDS_IN_PLAY), dtype=np.int64)
    sun_slots = np.flatnonzero(slots.colour == 0)
    moon_slots = np.flatnonzero(slots.colour == 1)
    values[:, sun_slots] = sun_perm[:, : len(sun_slots)]
    values[:, moon_slots] = moon_perm[:, : len(moon_slots)]
    return values


SLIP_NUMBERS = 3  # uniform numbers per decision: does it slip, how, which


def draw_slips(games: int, seed: int) -> npt.NDArray[np.float64]:
    """The slip random numbers of ``games`` games, [games, 12, 3], uniform in [0, 1).

    Their own stream (seed ``(seed, 7)``), so a game's deal is the same at every slip rate,
    and the games of two plans compared on the same seed slip at the same moments."""
    rng = np.random.default_rng([seed, 7])
    return rng.random((games, CARDS_IN_PLAY, SLIP_NUMBERS))


def slips_of_kind(
    slips: npt.NDArray[np.float64], kind: Literal["misread", "random"]
) -> npt.NDArray[np.float64]:
    """``slips`` (from :func:`draw_slips`) where every slip is of one ``kind``: a decision
    slips exactly when it did, and a slip that was of the other kind becomes one of this
    (``agents.slip_of``'s second number moved into that kind's share). At the slip rate
    times that kind's share of the mix (``agents_fast.MISREAD_SHARE`` for misreads), each kind
    alone slips as often as it does in the mix: what each kind costs."""
    out = slips.copy()
    if kind == "misread":
        out[:, :, 1] = slips[:, :, 1] * MISREAD_SHARE
    else:
        out[:, :, 1] = MISREAD_SHARE + slips[:, :, 1] * (1.0 - MISREAD_SHARE)
    return out


def no_slips(games: int) -> npt.NDArray[np.float64]:
    """Slip numbers that never slip (each decision's first number is 1, above any rate)."""
    return np.ones((games, CARDS_IN_PLAY, SLIP_NUMBERS))


def check_slip_rate(rate: float) -> float:
    """``rate`` if it is a slip rate the solver takes (0 to 0.5), else ValueError."""
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not math.isfinite(rate):
        raise ValueError(f"The slip rate must be a number from 0 to {MOST_SLIP_RATE}.")
    if not 0 <= rate <= MOST_SLIP_RATE:
        raise ValueError(f"The slip rate must be from 0 to {MOST_SLIP_RATE}, not {rate:g}.")
    return float(rate)


def deal_of(seats: Seats, values: npt.NDArray[np.int64]) -> Deal:
    """One row of ``draw_values`` as a rules.deals.Deal."""
    slots = slots_for(seats)
    hands: list[list[Card]] = [[] for _ in seats.seats]
    extras: list[list[Card]] = [[] for _ in seats.seats]
    for i in range(CARDS_IN_PLAY):
        colour = Colour.SUN if slots.colour[i] == 0 else Colour.MOON
        card = Card(colour, int(values[i]))
        (extras if slots.extra[i] else hands)[int(slots.seat[i])].append(card)
    return Deal(tuple(tuple(h) for h in hands), tuple(tuple(e) for e in extras))


# --- The reference engine ------------------------------------------------------------------

Player = Callable[[View], list[Move]]


@dataclass(frozen=True)
class GameRecord:
    moves: tuple[Move, ...]
    seats: tuple[int, ...]  # who placed each move
    passed: bool


class IllegalPlay(RuntimeError):
    """A simulated player offered no move the referee accepts (a player bug)."""


def play_reference(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    face_up: int,
    deal: Deal,
    player: Player = rank_moves,
    slip_rate: float = 0.0,
    slips: npt.NDArray[np.float64] | None = None,
) -> GameRecord:
    """Play one deal silently; ``player`` sees only the View it is handed.

    With ``slip_rate`` > 0 and ``slips`` (one game's [12, 3] row of :func:`draw_slips`), each
    decision may slip (``agents.slip_of``) and is then played by ``agents.slipped_moves``."""
    players = seats.players
    rules = rules_for(clock, seats, plan)
    hands = [list(h) for h in deal.hands]
    moves: list[Move] = []
    placers: list[int] = []
    public: list[PublicMove] = []
    face_up_left = face_up
    for t in range(CARDS_IN_PLAY):
        if players == 2 and t == 4:
            # Each player has placed two cards: the sets of 2 join the hands now.
            for index in range(players):
                hands[index].extend(deal.extras[index])
        seat = (rules.opener + t) % players
        view = View(
            seat=seat,
            clock=clock,
            seats=seats,
            plan=plan,
            hand=tuple(hands[seat]),
            board=tuple(public),
            own_cards=tuple(
                m.card if s == seat else None for m, s in zip(moves, placers, strict=True)
            ),
            face_up_left=face_up_left,
        )
        ranked = player(view)
        if slip_rate > 0 and slips is not None:
            u = slips[t]
            slip = slip_of(view, slip_rate, (float(u[0]), float(u[1]), float(u[2])))
            if slip is not None:
                ranked = slipped_moves(view, slip)
        move = _first_legal(clock, seats, moves, ranked, seat, hands[seat], face_up, rules.opener)
        moves.append(move)
        placers.append(seat)
        hands[seat].remove(move.card)
        if move.face_up:
            face_up_left -= 1
        public.append(
            PublicMove(
                seat=seat,
                segment=move.segment,
                colour=move.card.colour,
                face_up=move.face_up,
                value=move.card.value if move.face_up else None,
            )
        )
    # passes() is validate()'s verdict without the wording, which no simulated game reads.
    return GameRecord(tuple(moves), tuple(placers), passes(clock, Layout.from_moves(moves)))


def _first_legal(
    clock: Clock,
    seats: Seats,
    moves: list[Move],
    ranked: list[Move],
    seat: int,
    hand: list[Card],
    face_up: int,
    opener: int,
) -> Move:
    for move in ranked:
        # The referee knows only the colours (Seats), so the simulator itself makes sure
        # the card really is in this player's hand.
        if move.card not in hand:
            continue
        reason = check_move(
            clock, seats, tuple(moves), move, seat, opener=opener, face_up_budget=face_up
        )
        if reason is None:
            return move
    raise IllegalPlay(f"seat {seat + 1} offered no legal move")


# --- Both engines --------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Outcomes of many games, with every move (for comparing engines)."""

    passed: npt.NDArray[np.bool_]
    moves: npt.NDArray[np.int64]  # [games, 12, 4]: seat, slot, position, face_up


def play_compiled(
    rules: TableRules,
    seats: Seats,
    values: npt.NDArray[np.int64],
    face_up: int,
    slip_rate: float = 0.0,
    slips: npt.NDArray[np.float64] | None = None,
) -> Batch:
    slots = slots_for(seats)
    if slips is None or slip_rate <= 0:
        slip_rate, slips = 0.0, no_slips(values.shape[0])
    table = pack(rules)
    moves = np.zeros((values.shape[0], CARDS_IN_PLAY, 4), dtype=np.int64)
    passed = play_many(
        np.ascontiguousarray(values), slots.colour, slots.seat, slots.extra,
        table.ints, table.floats, table.allowed, table.scalars, table.info,
        face_up, moves, float(slip_rate), np.ascontiguousarray(slips, dtype=np.float64),
    )  # fmt: skip
    return Batch(passed, moves)


def pass_count(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    face_up: int,
    values: npt.NDArray[np.int64],
    engine: Engine = "auto",
    slip_rate: float = 0.0,
    slips: npt.NDArray[np.float64] | None = None,
) -> int:
    """How many of the given deals the plan passes; with ``slip_rate`` and ``slips`` (the
    :func:`draw_slips` rows of the same games), with slips."""
    rules = rules_for(clock, seats, plan)
    if engine == "compiled" or (engine == "auto" and rules.compiled_ok):
        if not rules.compiled_ok:
            raise ValueError("the compiled engine does not model every rule of this clock")
        return int(play_compiled(rules, seats, values, face_up, slip_rate, slips).passed.sum())
    return sum(
        play_reference(
            clock, seats, plan, face_up, deal_of(seats, row), rank_moves, slip_rate,
            None if slips is None else slips[g],
        ).passed
        for g, row in enumerate(values)
    )  # fmt: skip


def simulate(
    clock: Clock,
    seats: Seats,
    plan: Plan,
    face_up: int,
    games: int,
    seed: int,
    engine: Engine = "auto",
    slip_rate: float = 0.0,
) -> SimResult:
    """Play ``games`` deals consistent with the seats' colours silently with ``plan``.

    Deterministic under ``seed``. ``face_up`` is the group's budget of face-up cards.
    ``slip_rate`` (0 to 0.5) is the chance that a decision slips (``agents.slip_of``).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if not 0 <= face_up <= seats.most_face_up:
        raise ValueError(f"face_up must be 0..{seats.most_face_up}, not {face_up}")
    slip_rate = check_slip_rate(slip_rate)
    values = draw_values(seats, games, seed)
    slips = draw_slips(games, seed) if slip_rate > 0 else None
    passed = pass_count(clock, seats, plan, face_up, values, engine, slip_rate, slips)
    return SimResult(passed / games, wilson(passed, games), games)


# --- Inputs shared by the hint and simulate commands (and any API) -------------------------


def table_from_arguments(
    clock_id: str | None,
    clock_file: str | None,
    colours: str,
    face_up: int | None,
    base_rules: bool = False,
) -> tuple[Clock, Seats, int]:
    """The clock, the seats and the face-up budget a command line names.

    ValueError with one sentence for anything wrong: an unknown clock, a clock file that
    is not a clock, colours that are not a table, a face-up budget outside 0..players+3, and
    an untranscribed clock unless ``base_rules`` (play it under the base rules only).
    """
    # Imported here: the Django-free callers of this module never need the inputs layer.
    from rules.inputs import clock_from_argument
    from rules.seats import parse_colours

    # A RulesError is a ValueError already, worded in every language: let it through as is.
    clock = clock_from_argument(clock_id, clock_file)
    seats = parse_colours(colours)
    if not clock.transcribed:
        if not base_rules:
            raise ValueError(
                f"Clock {clock.name} is not transcribed yet: its special rules are unknown. "
                "Transcribe it (--clock-file), or add --base-rules to use the base rules only."
            )
        clock = clock.base_rules_only()
    budget = seats.players if face_up is None else face_up
    if not 0 <= budget <= seats.most_face_up:
        raise ValueError(
            f"--face-up must be 0..{seats.most_face_up} with {seats.players} players, not {budget}."
        )
    return clock, seats, budget
