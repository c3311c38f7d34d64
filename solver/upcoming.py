"""Where tables will ask next: the clocks the groups are about to play, read from their
campaigns' state (``campaigns.play.state``), so that the prefill (``solver.prefill``) fills
those games first."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.definitions.played import played_definition
from campaigns.models import Attempt, Group
from campaigns.play.state import campaign_state
from rules.clock import Clock
from rules.game import PLAYER_COUNTS, chapter_of
from rules.seats import most_face_up


@dataclass(frozen=True)
class Upcoming:
    """A clock a group will ask about, as its hint would be asked: the definition the
    group plays it by, a table size and that table's face-up budget now."""

    clock: Clock
    players: int
    face_up: int


def upcoming() -> tuple[list[Upcoming], list[Upcoming]]:
    """Two lists, each group after group: the clocks each group is about to play (the top
    of its stack, then its Sleeve, any of which a session may start with), and the other
    clocks of its chapter still on its stack, in stack order. At the size the group last
    played at (every size while it has not played); with its Bonus tokens now."""
    now: list[Upcoming] = []
    later: list[Upcoming] = []
    for group in Group.objects.order_by("id"):
        campaign = group.campaigns.order_by("-id").first()
        if campaign is None:
            continue
        state = campaign_state(campaign)
        stack = state.stack()
        chapter = state.chapter
        last = (
            Attempt.objects.filter(campaign__group=group)
            .order_by("-id")
            .values_list("players", flat=True)
            .first()
        )
        sizes = list(PLAYER_COUNTS) if last is None else [last]
        chapter_rest = [c for c in stack[1:] if chapter_of(c) == chapter]
        for clocks, into in ((stack[:1] + state.sleeve, now), (chapter_rest, later)):
            for clock_id in clocks:
                # As the hint form asks: the group's definition, others' where it sees them.
                clock = played_definition(group, clock_id, community=True, state=state).clock
                into.extend(
                    Upcoming(clock, n, min(state.face_up(n), most_face_up(n))) for n in sizes
                )
    return now, later
