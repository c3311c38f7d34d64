"""Site-wide wiring in config/urls.py and the base template: the language switcher, htmx served
from our own static files, the friendly 404 page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_language_switcher_serves_dutch_and_japanese(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "ja", "next": "/accounts/login/"})
    assert "ログイン".encode() in client.get("/accounts/login/").content
    client.post("/i18n/setlang/", {"language": "nl", "next": "/accounts/login/"})
    assert b"Inloggen" in client.get("/accounts/login/").content


def test_htmx_is_served_from_our_static_files(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert "/static/vendor/htmx-2.0.11.min.js" in page
    assert "https://" not in page.split("<body")[0]


def test_a_missing_page_is_a_friendly_404(client: Client, alice: User, settings: Any) -> None:
    settings.DEBUG = False
    client.force_login(alice)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"There is nothing here" in response.content
