"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live_server.

Never a downloaded browser: /usr/bin/chromium (`apt-get install chromium`; .ci/run does it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Screenshots land here for people to look at; CI keeps them as artefacts of the run.
SCREENS = Path(
    os.environ.get("TIMEKEEPER_SCREENS", Path(__file__).resolve().parents[2] / "var" / "screens")
)
# The screenshots docs/screenshots keeps are refreshed only when asked
# (TIMEKEEPER_DOC_SCREENS=1 make test): a test run never changes a tracked file.
DOC_SCREENS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("TIMEKEEPER_DOC_SCREENS")
    else SCREENS
)


def log_in(page: Any, base: str, username: str = "alice", password: str = "password") -> None:
    """Log in through the log-in page, as a person does, and wait for the dashboard."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


# One browser per test module, closed before the next module runs.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in the test thread while it is open; the
    # ORM calls a test makes between browser steps are still synchronous, so tell Django
    # that is intended — while a browser is open, and for no other test.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launch(sync_playwright)
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def _launch(sync_playwright: Any) -> Iterator[Any]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A phone-sized page. Anything the Content-Security-Policy refuses on it (an inline
    script, handler or style; a resource from elsewhere) fails the test that opened it."""
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    refused: list[str] = []
    # The browser's own report names the directive, the file and the element.
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'CSP refused: ' + e.violatedDirective + ' at ' + e.sourceFile + ':' + e.lineNumber"
        " + ' on ' + (e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 160) : '')))"
    )
    page.on(
        "console",
        lambda message: refused.append(message.text) if "CSP refused" in message.text else None,
    )
    yield page
    context.close()
    assert refused == [], "the Content-Security-Policy refused something"


@pytest.fixture
def screenshot() -> Callable[[Any, str], Path]:
    """screenshot(page, name) saves var/screens/<name>.png (full page) and returns the path."""

    def _shot(page: Any, name: str) -> Path:
        SCREENS.mkdir(parents=True, exist_ok=True)
        path = SCREENS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return _shot


@pytest.fixture
def phones(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """phones(user, viewport=PHONE, lang=None): a browser context signed in as ``user`` (a
    session made by the test client), in ``lang`` (the language cookie) if given; every
    context is closed after the test, so none polls on."""
    contexts: list[Any] = []

    def _new(user: User, viewport: dict[str, int] = PHONE, lang: str | None = None) -> Any:
        context = _phone(browser, live_server, user, viewport)
        if lang is not None:
            context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
            )
        contexts.append(context)
        return context

    yield _new
    for context in contexts:
        context.close()


def _phone(browser: Any, live_server: Any, user: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale="en-GB")
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context
