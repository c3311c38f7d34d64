"""The group page in headless Chromium (fixtures in tests/e2e/conftest.py): one tap records
and updates the page in place, the layout field validates as the user types. Screenshots of
the group page on a phone and on a desktop land in var/screens (or $TIMEKEEPER_SCREENS)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.play.services import record_attempt, skip
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DECREASING = "S12 | S1 | S2 | S3 | S4 | S5 S6 S7 S8 S9 S10 S11"


def test_one_tap_records_and_updates_the_group_page_in_place(
    page: Any, live_server: Any, screenshot: Any
) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    campaign = group.current_campaign()
    for clock in ("1-1", "1-2", "1-3", "1-4", "2-1"):  # a table well into chapter 2
        record_attempt(campaign, alice, clock, "failed", 3)
        campaign.refresh_from_db()
        if clock == "1-3":
            skip(campaign, alice, clock)
        else:
            record_attempt(campaign, alice, clock, "passed", 3)
        campaign.refresh_from_db()
    fill_in_session(campaign, list(group.players.all()))
    log_in(page, live_server.url)
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


def test_without_javascript_a_dutch_table_saves_its_session_and_logs_it_to_bg_stats(
    browser: Any, live_server: Any, screenshot: Any
) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Dinsdag", ["Ann", "Ben", "Cleo"])
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}, locale="nl-NL"
    )
    context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "alice")
        page.fill("#id_password", "password")
        page.click("main button[type=submit]")
        page.goto(f"{live_server.url}/groups/{group.pk}/")
        page.click("button[value=failed]")  # a plain form post, then a redirect
        page.wait_for_url(f"{live_server.url}/groups/{group.pk}/")
        session = group.current_campaign().sessions.get()
        page.goto(f"{live_server.url}/groups/{group.pk}/sessions/{session.pk}/")
        page.check("text=Ann")
        page.check("text=Ben")
        page.click("main form button[type=submit]")  # the date is left as it was shown
        page.wait_for_url(f"{live_server.url}/groups/{group.pk}/sessions/{session.pk}/")
        session.refresh_from_db()
        assert session.players.count() == 2
        link = page.get_attribute("a[href^='https://app.bgstatsapp.com/createPlay.html']", "href")
        assert link is not None and "Ann" in link
        screenshot(page, "session-nojs-nl-390x844")
    finally:
        context.close()
