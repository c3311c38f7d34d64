"""The statistics page (campaigns.statistics.views)."""

from __future__ import annotations

from campaigns.models import Group
from tests.campaigns.shapes import AsRole, PageUrl, Tap


def test_statistics_draw_svg_charts(
    group_url: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "passed")
    content = client.get(group_url(group, "statistics/")).content.decode()
    assert content.count('<svg class="chart ') == 3


def test_statistics_of_a_campaign_without_attempts_say_so(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(group_url(group, "statistics/")).content.decode()
    assert "No attempt recorded here yet" in body and 'class="chart stats-progress"' not in body
