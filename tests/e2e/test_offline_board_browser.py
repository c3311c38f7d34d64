"""A tap made offline shows on the board as pending (the clock, the Bonus tokens and the
attempts as the server will leave them), and a further tap is judged against that pending
board as the server will judge it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group
from campaigns.models import Group
from tests.e2e.conftest import DOC_SCREENS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _group() -> tuple[Group, User]:
    alice = User.objects.create_user("alice", password="password")
    return create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"]), alice


def _attempts(group: Group) -> list[tuple[str, str]]:
    campaign = group.current_campaign()
    return list(campaign.attempts.order_by("id").values_list("clock_id", "outcome"))


def test_an_offline_failure_shows_on_the_board_and_a_second_queues_behind_it(
    phones: Callable[..., Any], live_server: Any, screenshot: Any
) -> None:
    group, alice = _group()
    context = phones(alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    assert page.locator("button[value=skip]").is_disabled()
    context.set_offline(True)
    page.click("button[value=failed]")
    page.wait_for_selector("text=1 result waiting to sync")
    pending = page.locator("#board [data-pending]")
    assert pending.is_visible()
    assert "clock 1-1 · attempts: 1 · Bonus tokens face up: 1 of 3" in pending.text_content()
    assert page.locator("#board .tokens strong").text_content() == "1 of 3 face up"
    assert page.locator("#board .tokens .token.up").count() == 1
    assert page.locator("#players-now").text_content() == "A tap records 3 players, 4 face-up cards"
    assert page.locator("button[value=skip]").is_enabled()  # a failure makes a skip possible
    screenshot(page, "offline-tap-board-390x844")
    DOC_SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOC_SCREENS / "offline-tap-board-390x844.png"))
    page.click("button[value=failed]")
    page.wait_for_selector("text=2 results waiting to sync")
    assert "attempts: 2 · Bonus tokens face up: 2 of 3" in pending.text_content()
    assert page.locator("#board .tokens strong").text_content() == "2 of 3 face up"
    context.set_offline(False)
    page.wait_for_selector("#outbox", state="hidden")
    assert _attempts(group) == [("1-1", "failed"), ("1-1", "failed")]
    page.wait_for_selector("#board >> text=2 of 3 face up")
    assert page.locator("#board [data-pending]").is_hidden()


def test_a_tap_for_a_clock_a_waiting_tap_passed_is_refused_at_once(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice = _group()
    context = phones(alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    context.set_offline(True)
    page.click("button[value=passed]")
    page.wait_for_selector("text=1 result waiting to sync")
    assert "clock 1-2 · attempts: 0 · Bonus tokens face up: 0 of 3" in (
        page.locator("#board [data-pending]").text_content()
    )
    page.click("button[value=failed]")
    page.wait_for_selector("#outbox >> text=Clock 1-1 is already passed in this campaign.")
    assert page.locator("#outbox [data-outbox-count]").text_content() == "1 result waiting to sync"
    context.set_offline(False)
    page.wait_for_selector("#outbox [data-outbox-count]", state="hidden")
    assert _attempts(group) == [("1-1", "passed")]
