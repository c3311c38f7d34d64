"""The evening's recap in headless Chromium at 390 px (fixtures in tests/e2e/conftest.py):
the card fits the phone in en/nl/ja, its PNG downloads, and where the browser can share a
file the Share button hands over that PNG. Screenshots of the card land in var/screens, or
in docs/screenshots with TIMEKEEPER_DOC_SCREENS=1."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Group, Session
from campaigns.play.services import record_attempt, skip
from tests.e2e.conftest import DOC_SCREENS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PNG_MAGIC = [0x89, 0x50, 0x4E, 0x47]
# The browser's own report of anything the Content-Security-Policy refuses.
CSP_WATCH = (
    "document.addEventListener('securitypolicyviolation', e => console.error("
    "'CSP refused: ' + e.violatedDirective + ' at ' + e.sourceFile))"
)
# A browser that can share files, and a record of what it was given to share.
SHARE_SHEET = """
Object.defineProperty(navigator, 'canShare', {configurable: true, value: (data) =>
  !!(data && data.files && data.files.length && data.files[0].type === 'image/png')});
Object.defineProperty(navigator, 'share', {configurable: true, value: async (data) => {
  const file = data.files[0];
  const head = Array.from(new Uint8Array(await file.arrayBuffer()).slice(0, 4));
  document.documentElement.dataset.shared = JSON.stringify(
    {name: file.name, type: file.type, size: file.size, head: head});
}});
"""


@pytest.fixture
def recap_evening_served(transactional_db: None) -> tuple[Group, Session, User]:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    campaign = group.current_campaign()
    ann = group.players.get(name="Ann")
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3, opener=ann)
    record_attempt(campaign, alice, "1-1", "passed", 3, opener=ann)
    record_attempt(campaign, alice, "1-2", "failed", 3)
    skip(campaign, alice, "1-2")
    record_attempt(campaign, alice, "1-3", "passed", 3)
    return group, session, alice


def _open(context: Any, live_server: Any, group: Group, session: Session) -> tuple[Any, list]:
    page = context.new_page()
    page.add_init_script(CSP_WATCH)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "CSP refused" in m.text else None)
    page.goto(f"{live_server.url}/groups/{group.pk}/sessions/{session.pk}/#recap")
    return page, refused


@pytest.mark.parametrize(
    ("lang", "download"),
    [
        ("en", "Download the picture (PNG)"),
        ("nl", "Download het plaatje (PNG)"),
        ("ja", "画像をダウンロード（PNG）"),
    ],
)
def test_the_recap_fits_the_phone_and_downloads_as_a_png(
    phones: Callable[..., Any],
    live_server: Any,
    recap_evening_served: tuple[Group, Session, User],
    lang: str,
    download: str,
    tmp_path: Path,
) -> None:
    group, session, alice = recap_evening_served
    page, refused = _open(phones(alice, lang=lang), live_server, group, session)
    card = page.locator("svg.recap-card")
    box = card.bounding_box()
    assert box is not None and 300 < box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_download() as caught:
        page.get_by_role("link", name=download).click()
    saved = tmp_path / caught.value.suggested_filename
    caught.value.save_as(saved)
    assert saved.name == f"timekeeper-recap-{session.date.isoformat()}.png"
    assert list(saved.read_bytes()[:4]) == PNG_MAGIC
    DOC_SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("section#recap").screenshot(path=str(DOC_SCREENS / f"recap-{lang}-390.png"))
    assert refused == []


def test_the_share_button_shares_the_png_where_the_browser_can(
    phones: Callable[..., Any], live_server: Any, recap_evening_served: tuple[Group, Session, User]
) -> None:
    group, session, alice = recap_evening_served
    context = phones(alice)
    context.add_init_script(SHARE_SHEET)
    page, refused = _open(context, live_server, group, session)
    page.get_by_role("button", name="Share the picture").click()
    page.wait_for_selector("html[data-shared]", state="attached")
    shared = json.loads(page.locator("html").get_attribute("data-shared"))
    assert shared["name"] == f"timekeeper-recap-{session.date.isoformat()}.png"
    assert shared["type"] == "image/png" and shared["head"] == PNG_MAGIC and shared["size"] > 1000
    assert refused == []


def test_without_file_sharing_only_the_download_shows(
    phones: Callable[..., Any], live_server: Any, recap_evening_served: tuple[Group, Session, User]
) -> None:
    group, session, alice = recap_evening_served
    context = phones(alice)
    context.add_init_script("Object.defineProperty(navigator, 'canShare', {value: undefined})")
    page, _refused = _open(context, live_server, group, session)
    assert page.get_by_role("button", name="Share the picture").count() == 0  # hidden
    assert page.get_by_role("link", name="Download the picture (PNG)").is_visible()
