"""One evening at a Dutch table, for the tests that visit every page of a group: the words
on the pages, the accessibility audit and the phone width.

The names are long (Dutch, on purpose: the longest words the pages must fit), the game is
some way in (a failed clock skipped into the Sleeve, the next one played), one session is
filled in and a viewer looks on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Campaign, Group, Membership, Session
from campaigns.play.services import record_attempt, skip


@dataclass(frozen=True)
class Evening:
    owner: User
    group: Group
    campaign: Campaign
    session: Session

    def pages(self) -> list[str]:
        """The pages of the group its owner opens with GET (HTML: not the API, not the
        downloads); a test adds the pages of what it made (a hint, an import)."""
        g = f"/groups/{self.group.pk}/"
        return [
            "/",
            g,
            g + "table/",
            g + "sessions/",
            f"{g}sessions/{self.session.pk}/",
            g + "sleeve/",
            g + "statistics/",
            g + "members/",
            g + "settings/",
            g + "clocks/1-1/",
            g + "clocks/1-2/",
            g + "clocks/1-3/edit/",
            f"/hints/new/?group={self.group.pk}",
            "/hints/",
            "/accounts/token/",
            "/accounts/password_change/",
            "/offline/",
        ]


def an_evening(owner: User, viewer: User | None = None, second: str = "passed") -> Evening:
    """Clock 1-1 failed and skipped into the Sleeve, then clock 1-2 ``second`` ("passed" or
    "failed"), at a table of three in one session; ``viewer`` joins as a viewer."""
    group = create_group(owner, "Dinsdagavondtafel", ["Annemarie", "Bartholomeus", "Cleo"])
    if viewer is not None:
        Membership.objects.create(group=group, user=viewer, role=Membership.Role.VIEWER)
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, owner, "1-1", "failed", 3, session=session)
    skip(campaign, owner, "1-1")
    campaign.refresh_from_db()
    record_attempt(campaign, owner, "1-2", second, 3, session=session)
    return Evening(owner, group, campaign, session)
