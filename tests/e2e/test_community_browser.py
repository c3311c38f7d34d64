"""The clock page with two competing definitions from other tables, on a phone in headless
Chromium: each drawn on its face with the differences from the table's own highlighted, and
"Use this" making one the table's new version. The screenshot lands in var/screens."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import ClockTranscription
from rules.canonical import fingerprint
from rules.clock import Clock
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
OURS: list[dict[str, Any]] = [{"kind": "card_count", "segment": 6, "count": 3}]
AGREED: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
]
RIVAL: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 2},
    {"kind": "equal_neighbours", "segments": [3, 4]},
]


def test_two_competing_definitions_on_a_phone(page: Any, live_server: Any, screenshot: Any) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", first_campaign=False)
    new_campaign(group, start_chapter=2)
    transcribe(group, "2-1", {"rules": OURS}, alice)
    for n, rules in enumerate([AGREED, AGREED, AGREED, RIVAL]):
        owner = User.objects.create_user(f"other-{n}")
        other = create_group(owner, f"Table {n}", first_campaign=False)
        new_campaign(other, start_chapter=2)
        transcribe(other, "2-1", {"rules": rules}, owner)

    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/groups/{group.pk}/clocks/2-1/")

    section = page.locator("#community")
    section.scroll_into_view_if_needed()
    assert section.locator("article.shared-definition").count() == 2
    agreed = section.locator(f"[data-fingerprint='{fingerprint(_clock(AGREED))}']")
    rival = section.locator(f"[data-fingerprint='{fingerprint(_clock(RIVAL))}']")
    assert agreed.locator(".badge.ok").inner_text() == "confirmed"
    assert agreed.locator("g.rule.differs").count() == 1  # the forbidden values we lack
    assert rival.locator("g.rule.differs").count() == 3  # two cards on 6, the = on 3 and 4
    face = agreed.locator("svg.clock-face").bounding_box()
    assert face is not None and 0 < face["width"] <= 390
    screenshot(page, "community-clock-phone-390x844")

    rival.get_by_role("button", name="Use this").click()
    page.wait_for_selector("text=now uses these rules: version 2")
    latest = ClockTranscription.objects.get(group=group, latest=True)
    assert latest.adopted and latest.fingerprint == fingerprint(_clock(RIVAL))


def _clock(rules: list[dict[str, Any]]) -> Clock:
    return Clock.from_json({"id": "2-1", "rules": rules})
