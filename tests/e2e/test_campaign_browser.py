"""The group page in headless Chromium (fixtures in tests/e2e/conftest.py): one tap records
and updates the page in place, the layout field validates as the user types. Screenshots of
the group page on a phone and on a desktop land in var/screens (or $TIMEKEEPER_SCREENS)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DECREASING = "S12 | S1 | S2 | S3 | S4 | S5 S6 S7 S8 S9 S10 S11"


def test_one_tap_records_and_updates_the_group_page_in_place(
    page: Any, live_server: Any, screenshot: Any
) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = services.create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    campaign = group.current_campaign()
    for clock in ("1-1", "1-2", "1-3", "1-4", "2-1"):  # a table well into chapter 2
        services.record_attempt(campaign, alice, clock, "failed", 3)
        campaign.refresh_from_db()
        if clock == "1-3":
            services.skip(campaign, alice, clock)
        else:
            services.record_attempt(campaign, alice, clock, "passed", 3)
        campaign.refresh_from_db()
    services.start_session(campaign, list(group.players.all()))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/groups/{group.pk}/")

    page.click("button[value=failed]")
    page.wait_for_selector("text=1 of 3 face up")
    page.click("button[value=failed]")
    page.wait_for_selector("text=2 of 3 face up")
    assert page.url.endswith(f"/groups/{group.pk}/")  # swapped in place, no navigation
    page.click("summary")
    page.fill("textarea[name=layout]", DECREASING)
    page.wait_for_selector("#verdict >> text=This layout fails")

    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2 and campaign.attempts.count() == 11
    screenshot(page, "group-phone-390x844")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "group-desktop-1280x900")
