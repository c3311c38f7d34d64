"""No page scrolls sideways on a 390-px phone, in any language: Dutch words are long, and a
table at the game cannot pinch and pan while the others wait."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import create_group, fill_in_session
from campaigns.play.services import record_attempt, skip
from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "nl", "ja"]


@pytest.fixture
def played(live_server: Any) -> Iterator[tuple[Any, list[str]]]:
    """A group some way into the game (a retried clock, the Sleeve, a session) and its pages."""
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Dinsdagavondtafel", ["Annemarie", "Bartholomeus", "Cleo"])
    campaign = group.current_campaign()
    fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3)
    skip(campaign, alice, "1-1")
    campaign.refresh_from_db()
    record_attempt(campaign, alice, "1-2", "failed", 3)
    session = campaign.sessions.get()
    g = f"/groups/{group.pk}/"
    pages = [
        "/",
        g,
        g + "table/",
        g + "sessions/",
        f"{g}sessions/{session.pk}/",
        g + "sleeve/",
        g + "statistics/",
        g + "members/",
        g + "settings/",
        g + "clocks/1-1/",
        g + "clocks/1-2/edit/",
        f"/hints/new/?group={group.pk}",
        "/hints/",
        "/accounts/password_change/",
    ]
    yield alice, pages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_is_wider_than_a_phone(
    browser: Any, live_server: Any, played: tuple[Any, list[str]], lang: str
) -> None:
    alice, pages = played
    client = Client()
    client.force_login(alice)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies(
        [
            {"name": name, "value": value, "url": live_server.url}
            for name, value in [
                (settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value),
                (settings.LANGUAGE_COOKIE_NAME, lang),
            ]
        ]
    )
    page = context.new_page()
    too_wide = []
    try:
        for path in pages:
            page.goto(f"{live_server.url}{path}")
            assert page.locator("html").get_attribute("lang") == lang
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                too_wide.append(f"{path}: {width}px")
    finally:
        context.close()
    assert not too_wide, f"pages wider than {PHONE['width']}px in {lang}: {too_wide}"
