"""What a hint asks: the clock, the colours on the table, the face-up budget and, if the
table gives them, the players' names in seat order, checked field by field
(``parse_input``), and the start values a group's form offers."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.definitions.played import played_definition
from campaigns.models import NAME_LENGTH, Group
from campaigns.play.state import campaign_state
from campaigns.statistics.hints import table_rate
from campaigns.statistics.table_rate import rate_step
from config.errors import refusal_text
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.errors import RulesError
from rules.seats import Seats, most_face_up, parse_colours
from solver.core import version
from solver.core.search.search import SLIP_RATE
from solver.core.table.agents import MOST_SLIP_RATE
from solver.core.table.simulate import check_slip_rate
from solver.errors import HintError

# HintInput.source for a clock whose special rules nobody knows: the base rules only.
BASE_RULES = "base_rules"


@dataclass(frozen=True)
class HintInput:
    clock: Clock  # as asked: the catalogue's, the group's transcription, or a definition
    seats: Seats
    face_up: int
    base_rules: bool = False
    # Where ``clock`` came from: DefinitionChoice.source, "given" (a definition sent with the
    # request) or BASE_RULES.
    source: str = "shipped"
    groups: int = 0  # for a community definition: the tables that typed it
    # The players' names in seat (play) order, for the words; empty: "Seat 1", "Seat 2"….
    # Not part of the input hash: names change the words, never the plan.
    names: tuple[str, ...] = ()
    slip_rate: float = SLIP_RATE  # the chance that a simulated decision slips
    # Why that rate: "request" (asked for), "table" (the group's own, ``table_slip_rate``) or
    # "default" (SLIP_RATE). Not part of the input hash: the rate itself is.
    slip_rate_source: str = "default"

    def input_hash(
        self,
        effort: float,
        seed: int,
        odds_samples: int | None = None,
        prior: dict[str, Any] | None = None,
    ) -> str:
        """Same hash ⇔ same job: the full clock definition (so a new transcription is a
        new input), the colours in canonical form, the budget, the solver settings, the
        clock's prior the search starts from (``solver.clock_priors``) and the engine's
        version (``solver.core.version``: a new engine reuses no old result; a new search
        reuses a result of the old one, as the plan book answers with it)."""
        key = {
            "clock": self.clock.to_json(),
            "base_rules": self.base_rules,
            "colours": self.seats.format(),
            "face_up": self.face_up,
            "effort": effort,
            "seed": seed,
            "odds_samples": odds_samples,
            "slip_rate": self.slip_rate,
            "prior": prior,
            "solver": version.ENGINE_VERSION,  # the name kept from version 26 on
        }
        blob = json.dumps(key, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


def parse_input(
    clock: object,
    colours: object,
    face_up: object,
    base_rules: bool = False,
    group: Group | None = None,
    community: bool = False,
    names: object = None,
    slip_rate: object = None,
) -> HintInput:
    """Check a request field by field; HintError names the first bad field.

    ``clock`` is a catalogue id or a clock definition object. For an id with a ``group``,
    the group's best definition (``campaigns.definitions.played.played_definition``): its own, the
    promoted or the shipped one, and with ``community`` a confirmed definition of other
    tables when the group has none. When none of these knows the clock's special rules, the
    hint plays by the base rules (``base_rules`` True, source ``BASE_RULES``); asking for
    ``base_rules`` skips other tables' definitions. ``face_up`` may be None: the player
    count. ``names`` may be None (the words say "Seat 1"…) or one name per seat
    (``parse_names``).
    ``slip_rate`` may be None: with a ``group`` whose table has its own rate, that rate
    (``table_slip_rate``), else SLIP_RATE (0.05); otherwise a number from 0 to 0.5.
    """
    parsed_clock, source, groups = _parse_clock(clock, group, community and not base_rules)
    # Nothing known about the clock's special rules: the base rules, and the hint says so.
    base_rules = not parsed_clock.transcribed
    if base_rules:
        source, groups = BASE_RULES, 0
    if not isinstance(colours, str):
        raise HintError(_("Give the colours as text, like SSMM/MMSS/SMSM."), "colours")
    try:
        seats = parse_colours(colours)
    except RulesError as error:
        raise HintError(
            _("These colours are not a table: %(reason)s") % {"reason": refusal_text(error)},
            "colours",
        ) from None
    if face_up is None or face_up == "":
        budget = seats.players
    else:
        try:
            budget = int(str(face_up))
        except ValueError:
            raise HintError(_("The face-up budget is a whole number."), "face_up") from None
    if not 0 <= budget <= seats.most_face_up:
        raise HintError(
            _("With %(players)s players the face-up budget is 0 to %(most)s.")
            % {"players": seats.players, "most": seats.most_face_up},
            "face_up",
        )
    seated = parse_names(names, seats.players)
    rate, rate_source = _slip_rate(slip_rate, group)
    return HintInput(
        parsed_clock,
        seats,
        budget,
        bool(base_rules),
        source,
        groups,
        seated,
        rate,
        rate_source,
    )


def parse_names(names: object, players: int) -> tuple[str, ...]:
    """The players' names in seat order, trimmed: exactly one per seat, none empty, none
    twice (ignoring case), each at most NAME_LENGTH characters. None: no names (empty)."""
    if names is None:
        return ()
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise HintError(_("Give the names as a list of text, one per seat in play order."), "names")
    trimmed = tuple(" ".join(name.split()) for name in names)
    if len(trimmed) != players:
        raise HintError(
            ngettext(
                "%(count)d name for %(players)d seats: give one name per seat, in play order.",
                "%(count)d names for %(players)d seats: give one name per seat, in play order.",
                len(trimmed),
            )
            % {"count": len(trimmed), "players": players},
            "names",
        )
    seen: set[str] = set()
    for seat, name in enumerate(trimmed, start=1):
        if not name:
            raise HintError(
                _("Seat %(seat)d has no name: give every seat a name, or none.") % {"seat": seat},
                "names",
            )
        if len(name) > NAME_LENGTH:
            raise HintError(
                _("A name has at most %(max)d characters.") % {"max": NAME_LENGTH}, "names"
            )
        if name.casefold() in seen:
            raise HintError(
                _("%(name)s sits at two seats: give each seat its own name.") % {"name": name},
                "names",
            )
        seen.add(name.casefold())
    return trimmed


def table_slip_rate(group: Group) -> float | None:
    """The rate a hint for ``group`` plans at when the request gives none: the table's own
    estimate (``campaigns.statistics.hints.table_rate``) rounded to the nearest of a few
    steps, so that tables with similar rates share plan-book entries; None while the table
    has too few hinted clocks for an estimate."""
    estimate = table_rate(group).slip_rate
    return None if estimate is None else rate_step(estimate)


def _slip_rate(value: object, group: Group | None) -> tuple[float, str]:
    """The slip rate to plan at and why ("request", "table" or "default")."""
    if value is None or value == "":
        table = None if group is None else table_slip_rate(group)
        return (SLIP_RATE, "default") if table is None else (table, "table")
    try:
        return check_slip_rate(float(str(value))), "request"
    except ValueError:
        raise HintError(
            _("The slip rate is a number from 0 to %(most)s, like 0.05 for a slip every 20 moves.")
            % {"most": MOST_SLIP_RATE},
            "slip_rate",
        ) from None


def _parse_clock(clock: object, group: Group | None, community: bool) -> tuple[Clock, str, int]:
    """The clock, where it came from, and how many tables typed it (community only)."""
    if isinstance(clock, str):
        try:
            clock_id = get_clock(clock).id
        except RulesError:
            raise HintError(
                _("Unknown clock %(clock)s: clocks are 1-1 … 10-4 and rebirth.")
                % {"clock": clock[:20]},
                "clock",
            ) from None
        if group is not None:
            choice = played_definition(group, clock_id, community=community)
            return choice.clock, choice.source, choice.groups
        return get_clock(clock_id), "shipped", 0
    if isinstance(clock, dict):
        try:
            return Clock.from_json(clock), "given", 0
        except RulesError as error:
            raise HintError(
                _("This is not a clock definition: %(reason)s") % {"reason": refusal_text(error)},
                "clock",
            ) from None
    raise HintError(_("Give a clock id like 1-1, or a clock definition."), "clock")


def group_defaults(group: Group, players: int) -> tuple[str | None, int]:
    """The group's next clock and its face-up budget (players + flipped Bonus tokens)."""
    state = campaign_state(group.current_campaign())
    return state.next_clock, min(state.face_up(players), most_face_up(players))
