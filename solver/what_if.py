"""What if: the hint's plan played with the group's own targets (and opener), next to the
suggested plan on the very same deals, so the difference is the plans', not the luck."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from config.errors import refusal_text
from rules.errors import RulesError
from solver.core.table.plans import Plan
from solver.core.table.simulate import SimResult, draw_values, pass_count, wilson
from solver.core.table.table_rules import compiled_engine_models
from solver.errors import HintError, HintLimitReached
from solver.models import HintRequest
from solver.results import pick

# "What if" runs inline, in the web process, so its cost is bounded. The compiled engine
# plays WHAT_IF_GAMES deals for each plan; the reference engine (rule kinds the compiled
# engine does not model) costs milliseconds a game or tens of them, so it plays rounds of
# WHAT_IF_ROUND deals until WHAT_IF_SECONDS are spent (at least one round, at most
# WHAT_IF_GAMES // 10 deals). Each user may ask WHAT_IF_PER_MINUTE times a minute.
WHAT_IF_GAMES = 1000
WHAT_IF_ROUND = 4
WHAT_IF_SECONDS = 0.2
WHAT_IF_PER_MINUTE = 10


@dataclass(frozen=True)
class WhatIf:
    mine: SimResult  # the group's version
    suggested: SimResult  # the hint's plan, on the very same deals


def what_if(
    hint: HintRequest,
    targets: list[float],
    opener: int | None = None,
    user: Any = None,
    offer: int = 0,
) -> WhatIf:
    """Simulate the group's version of one of a finished hint's plans (``offer``: its index
    among the plans offered, ``solver.results.offered``; 0 is the recommended one);
    HintError at ``targets`` when the hint has no plan yet or the targets do not make a
    plan, HintLimitReached when ``user`` asked more than WHAT_IF_PER_MINUTE times in the
    last minute.

    Inline, not a job, because it is small and bounded (see WHAT_IF_GAMES): less than a
    queue round trip.
    """
    if not hint.result:
        raise HintError(_("This hint has no plan yet."), "targets")
    seats = hint.seats()
    chosen = pick(hint.result, offer)[1]
    suggested = hint.read_plan(chosen.get("plan"))
    if suggested is None:
        raise HintError(_("This hint was stored without its plan."), "targets")
    if user is not None:
        _count(user)
    data = dict(chosen["plan"])
    data["targets"] = targets
    if opener is not None:
        data["opener"] = opener
    try:
        plan = Plan.from_json(data, players=seats.players)
    except ValueError as error:
        raise HintError(str(error), "targets") from None
    try:
        clock = hint.clock()
    except RulesError as error:  # a definition saved before today's limits (MAX_RULES)
        raise HintError(refusal_text(error), "targets") from None
    if compiled_engine_models(clock):
        round_games, most_games = WHAT_IF_GAMES, WHAT_IF_GAMES
    else:
        round_games, most_games = WHAT_IF_ROUND, WHAT_IF_GAMES // 10
    ends = time.monotonic() + WHAT_IF_SECONDS
    games = mine = theirs = 0
    last_round = 0.0
    # Another round only if one as long as the last still fits in the time left.
    while games < most_games and (games == 0 or time.monotonic() + last_round <= ends):
        started = time.monotonic()
        values = draw_values(seats, round_games, seed=1 + games)
        mine += pass_count(clock, seats, plan, hint.face_up, values)
        theirs += pass_count(clock, seats, suggested, hint.face_up, values)
        games += round_games
        last_round = time.monotonic() - started
    return WhatIf(
        mine=SimResult(mine / games, wilson(mine, games), games),
        suggested=SimResult(theirs / games, wilson(theirs, games), games),
    )


def _count(user: Any) -> None:
    """Admit one "What if" for ``user``, at most WHAT_IF_PER_MINUTE in any 60 seconds;
    HintLimitReached past that. Each admitted ask holds one of WHAT_IF_PER_MINUTE slots in
    the cache for 60 s, taken with ``cache.add`` (atomic, in Redis too: shared by every web
    process), so the window slides: no burst of twice the limit across a minute's turn."""
    for slot in range(WHAT_IF_PER_MINUTE):
        if cache.add(f"solver:what-if:{user.pk}:{slot}", 1, timeout=60):
            return
    raise HintLimitReached(
        _("“What if” was asked %(n)d times this minute; try again in a minute.")
        % {"n": WHAT_IF_PER_MINUTE}
    )
