"""The accounts pages: sign-up (with its next address), log-in and log-out, password reset and
change."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_signs_up_and_logs_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "zoe", "password1": "tick-tock-clock-42", "password2": "tick-tock-clock-42"},
    )
    assert response.status_code == 302
    assert User.objects.filter(username="zoe").exists()
    assert client.get("/").status_code == 200


def test_signup_shows_form_errors(client: Client) -> None:
    response = client.post(
        "/accounts/signup/", {"username": "zoe", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    assert b"errorlist" in response.content
    assert not User.objects.filter(username="zoe").exists()


def test_login_and_logout(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "password"})
    assert response.status_code == 302
    assert client.get("/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert "Sign up" in client.get("/").content.decode()  # the front door again


def test_logout_needs_post(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert client.get("/accounts/logout/").status_code == 405


def test_dashboard_needs_login(client: Client) -> None:
    # A signed-out visitor sees the front door (tests/ops/test_front_door.py); a form sent
    # to the dashboard without a session asks to log in.
    response = client.post("/", {"name": "Tuesday table"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_password_reset_sends_a_link(client: Client, alice: User) -> None:
    response = client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body


def test_password_change(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "password",
            "new_password1": "sun-and-moon-2026",
            "new_password2": "sun-and-moon-2026",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("sun-and-moon-2026")


def test_signup_follows_next_on_this_site(client: Client) -> None:
    data = {"username": "yan", "password1": "tick-tock-clock-42", "password2": "tick-tock-clock-42"}
    response = client.post("/accounts/signup/?next=/groups/join/abc/", data)
    assert response.status_code == 302
    assert response["Location"] == "/groups/join/abc/"


def test_signup_ignores_next_to_another_site(client: Client) -> None:
    data = {"username": "yan", "password1": "tick-tock-clock-42", "password2": "tick-tock-clock-42"}
    response = client.post("/accounts/signup/", {**data, "next": "https://evil.example/"})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_signup_page_keeps_next_for_the_form(client: Client) -> None:
    page = client.get("/accounts/signup/?next=/groups/join/abc/").content.decode()
    assert 'name="next" value="/groups/join/abc/"' in page


@pytest.mark.parametrize("length", [256, 2000])
def test_a_username_longer_than_any_account_is_refused_by_the_form(
    client: Client, alice: User, length: int
) -> None:
    """django-axes would record it in a 255-character column: a 500 on PostgreSQL."""
    from axes.models import AccessAttempt

    response = client.post("/accounts/login/", {"username": "u" * length, "password": "x"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()
    # An ordinary wrong password is still counted.
    client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert AccessAttempt.objects.filter(username="alice").exists()
