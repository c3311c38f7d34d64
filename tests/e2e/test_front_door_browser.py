"""The front door and the "Trust this server" page in Chromium on a 390-px phone: nothing
scrolls sideways, the console stays clean (the CSP fixture fails on any refusal too), the
screenshots and the QR code are drawn. Screenshots go to docs/screenshots/."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DOC_SCREENS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_front_door_on_a_phone(page: Any, live_server: Any, lang: str) -> None:
    errors = _watch(page)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/")
    page.wait_for_load_state("networkidle")
    assert page.locator("a[href='/accounts/signup/']").first.is_visible()
    assert page.locator("a[href='/accounts/login/']").first.is_visible()
    shots = page.locator(".front-shots img")
    assert shots.count() == 3
    for index in range(3):
        shot = shots.nth(index)
        shot.scroll_into_view_if_needed()
        shot.evaluate("img => img.decode()")  # a file that is not an image rejects this
        assert shot.evaluate("img => img.naturalWidth") == 390
    assert _fits(page)
    assert errors == []
    if lang == "en":
        DOC_SCREENS.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(DOC_SCREENS / "front-door-phone-390x844.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_trust_page_on_a_phone(
    page: Any, live_server: Any, settings: Any, tmp_path: Path, lang: str
) -> None:
    ca = tmp_path / "root.crt"
    der = b"0\x82 a certificate stand-in for the page"
    ca.write_text(
        "-----BEGIN CERTIFICATE-----\n"
        + base64.encodebytes(der).decode()
        + "-----END CERTIFICATE-----\n"
    )
    settings.LOCAL_CA_CERT = ca
    errors = _watch(page)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/trust/")
    page.wait_for_load_state("networkidle")
    qr = page.locator(".trust-qr svg.qr")
    assert qr.is_visible()
    box = qr.bounding_box()
    assert box is not None and 120 <= box["width"] <= 390 and box["width"] == box["height"]
    link = page.locator("a[href='/trust/timekeeper-ca.crt']")
    assert link.is_visible()
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == "timekeeper-ca.crt"
    assert _fits(page)
    assert errors == []
    if lang == "en":
        DOC_SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOC_SCREENS / "trust-phone-390x844.png"), full_page=True)
