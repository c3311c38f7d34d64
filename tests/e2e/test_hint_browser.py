"""Hints in headless Chromium, on a real Celery worker (fixtures in tests/e2e/conftest.py
and tests/conftest.py): tap the cards, watch the progress bar fill in place, read the
result, try a "what if"; and the same without JavaScript (the page refreshes itself).
Screenshots of the form, the progress bar and the result land in $TIMEKEEPER_SCREENS."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group
from campaigns.models import Group
from solver import jobs, services
from solver.hint_inputs import parse_input
from solver.models import HintRequest
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.integration]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def hint_group_on_worker(
    celery_worker: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Group]:
    """Alice's group of three; a solver slow enough to watch its progress."""
    # Several seconds: the progress bar is seen moving (a search on slips runs the clean
    # search too, so effort 1 is as long as effort 2 was before).
    settings.HINT_EFFORT = 1.0
    settings.HINT_ODDS_SAMPLES = 300
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0.2)
    alice = User.objects.create_user("alice", password="password")
    yield create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])


def test_tapping_the_cards_shows_live_progress_then_the_plan(
    page: Any, live_server: Any, screenshot: Any, hint_group_on_worker: Group
) -> None:
    group = hint_group_on_worker
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/hints/new/?group={group.pk}")
    page.click("label.chip:has-text('2 players')")  # htmx redraws the seats: 4 + 2 each
    page.wait_for_function("() => document.querySelectorAll('#seats .set-of-two').length === 2")
    assert page.input_value("input[name=face_up]") == "2"
    screenshot(page, "hint-form-2players-phone-390x844")
    page.click("label.chip:has-text('4 players')")
    page.wait_for_function("() => document.querySelectorAll('#seats .seat').length === 4")
    assert page.input_value("input[name=face_up]") == "4"
    # Seats 1-3 start from the group's players; the fourth is nobody yet.
    assert page.input_value("#seat-name-1") == "Ann" and page.input_value("#seat-name-4") == ""
    page.fill("#seat-name-4", "Dee")
    for key in ("1.2", "2.0", "2.1", "3.1", "3.2", "4.0"):  # SSM/MMS/SMM/MSS
        page.click(f"label.tap-card:has(input[value='{key}'])")
    screenshot(page, "hint-form-phone-390x844")
    page.get_by_role("button", name="Ask for a hint").click()
    page.wait_for_url(f"{live_server.url}/hints/*/")
    hint = HintRequest.objects.get()
    assert hint.colours == "SSM/MMS/SMM/MSS"
    assert hint.names == ["Ann", "Ben", "Cleo", "Dee"]
    page.wait_for_function("() => Number(document.querySelector('progress.progress')?.value) >= 20")
    screenshot(page, "hint-progress-phone-390x844")
    url = page.url
    page.wait_for_selector("text=Say this aloud", timeout=300_000)
    assert page.url == url  # swapped in place by the poll, no reload
    assert page.locator("svg.clock-face").count() == 1
    page.wait_for_timeout(300)
    screenshot(page, "hint-result-phone-390x844")

    # A number the form refuses: the card says why, in place (htmx swaps no 4xx answer in).
    page.fill("#id_target_6", "-5")
    page.get_by_role("button", name="Simulate my version").click()
    page.wait_for_selector("#id_target_6[aria-invalid=true]")
    assert "greater than or equal to 0" in page.inner_text("#id_target_6_error")
    page.fill("#id_target_6", "26")
    page.get_by_role("button", name="Simulate my version").click()
    page.wait_for_selector("text=Your version passes")
    assert page.locator("[aria-invalid]").count() == 0
    page.set_viewport_size(DESKTOP)
    screenshot(page, "hint-result-desktop-1280x900")


def test_without_javascript_the_page_refreshes_until_the_plan_is_there(
    browser: Any, live_server: Any, screenshot: Any, hint_group_on_worker: Group
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB", java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/hints/new/")
        page.click("details.typed summary")
        page.fill("input[name=colours]", "SSMM/MMSS/SMSM")  # the typed fallback
        page.get_by_role("button", name="Ask for a hint").click()
        page.wait_for_url(f"{live_server.url}/hints/*/")
        page.wait_for_selector("text=Say this aloud", timeout=300_000)  # meta refresh
        assert HintRequest.objects.get().status == HintRequest.Status.DONE
        page.set_viewport_size(DESKTOP)
        screenshot(page, "hint-result-nojs-desktop-1280x900")
    finally:
        context.close()


def test_signing_out_elsewhere_sends_a_watching_hint_page_to_log_in(
    page: Any, live_server: Any, screenshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No worker takes the job: the hint waits, and its page keeps polling its status.
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    alice = User.objects.create_user("alice", password="password")
    hint, _created = services.request_hint(alice, parse_input("1-1", "SSMM/MMSS/SMSM", None))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/hints/{hint.pk}/")
    page.wait_for_selector("#status[hx-trigger]")
    other = page.context.new_page()  # another tab, the same session
    other.goto(f"{live_server.url}/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_url(f"{live_server.url}/accounts/login/")
    other.close()
    # The next poll opens the log-in page itself, to come back to the hint; it is not
    # swapped into the hint page (a second header and form inside the first).
    page.wait_for_url(f"{live_server.url}/accounts/login/?next=%2Fhints%2F{hint.pk}%2F")
    assert page.locator("header.topbar").count() == 1
    screenshot(page, "hint-signed-out-phone-390x844")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/hints/{hint.pk}/")
