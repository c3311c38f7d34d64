"""The clock pages (campaigns.definitions.views): hidden chapters, unknown clocks, earlier
campaigns' attempts."""

from __future__ import annotations

from campaigns.models import Campaign, Group
from tests.campaigns.shapes import AsRole, PageUrl, Tap


def test_clocks_of_unopened_chapters_stay_hidden(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    hidden = client.get(group_url(group, "clocks/3-1/"))
    assert b"data-clock" not in hidden.content and b"spoilers=1" in hidden.content
    shown = client.get(group_url(group, "clocks/3-1/") + "?spoilers=1")
    assert b'data-clock="3-1"' in shown.content


def test_an_unknown_clock_page_is_404(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    assert as_role("owner").get(group_url(group, "clocks/12-9/")).status_code == 404


def test_the_clock_page_keeps_attempts_of_earlier_campaigns(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    client.post(
        group_url(group, "settings/"), {"kind": "normal", "start_chapter": 1, "confirm": "on"}
    )
    assert group.current_campaign() != campaign
    body = client.get(group_url(group, "clocks/1-1/")).content.decode()
    assert "earlier campaign" in body and "No attempt at this clock yet." not in body
