"""Both schemes at once (`make serve`, SESSION_COOKIE_PER_SCHEME): a session made over HTTPS
is Secure, under a name of its own, and is not accepted over plain HTTP; plain HTTP keeps
working; a phone that reached HTTPS is taken back there."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ops.schemes import HTTPS_SEEN_COOKIE, SECURE_SESSION_COOKIE

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
TOKEN_PAGE = "/accounts/token/"  # signed-in people only
CREDENTIALS = {"username": "alice", "password": "password"}


@pytest.fixture(autouse=True)
def _both_schemes(settings: Any) -> None:
    settings.SESSION_COOKIE_PER_SCHEME = True
    settings.SESSION_COOKIE_SECURE = False  # as make serve sets it
    settings.HTTPS_PORT = 8443
    settings.ALLOWED_HOSTS = ["testserver", "192.0.2.2"]


def test_a_session_made_over_https_is_secure_and_not_accepted_over_http(alice: User) -> None:
    phone = Client()
    response = phone.post(LOGIN, CREDENTIALS, secure=True)
    assert response.status_code == 302
    cookie = response.cookies[SECURE_SESSION_COOKIE]
    assert cookie["secure"] and cookie["httponly"]
    assert "sessionid" not in response.cookies
    assert phone.get(TOKEN_PAGE, secure=True).status_code == 200  # signed in over HTTPS
    # The same key sent over plain HTTP (a browser never would; a sniffer might): not in.
    thief = Client()
    thief.cookies["sessionid"] = cookie.value
    assert thief.get(TOKEN_PAGE).status_code == 302
    assert thief.get(TOKEN_PAGE)["Location"].startswith(LOGIN)


def test_a_phone_on_plain_http_logs_in_and_stays_in_there(alice: User) -> None:
    phone = Client()
    response = phone.post(LOGIN, CREDENTIALS)
    assert response.status_code == 302
    assert not response.cookies["sessionid"]["secure"]
    assert phone.get(TOKEN_PAGE).status_code == 200


def test_a_phone_that_reached_https_is_taken_there_from_plain_http(alice: User) -> None:
    phone = Client()
    response = phone.get(LOGIN, secure=True)
    assert response.cookies[HTTPS_SEEN_COOKIE].value == "1"
    again = phone.get("/trust/?x=1", headers={"Host": "192.0.2.2:8000"})
    assert again.status_code == 302
    assert again["Location"] == "https://192.0.2.2:8443/trust/?x=1"
    # A phone that never reached HTTPS stays on plain HTTP.
    assert Client().get("/trust/").status_code == 200


def test_with_one_scheme_the_session_cookie_is_django_s_own(alice: User, settings: Any) -> None:
    settings.SESSION_COOKIE_PER_SCHEME = False
    response = Client().post(LOGIN, CREDENTIALS, secure=True)
    assert "sessionid" in response.cookies and SECURE_SESSION_COOKIE not in response.cookies
