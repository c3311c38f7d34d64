"""campaigns.play.chapter_map: the chapter map, drawn through its template, once per change
for the phones at a table."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from campaigns.models import Attempt, Campaign, Group
from campaigns.play.chapter_map import chapter_map
from campaigns.play.state import campaign_state

pytestmark = pytest.mark.django_db
Play = Callable[..., Attempt]


def test_every_numbered_clock_is_a_link_to_its_page(group: Group, campaign: Campaign) -> None:
    svg = chapter_map(campaign_state(campaign), group.pk)
    links = re.findall(r'<a href="/groups/\d+/clocks/(\d+-\d)/"', svg)
    assert len(links) == 40 and links[0] == "1-1" and links[-1] == "10-4"


def test_a_clock_shows_its_state_and_attempts(group: Group, campaign: Campaign, play: Play) -> None:
    play(campaign, "failed")
    with translation.override("en"):
        svg = chapter_map(campaign_state(campaign), group.pk)
    name = "1-1: failed, being retried (1)"
    assert (
        f'<a href="/groups/{group.pk}/clocks/1-1/" class="map-clock retrying" aria-label="{name}">'
        in svg
    )
    assert f"<title>{name}</title>" in svg


def test_the_map_is_a_group_of_links_not_an_image(group: Group, campaign: Campaign) -> None:
    """Links inside role="img" are hidden from screen readers (axe: nested-interactive)."""
    svg = chapter_map(campaign_state(campaign), group.pk)
    assert svg.startswith('<svg class="chapter-map"') and 'role="group"' in svg.split(">")[0]
    assert len(re.findall(r'<a href="[^"]+" class="map-clock [a-z-]+" aria-label="\d', svg)) == 40


@pytest.mark.parametrize("language", ["nl", "ja"])
def test_coordinates_keep_their_decimal_point_in_every_language(
    group: Group, campaign: Campaign, language: str
) -> None:
    with translation.override(language):
        svg = chapter_map(campaign_state(campaign), group.pk)
    assert '<circle cx="42.0" cy="44.0" r="16"/>' in svg and "42,0" not in svg


def test_labels_are_escaped(
    group: Group, campaign: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "campaigns.play.chapter_map.state_labels",
        lambda: dict.fromkeys(
            ["passed", "retrying", "sleeve", "next", "upcoming", "locked"], "<b>&</b>"
        ),
    )
    svg = chapter_map(campaign_state(campaign), group.pk)
    assert "<title>1-1: &lt;b&gt;&amp;&lt;/b&gt;</title>" in svg and "<b>" not in svg


def test_the_phones_at_a_table_share_one_drawing_of_a_board(
    group: Group, campaign: Campaign, as_role: Callable[[str], Client]
) -> None:
    first = as_role("member").get(f"/groups/{group.pk}/", headers={"hx-request": "true"})
    second = as_role("viewer").get(f"/groups/{group.pk}/", headers={"hx-request": "true"})
    drawn = "campaigns/chapter_map.svg"
    assert drawn in [t.name for t in first.templates]
    assert drawn not in [t.name for t in second.templates]
    assert _map(first) == _map(second)


def test_a_changed_board_is_drawn_again(
    group: Group,
    campaign: Campaign,
    as_role: Callable[[str], Client],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    phone = as_role("viewer")
    assert "map-clock retrying" not in _map(phone.get(f"/groups/{group.pk}/"))
    with django_capture_on_commit_callbacks(execute=True):
        as_role("member").post(
            f"/groups/{group.pk}/record/", {"clock": "1-1", "players": "3", "action": "failed"}
        )
    assert "map-clock retrying" in _map(phone.get(f"/groups/{group.pk}/"))


def _map(response: Any) -> str:
    page = response.content.decode()
    return page[page.index("<svg") : page.index("</svg>")]
