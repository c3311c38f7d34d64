"""Several phones on one group, in Chromium: each sees the others' taps without a reload, a
tap from a stale board is refused with a message, and table mode keeps time, the screen and
the plan. Screenshots of table mode land in var/screens (or $TIMEKEEPER_SCREENS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group
from campaigns.models import Group, Membership
from campaigns.play.services import record_attempt
from rules.catalogue import get_clock
from solver.models import HintRequest
from tests.e2e.conftest import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The stubs stand in for the browser's wake lock and speech synthesis, and note each call.
STUBS = """
window.__calls = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: (type) => { window.__calls.push(["wakeLock", type]);
    return Promise.resolve({addEventListener() {}, release() { return Promise.resolve(); }}); }
}});
Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
  getVoices: () => [{lang: "en-GB", name: "Test"}, {lang: "nl-NL", name: "Test NL"}],
  speak: (u) => window.__calls.push(["speak", u.text, u.lang]),
  cancel: () => {},
}});
window.SpeechSynthesisUtterance = function (text) { this.text = text; };
"""


def _table() -> tuple[Group, User, User]:
    alice = User.objects.create_user("alice", password="password")
    bob = User.objects.create_user("bob", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    return group, alice, bob


def test_phone_b_sees_phone_as_record_within_three_seconds(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, bob = _table()
    a = phones(alice).new_page()
    b = phones(bob).new_page()
    for page in (a, b):
        page.goto(f"{live_server.url}/groups/{group.pk}/")
    a.click("button[value=failed]")
    a.wait_for_selector("text=1 of 3 face up")
    # The board polls every 2.5 s; nothing reloads the page.
    b.wait_for_selector("#board >> text=1 of 3 face up", timeout=3000)
    assert b.evaluate("performance.getEntriesByType('navigation').length") == 1
    a.click("button[value=failed]")
    b.wait_for_selector("#board >> text=2 of 3 face up", timeout=3000)


def test_a_tap_from_a_stale_board_is_refused_with_the_message(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, bob = _table()
    a = phones(alice).new_page()
    b = phones(bob).new_page()
    b.route("**/live/", lambda route: route.abort())  # weak signal: B's board goes stale
    for page in (a, b):
        page.goto(f"{live_server.url}/groups/{group.pk}/")
    a.click("button[value=failed]")
    a.wait_for_selector("text=1 of 3 face up")
    b.click("button[value=failed]")
    b.wait_for_selector("text=Another phone already recorded")
    assert b.is_visible("text=1 of 3 face up")  # and B now shows the fresh board
    campaign = group.current_campaign()
    assert (campaign.bonus_tokens, campaign.attempts.count()) == (1, 1)
    b.click("button[value=failed]")  # from the fresh board: another real attempt
    b.wait_for_selector("text=2 of 3 face up")


def test_a_double_tap_across_phones_records_once(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, bob = _table()
    a = phones(alice).new_page()
    b = phones(bob).new_page()
    for page in (a, b):
        page.route("**/live/", lambda route: route.abort())
        page.goto(f"{live_server.url}/groups/{group.pk}/")
    a.click("button[value=failed]", no_wait_after=True)
    b.click("button[value=failed]", no_wait_after=True)
    a.wait_for_selector("text=1 of 3 face up")
    b.wait_for_selector("text=1 of 3 face up")
    campaign = group.current_campaign()
    assert (campaign.bonus_tokens, campaign.attempts.count()) == (1, 1)


def test_table_mode_times_the_attempt_keeps_the_screen_awake_and_reads_the_plan(
    phones: Callable[..., Any], live_server: Any, screenshot: Any
) -> None:
    group, alice, _bob = _table()
    HintRequest.objects.create(
        user=alice,
        group=group,
        clock_id="1-1",
        clock_definition=get_clock("1-1").to_json(),  # the rules in use: this deal's plan
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        status=HintRequest.Status.DONE,
        result={
            "words": "Aim for about 5, 7, 9.",
            "words_all": {"en": "Aim for about 5, 7, 9."},
            "pass_rate": 0.7,
        },
        input_hash="x",
    )
    context = phones(alice)
    context.add_init_script(STUBS)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/groups/{group.pk}/table/")
    page.wait_for_selector("text=The screen stays awake")
    assert ["wakeLock", "screen"] in page.evaluate("window.__calls")

    page.click("#timer-toggle")
    page.clock.fast_forward("07:00")
    page.wait_for_selector("#timer-display >> text=7:00")
    page.reload()  # the timer survives a reload
    page.wait_for_selector("#timer-display >> text=7:0")

    page.wait_for_selector("#plan-words >> text=Aim for about 5, 7, 9.")
    page.click("#read-aloud")
    assert ["speak", "Aim for about 5, 7, 9.", "en"] in page.evaluate("window.__calls")
    screenshot(page, "table-phone-390x844")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "table-desktop-1280x900")

    page.click("button[value=failed]")
    page.wait_for_selector("text=1 of 3 face up")
    attempt = group.current_campaign().attempts.get()
    assert attempt.minutes == 7
    assert page.text_content("#timer-display") == "0:00"  # the next attempt starts afresh


def test_table_mode_says_when_the_screen_cannot_stay_awake(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, _bob = _table()
    context = phones(alice)
    context.add_init_script("delete Navigator.prototype.wakeLock; delete navigator.wakeLock;")
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/table/")
    page.wait_for_selector("text=This browser cannot keep the screen awake")


def _attempts(group: Group) -> list[tuple[str, str, int]]:
    campaign = group.current_campaign()
    return list(campaign.attempts.order_by("id").values_list("clock_id", "outcome", "bonus_tokens"))


def test_taps_made_offline_wait_on_the_phone_then_land_in_order(
    phones: Callable[..., Any], live_server: Any, screenshot: Any
) -> None:
    group, alice, _bob = _table()
    context = phones(alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    context.set_offline(True)
    page.click("button[value=failed]")
    page.wait_for_selector("text=1 result waiting to sync")
    page.click("button[value=passed]")
    page.wait_for_selector("text=2 results waiting to sync")
    screenshot(page, "outbox-phone-390x844")
    assert _attempts(group) == []
    context.set_offline(False)
    page.wait_for_selector("#outbox", state="hidden")
    assert _attempts(group) == [("1-1", "failed", 0), ("1-1", "passed", 1)]
    campaign = group.current_campaign()
    assert campaign.bonus_tokens == 0
    page.wait_for_selector("#board >> text=Next clock: 1-2")


def test_a_connection_lost_in_the_middle_of_the_replay_doubles_nothing(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, _bob = _table()
    context = phones(alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    context.set_offline(True)
    page.click("button[value=failed]")
    page.click("button[value=failed]")
    page.wait_for_selector("text=2 results waiting to sync")
    answered: list[int] = []

    def lose_the_first_answer(route: Any) -> None:
        response = route.fetch()  # the server records it...
        answered.append(response.status)
        if len(answered) == 1:
            route.abort()  # ...but the phone never hears back
        else:
            route.fulfill(response=response)

    page.route("**/record/", lose_the_first_answer)
    context.set_offline(False)
    page.wait_for_selector("#outbox", state="hidden", timeout=20000)
    assert len(answered) == 3  # the lost one was sent again, then the second tap
    assert _attempts(group) == [("1-1", "failed", 0), ("1-1", "failed", 1)]
    assert group.current_campaign().bonus_tokens == 2


def test_a_queued_tap_refused_on_replay_is_shown_not_dropped(
    phones: Callable[..., Any], live_server: Any
) -> None:
    group, alice, bob = _table()
    context = phones(alice)
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    context.set_offline(True)
    page.click("button[value=failed]")
    page.wait_for_selector("text=1 result waiting to sync")
    # Meanwhile another phone records the same attempt.
    record_attempt(group.current_campaign(), bob, "1-1", "failed", 3)
    context.set_offline(False)
    page.wait_for_selector("#outbox >> text=Another phone already recorded")
    assert len(_attempts(group)) == 1
