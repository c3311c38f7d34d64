from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_new_player_signs_up_on_a_phone(page: Any, live_server: Any, screenshot: Any) -> None:
    page.goto(f"{live_server.url}/")  # the front door
    page.locator("main").get_by_role("link", name="Sign up").click()
    assert "/accounts/signup/" in page.url
    page.fill("#id_username", "bea")
    page.fill("#id_password1", "moon-and-sun-77")
    page.fill("#id_password2", "moon-and-sun-77")
    screenshot(page, "signup-phone")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{live_server.url}/")
    assert User.objects.filter(username="bea").exists()
    assert page.get_by_role("button", name="Log out").is_visible()


def test_a_wrong_password_shows_an_error(page: Any, live_server: Any) -> None:
    User.objects.create_user("cas", password="right-password-1")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "cas")
    page.fill("#id_password", "wrong-password")
    page.get_by_role("button", name="Log in").click()
    assert page.locator(".errorlist").is_visible()
    assert "/accounts/login/" in page.url


def test_the_language_switcher_turns_the_page_japanese(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    with page.expect_navigation():
        page.select_option("#language", "ja")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.get_by_role("button", name="ログイン").is_visible()


def test_a_page_opened_before_logging_in_again_still_records(page: Any, live_server: Any) -> None:
    # Logging in gives the browser a new CSRF token; a board opened before it (another tab,
    # a session that ran out) must post with the new one, not be refused without a word.
    from campaigns.groups.services import create_group
    from campaigns.models import Attempt

    cas = User.objects.create_user("cas", password="right-password-1")
    group = create_group(cas, "Tuesday table", ["Ann", "Ben", "Cleo"])

    log_in(page, live_server.url, "cas", "right-password-1")
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    other = page.context.new_page()
    other.goto(f"{live_server.url}/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_url(f"{live_server.url}/accounts/login/")
    log_in(other, live_server.url, "cas", "right-password-1")
    other.close()
    page.get_by_role("button", name="Passed").click()
    page.get_by_text("Clock 1-1 passed.").wait_for()
    assert Attempt.objects.filter(campaign__group=group, clock_id="1-1").count() == 1
