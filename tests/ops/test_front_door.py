"""The front door: `/` for a signed-out visitor says what Timekeeper is, shows three
screenshots of the app and offers Sign up / Log in; a signed-in visitor gets their groups."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import create_group

pytestmark = pytest.mark.django_db
STATIC = Path(__file__).resolve().parents[2] / "static"


def test_a_signed_out_visitor_sees_what_timekeeper_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "a companion for your Take Time table" in html
    assert html.count("<li>") >= 3
    assert 'href="/accounts/signup/"' in html and 'href="/accounts/login/"' in html
    assert 'name="language"' in html  # the language menu
    # Three screenshots of our own, with words for those who cannot see them; no CDN.
    images = re.findall(r'<img src="([^"]+)"[^>]*alt="([^"]+)"', html)
    shots = [(src, alt) for src, alt in images if "/img/front/" in src]
    assert len(shots) == 3 and all(alt for _, alt in shots)
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_the_screenshots_are_real_small_pngs() -> None:
    for name in ("board", "hint", "statistics"):
        path = STATIC / "img" / "front" / f"{name}.png"
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 100 * 1024, f"{name}.png is {len(data) // 1024} KB"


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Sign up"),
        ("nl", "Timekeeper: een hulpje voor jullie Take Time-tafel"),
        ("ja", "Timekeeper：Take Time のテーブルのおともに"),
    ],
)
def test_the_front_door_speaks_three_languages(client: Client, lang: str, line: str) -> None:
    client.cookies["django_language"] = lang
    assert line in client.get("/").content.decode()


def test_a_signed_in_visitor_gets_their_groups(
    login: Callable[[User], Client], alice: User
) -> None:
    create_group(alice, "Tuesday table", ["Ann", "Ben"])
    html = login(alice).get("/").content.decode()
    assert "Tuesday table" in html
    assert "a companion for your Take Time table" not in html
