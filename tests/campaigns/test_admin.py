"""campaigns.admin: staff can look into a group; the state machine's rows stay read-only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from campaigns.models import Attempt, Campaign, Group

pytestmark = pytest.mark.django_db
Play = Callable[..., Attempt]


@pytest.mark.parametrize(
    "model", ["group", "membership", "campaign", "session", "attempt", "clocktranscription"]
)
def test_every_list_opens(campaign: Campaign, play: Play, staff: Client, model: str) -> None:
    play(campaign, "failed")
    assert staff.get(f"/admin/campaigns/{model}/").status_code == 200


def test_the_group_list_shows_its_groups(group: Group, staff: Client) -> None:
    assert "Tuesday table" in staff.get("/admin/campaigns/group/").content.decode()


def test_a_groups_name_can_be_corrected(group: Group, staff: Client) -> None:
    response = staff.post(
        f"/admin/campaigns/group/{group.pk}/change/",
        {
            "name": "Wednesday table",
            "share_with_community": "on",
            **_empty_inlines(group),
        },
    )
    group.refresh_from_db()
    assert response.status_code == 302 and group.name == "Wednesday table"


def test_groups_are_not_added_here(staff: Client) -> None:
    assert staff.get("/admin/campaigns/group/add/").status_code == 403


def test_a_campaign_is_shown_but_not_changed(group: Group, staff: Client) -> None:
    campaign = group.current_campaign()
    url = f"/admin/campaigns/campaign/{campaign.pk}/change/"
    assert staff.get(url).status_code == 200
    staff.post(url, {"kind": "rebirth", "bonus_tokens": 3})
    campaign.refresh_from_db()
    assert (campaign.kind, campaign.bonus_tokens) == (Campaign.Kind.NORMAL, 0)


def _empty_inlines(group: Group) -> dict[str, object]:
    """The inline formsets' management forms as the change page renders them."""
    players = list(group.players.order_by("id"))
    data: dict[str, object] = {
        "players-TOTAL_FORMS": len(players),
        "players-INITIAL_FORMS": len(players),
    }
    for i, player in enumerate(players):
        data[f"players-{i}-id"] = player.pk
        data[f"players-{i}-group"] = group.pk
        data[f"players-{i}-name"] = player.name
    for prefix in ("memberships", "campaigns"):
        count = getattr(group, prefix).count()
        data[f"{prefix}-TOTAL_FORMS"] = count
        data[f"{prefix}-INITIAL_FORMS"] = count
    return data
