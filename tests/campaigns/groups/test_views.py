"""The group's pages: the dashboard, the settings page (a new campaign, its confirmation
box)."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Campaign, Group
from campaigns.play.state import campaign_state
from tests.campaigns.shapes import AsRole, PageUrl, Tap


def test_the_dashboard_lists_my_groups(group: Group, as_role: AsRole) -> None:
    response = as_role("member").get("/")
    assert response.status_code == 200
    assert b"Tuesday table" in response.content and b"1-1" in response.content


def test_the_dashboard_hides_other_groups(group: Group, as_role: AsRole) -> None:
    assert b"Tuesday table" not in as_role("outsider").get("/").content


def test_the_dashboard_creates_a_group(
    group_url: PageUrl, alice: User, login: Callable[[User], Client]
) -> None:
    response = login(alice).post("/", {"name": "Fridays", "players": "Ann\nBen\n"})
    group = Group.objects.get(name="Fridays")
    assert response.status_code == 302 and response["Location"] == group_url(group)
    assert group.players.count() == 2


def test_a_too_long_group_name_is_a_form_error(
    alice: User, login: Callable[[User], Client]
) -> None:
    response = login(alice).post("/", {"name": "x" * 81})
    assert response.status_code == 400
    assert "name" in response.context["form"].errors and not Group.objects.exists()


def test_the_settings_page_starts_a_campaign_mid_game(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("member").post(
        group_url(group, "settings/"), {"kind": "normal", "start_chapter": 5}
    )
    assert response.status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "5-1"


def test_the_settings_page_marks_clocks_already_passed(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    data = {"kind": "normal", "start_chapter": 3, "passed": ["3-1", "3-2", "3-3"]}
    assert as_role("owner").post(group_url(group, "settings/"), data).status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "3-4"


def test_the_settings_page_refuses_an_early_rebirth(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        group_url(group, "settings/"), {"kind": "rebirth", "start_chapter": 1}
    )
    assert response.status_code == 400 and response.context["form"].has_error("kind")


def test_leaving_a_campaign_in_progress_needs_the_confirmation_box(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    response = client.post(group_url(group, "settings/"), {"kind": "normal", "start_chapter": 4})
    assert response.status_code == 400 and response.context["form"].has_error("confirm")
    assert group.current_campaign() == campaign


def test_a_confirmed_new_campaign_replaces_the_one_in_progress(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    data = {"kind": "normal", "start_chapter": 4, "confirm": "on"}
    assert client.post(group_url(group, "settings/"), data).status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "4-1"


def test_a_campaign_not_yet_played_is_replaced_without_confirmation(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(group_url(group, "settings/")).content.decode()
    assert 'name="confirm"' not in body


def test_the_confirmation_box_is_shown_while_a_campaign_is_in_progress(
    group_url: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    body = client.get(group_url(group, "settings/")).content.decode()
    assert re.search(r'<label class="check" for="id_confirm"><input type="checkbox"', body)
