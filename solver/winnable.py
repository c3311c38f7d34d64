"""The solver's judge for ``campaigns.winnable``: was a failed attempt's layout winnable?

Registered by ``solver.apps`` when Django loads. The solver core (and numba) is imported on
the first judgement, not at start, so commands and processes that never judge a layout do
not pay for loading it.
"""

from __future__ import annotations

from typing import Any

from rules.clock import Clock


def judge_attempt(clock: Clock, layout: str, players: int) -> dict[str, Any]:
    """``postmortem --json`` for the layout as recorded, at the attempt's table size."""
    from solver.core.oracle.postmortem import postmortem_of_text

    return postmortem_of_text(clock, layout, players).to_json()
