"""What if: the hint's plan played with the group's own targets (and opener), next to the
suggested plan on the very same deals, so the difference is the plans', not the luck."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from solver.core.agents import compiled_engine_models
from solver.core.plans import Plan
from solver.core.simulate import SimResult, simulate
from solver.errors import HintError
from solver.models import HintRequest

WHAT_IF_GAMES = 2000  # ~40 ms on the compiled engine; the reference engine gets 200


@dataclass(frozen=True)
class WhatIf:
    mine: SimResult  # the group's version
    suggested: SimResult  # the hint's plan, on the very same deals


def what_if(hint: HintRequest, targets: list[float], opener: int | None = None) -> WhatIf:
    """Simulate the group's version of a finished hint's plan; HintError at ``targets``
    when the hint has no plan yet or the targets do not make a plan.

    Inline, not a job, because it is small: 2 × WHAT_IF_GAMES on the compiled engine take
    well under a second, less than a queue round trip; the reference engine (clocks with rule
    kinds the compiled engine does not model) gets a tenth of the games.
    """
    if not hint.result:
        raise HintError(_("This hint has no plan yet."), "targets")
    seats = hint.seats()
    data = dict(hint.result["plan"])
    data["targets"] = targets
    if opener is not None:
        data["opener"] = opener
    try:
        plan = Plan.from_json(data, players=seats.players)
    except ValueError as error:
        raise HintError(str(error), "targets") from None
    suggested = Plan.from_json(hint.result["plan"], players=seats.players)
    clock = hint.clock()
    games = WHAT_IF_GAMES if compiled_engine_models(clock) else WHAT_IF_GAMES // 10
    return WhatIf(
        mine=simulate(clock, seats, plan, hint.face_up, games, seed=1),
        suggested=simulate(clock, seats, suggested, hint.face_up, games, seed=1),
    )
