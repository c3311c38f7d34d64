"""The group page in headless Chromium (fixtures in tests/e2e/conftest.py): one tap records
and updates the page in place, the layout field validates as the user types. Screenshots of
the group page on a phone and on a desktop land in var/screens (or $TIMEKEEPER_SCREENS)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"


def test_one_tap_records_and_updates_the_group_page_in_place(
    page: Any, live_server: Any, screenshot: Any
) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = services.create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
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
    page.fill("textarea[name=layout]", FAILING_1_1)
    page.wait_for_selector("#verdict >> text=This layout fails")

    campaign = group.current_campaign()
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2 and campaign.attempts.count() == 2
    screenshot(page, "group-phone-390x844")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "group-desktop-1280x900")
