"""Undo then Redo in Chromium, with htmx swapping the board, on the Play page and in table
mode at 390 px: Redo appears beside Undo once something is undone, puts the change back,
and goes away when there is nothing left to redo."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group
from campaigns.models import Campaign, Group
from campaigns.play.services import record_attempt

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def failed_to_undo(live_server: Any) -> tuple[User, Group]:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    record_attempt(group.current_campaign(), alice, "1-1", "failed", 3)
    return alice, group


@pytest.mark.parametrize("tail", ["", "table/"])
def test_undo_then_redo_swaps_the_board_in_place(
    phones: Any, live_server: Any, failed_to_undo: tuple[User, Group], tail: str
) -> None:
    alice, group = failed_to_undo
    page = phones(alice).new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/{tail}")
    assert page.locator("form.redo").count() == 0
    page.get_by_role("button", name="Undo “failed” (1\u20111)").click()  # a non-breaking hyphen
    redo = page.get_by_role("button", name="Redo “failed” (1\u20111)")
    redo.wait_for()
    campaign = Campaign.objects.get(group=group)
    assert campaign.attempts.count() == 0
    redo.click()
    page.get_by_text("Redone: failed at 1-1.").wait_for()
    assert page.locator("form.redo").count() == 0
    assert page.url == f"{live_server.url}/groups/{group.pk}/{tail}"  # swapped, not reloaded
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 1 and campaign.bonus_tokens == 1
