"""The invite link in Chromium: Copy puts it on the clipboard, Share hands it to the phone's
share sheet where the browser has one (and is not offered where it has none), and a friend
who opens it and joins lands on the group's page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group
from campaigns.models import Group

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Stand-ins for the Clipboard and Web Share APIs (headless Chromium has neither for an
# http:// test server); each notes what it was given.
CLIPBOARD = """
window.__calls = [];
Object.defineProperty(navigator, "clipboard", {configurable: true, value: {
  writeText: (text) => { window.__calls.push(["copy", text]); return Promise.resolve(); }
}});
"""
SHARE = """
Object.defineProperty(navigator, "share", {configurable: true, value: (data) => {
  window.__calls.push(["share", data.url, data.title]); return Promise.resolve();
}});
"""
NO_SHARE = "try { delete Navigator.prototype.share; } catch (e) {}"


def _group() -> tuple[Group, User]:
    alice = User.objects.create_user("alice", password="password")
    return create_group(alice, "Tuesday table", ["Ann", "Ben"]), alice


def test_copy_and_share_hand_over_the_invite_link(
    phones: Callable[..., Any], live_server: Any, screenshot: Callable[[Any, str], Any]
) -> None:
    group, alice = _group()
    context = phones(alice)
    context.add_init_script(CLIPBOARD + SHARE)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/members/")
    link = page.locator("#invite-link").inner_text()
    assert link.endswith(f"/join/{group.invite_token}/")

    page.get_by_role("button", name="Copy link").click()
    page.get_by_text("Link copied.").wait_for()
    page.get_by_role("button", name="Share…").click()
    page.get_by_text("Link shared.").wait_for()
    calls = page.evaluate("window.__calls")
    assert calls == [["copy", link], ["share", link, "Join “Tuesday table” on Timekeeper"]]
    screenshot(page, "invite-phone")


def test_share_is_not_offered_without_the_web_share_api(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice = _group()
    context = phones(alice)
    context.add_init_script(CLIPBOARD + NO_SHARE)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/members/")
    assert page.get_by_role("button", name="Copy link").is_visible()
    assert not page.get_by_role("button", name="Share…").is_visible()


def test_a_friend_who_joins_lands_on_the_group_page(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, _ = _group()
    friend = User.objects.create_user("erin", password="password")
    page = phones(friend).new_page()
    page.goto(f"{live_server.url}/join/{group.invite_token}/")
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{live_server.url}/groups/{group.pk}/")
    assert group.memberships.filter(user=friend).exists()
