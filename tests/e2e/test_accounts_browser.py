from typing import Any

import pytest
from django.contrib.auth.models import User

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
