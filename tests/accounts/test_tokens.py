"""API tokens: revoked by a new password (changed or reset), kept by a hash upgrade at
log-in; a page where the account's owner sees which token they have, makes (the key shown
once) and revokes it. Storage as a hash: tests/accounts/test_hashed_tokens.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db
NEW = "sun-and-moon-2026"


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return int(client.get("/api/groups/").status_code)


def test_changing_the_password_revokes_the_token(alice: User, bob: User) -> None:
    key = ApiToken.issue(alice)
    other = ApiToken.issue(bob)
    assert api_status(key) == 200
    client = Client()
    client.force_login(alice)
    data = {"old_password": "password", "new_password1": NEW, "new_password2": NEW}
    assert client.post("/accounts/password_change/", data).status_code == 302
    assert not ApiToken.objects.filter(user=alice).exists()
    assert api_status(key) in (401, 403)  # refused
    assert api_status(other) == 200


def test_resetting_the_password_revokes_the_token(alice: User) -> None:
    key = ApiToken.issue(alice)
    client = Client()
    client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    link = re.search(r"/accounts/reset/\S+/", str(mail.outbox[0].body))
    assert link is not None
    form = client.get(link.group(0), follow=True)
    response = client.post(form.request["PATH_INFO"], {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).check_password(NEW)
    assert api_status(key) in (401, 403)  # refused


def test_set_password_anywhere_revokes_it(alice: User) -> None:
    ApiToken.issue(alice)
    alice.set_password(NEW)
    alice.save()
    assert not ApiToken.objects.filter(user=alice).exists()


def test_saving_the_account_otherwise_keeps_the_token(alice: User) -> None:
    key = ApiToken.issue(alice)
    alice.first_name = "Alice"
    alice.save()
    assert (
        Client().post("/accounts/login/", {"username": "alice", "password": "password"}).status_code
        == 302
    )
    assert api_status(key) == 200


def test_a_hash_upgrade_at_log_in_keeps_the_token(alice: User, settings: Any) -> None:
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    User.objects.filter(pk=alice.pk).update(password=make_password("password", hasher="md5"))
    key = ApiToken.issue(alice)
    assert (
        Client().post("/accounts/login/", {"username": "alice", "password": "password"}).status_code
        == 302
    )
    assert User.objects.get(pk=alice.pk).password.startswith("pbkdf2_")
    assert api_status(key) == 200


def _shown_key(html: str) -> str:
    found = re.search(r'<code class="token">([0-9a-f]{40})</code>', html)
    assert found is not None, html
    return found.group(1)


def test_the_token_page_shows_makes_and_revokes_it(alice: User, bob: User) -> None:
    other = ApiToken.issue(bob)
    client = Client()
    client.force_login(alice)
    assert "You have no API token." in client.get("/accounts/token/").content.decode()
    made = client.post("/accounts/token/", {"create": "1"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    key = _shown_key(made.content.decode())
    assert other not in made.content.decode()
    assert api_status(key) == 200
    # Shown once: afterwards the page names the token by its first digits only.
    page = client.get("/accounts/token/").content.decode()
    assert key not in page and f"<code>{key[:6]}</code>" in page
    # Making a new one replaces it: the old key stops working.
    again = _shown_key(client.post("/accounts/token/", {"create": "1"}).content.decode())
    assert again != key and api_status(key) == 401 and api_status(again) == 200
    assert ApiToken.objects.filter(user=alice).count() == 1
    assert client.post("/accounts/token/", {"revoke": "1"}).status_code == 302
    assert api_status(again) in (401, 403)  # refused
    assert api_status(other) == 200


def test_the_token_page_is_in_three_languages(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    for lang, words, once, prefix in (
        ("nl", "Je hebt geen API-token.", "Kopieer hem nu", "Je token begint met"),
        ("ja", "APIトークンはありません。", "今すぐコピーしてください", "あなたのトークンは"),
    ):
        ApiToken.objects.filter(user=alice).delete()
        client.cookies["django_language"] = lang
        assert words in client.get("/accounts/token/").content.decode()
        assert once in client.post("/accounts/token/", {"create": "1"}).content.decode()
        assert prefix in client.get("/accounts/token/").content.decode()


def test_the_token_page_needs_log_in() -> None:
    response = Client().get("/accounts/token/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Client().post("/accounts/token/", {"create": "1"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_every_signed_in_page_links_the_token_page(alice: User) -> None:
    """Not only the password page: the account links of the top bar lead to it too."""
    client = Client()
    client.force_login(alice)
    html = client.get("/").content.decode()
    nav = html[html.index('<nav class="topnav"') : html.index("</nav>")]
    assert 'href="/accounts/token/"' in nav
