"""What an axe audit cannot judge (test_accessibility_browser.py audits the rest): the board,
the hint form and the clock editor used with the keyboard alone (every control reached, the
focus visible, no trap); another phone's record announced through a polite live region;
prefers-reduced-motion honoured; touch targets at least 24×24 px."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Group
from campaigns.play.services import record_attempt
from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The focused element, whether something shows it (an outline or a ring), and its name.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const shown = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    || style.boxShadow !== 'none';
  const name = el.tagName + (el.name ? '[' + el.name + '=' + (el.value || '') + ']' : '')
    + (el.id ? '#' + el.id : '') + ' ' + (el.textContent || el.getAttribute('aria-label') || '')
      .trim().slice(0, 30);
  return {name, shown};
}"""


@pytest.fixture
def failed_in_a_session(live_server: Any) -> tuple[User, Group]:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    return alice, group


def _tab_through(page: Any, presses: int = 250) -> list[dict[str, Any]]:
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is not None:
            seen.append(focused)
    return seen


@pytest.mark.parametrize(
    ("path", "reached"),
    [
        ("/groups/{g}/", ["[action=passed]", "[action=failed]", "[action=skip]", "Undo"]),
        ("/hints/new/?group={g}", ["[moon=1.0]", "[players=", "Ask for a hint"]),
        ("/groups/{g}/clocks/1-2/edit/", ["[start=", "Save"]),
    ],
    ids=["board", "hint form", "editor"],
)
def test_the_keyboard_alone_reaches_every_control_with_the_focus_shown(
    phones: Any,
    live_server: Any,
    failed_in_a_session: tuple[User, Group],
    path: str,
    reached: list[str],
) -> None:
    alice, group = failed_in_a_session
    page = phones(alice).new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server.url + path.format(g=group.pk))
    seen = _tab_through(page)
    names = [f["name"] for f in seen]
    for wanted in reached:
        assert any(wanted in name for name in names), (wanted, sorted(set(names)))
    hidden = [f["name"] for f in seen if not f["shown"]]
    assert hidden == [], "focused without a visible focus indicator"
    # no trap: the focus came round to the top of the page again
    assert names.count(names[0]) >= 2, names


def test_another_phones_record_is_announced_politely(
    phones: Any, live_server: Any, failed_in_a_session: tuple[User, Group]
) -> None:
    alice, group = failed_in_a_session
    watching = phones(alice).new_page()
    watching.goto(f"{live_server.url}/groups/{group.pk}/")
    said = watching.locator("#live-said")
    assert said.get_attribute("aria-live") == "polite" and said.inner_text() == ""
    tapping = phones(alice).new_page()
    tapping.goto(f"{live_server.url}/groups/{group.pk}/")
    tapping.click("button[value=failed]")
    tapping.wait_for_selector("text=1-1")
    watching.wait_for_function(
        "() => document.querySelector('#live-said').textContent.includes('1-1')", timeout=20_000
    )
    assert "Another phone" in said.inner_text()


def test_reduced_motion_turns_transitions_off(
    phones: Any, live_server: Any, failed_in_a_session: tuple[User, Group]
) -> None:
    """htmx's loading indicator fades in (timekeeper.css): not for a reader who asked the
    system for less motion."""
    alice, group = failed_in_a_session
    page = phones(alice).new_page()
    page.goto(f"{live_server.url}/hints/")
    fading = (
        "() => { const el = document.createElement('span');"
        " el.className = 'htmx-indicator htmx-request'; document.body.append(el);"
        " const d = getComputedStyle(el).transitionDuration; el.remove(); return d; }"
    )
    assert page.evaluate(fading) != "0s"  # it does move by default
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(fading) == "0s"


TARGETS = (
    "button:not([disabled]), select, textarea, summary, a.button, label.chip, .topnav a,"
    " .subnav a, input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def test_touch_targets_are_at_least_24_px(
    phones: Any, live_server: Any, failed_in_a_session: tuple[User, Group]
) -> None:
    alice, group = failed_in_a_session
    page = phones(alice).new_page()
    small = []
    for path in (
        f"/groups/{group.pk}/",
        f"/groups/{group.pk}/table/",
        f"/hints/new/?group={group.pk}",
        f"/groups/{group.pk}/clocks/1-2/edit/",
        f"/groups/{group.pk}/statistics/",
    ):
        page.goto(live_server.url + path)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        found = page.eval_on_selector_all(
            TARGETS,
            "els => els.filter(el => el.getClientRects().length).map(el => {"
            " const r = el.getBoundingClientRect();"
            " return [el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim()"
            "   .slice(0, 20), Math.round(r.width), Math.round(r.height)]; })",
        )
        small += [(path, *item) for item in found if item[1] < 24 or item[2] < 24]
    assert small == [], small
    assert PHONE["width"] == 390
