"""A campaign's moves, in memory: what an attempt, a skip and a retrieval change on the
campaign and progress rows of a ``CampaignState``, saving nothing (docs/game.md, "After an
attempt"). The one home of these rules:

- the services (``campaigns.play.services``) check, lock, move, save and write the event;
- the demo (``campaigns.demo``) moves thousands of unsaved campaigns through the same
  functions and bulk-writes the rows they leave.

``snapshot`` is what a change overwrites, as its event's ``before`` stores it (undo puts it
back). The checks (is it the next clock, is it in the Sleeve) stay with the services: the
demo only makes legal moves, and its test replays them through the services' checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from campaigns.models import Campaign, ClockProgress
from campaigns.play.state import CampaignState, Status, clock_ids
from rules.game import BONUS_TOKENS


def fresh_state(campaign: Campaign) -> CampaignState:
    """An unsaved campaign's state at its start: every clock of its kind upcoming, in play
    order, no Bonus token flipped."""
    rows = [
        ClockProgress(campaign=campaign, clock_id=clock, position=position)
        for position, clock in enumerate(clock_ids(campaign.kind))
    ]
    return CampaignState(campaign, rows)


def snapshot(campaign: Campaign, rows: Iterable[ClockProgress]) -> dict[str, Any]:
    """What a change of these rows overwrites: the campaign's tokens, stack and completion,
    and the rows' progress."""
    return {
        "bonus_tokens": campaign.bonus_tokens,
        "stack_top": list(campaign.stack_top),
        "completed": campaign.completed.isoformat() if campaign.completed else None,
        "progress": {
            r.clock_id: {"status": r.status, "attempts": r.attempts, "failures": r.failures}
            for r in rows
        },
    }


def attempt(state: CampaignState, clock: str, passed: bool, now: datetime) -> ClockProgress:
    """An attempt at ``clock``: a pass turns the Bonus tokens face down and takes the clock
    out of the game (complete, at ``now``, once every clock is passed); a failure flips one
    more token (at most BONUS_TOKENS). The row changed."""
    campaign = state.campaign
    row = state.by_id[clock]
    row.attempts += 1
    if passed:
        row.status = Status.PASSED
        campaign.bonus_tokens = 0
        campaign.stack_top = [c for c in campaign.stack_top if c != clock]
        if state.completed:
            campaign.completed = now
    else:
        row.failures += 1
        campaign.bonus_tokens = min(BONUS_TOKENS, campaign.bonus_tokens + 1)
    return row


def skip(state: CampaignState, clock: str) -> ClockProgress:
    """``clock`` into the Sleeve of Regrets; the Bonus tokens face down. The row changed."""
    campaign = state.campaign
    row = state.by_id[clock]
    row.status = Status.SLEEVE
    campaign.bonus_tokens = 0
    campaign.stack_top = [c for c in campaign.stack_top if c != clock]
    return row


def retrieve(state: CampaignState, clocks: Sequence[str]) -> list[ClockProgress]:
    """``clocks`` from the Sleeve back on top of the stack, the first given played first.
    The rows changed."""
    rows = [state.by_id[c] for c in clocks]
    for row in rows:
        row.status = Status.UPCOMING
    state.campaign.stack_top = list(clocks) + [
        c for c in state.campaign.stack_top if c not in clocks
    ]
    return rows
