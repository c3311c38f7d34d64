"""The Play page on a 390×844 phone: the clock being played, its record buttons and Undo are
on the first screen, the chapter map and the history after them; "Was it winnable?" has room
of its own, its cards readable. Screenshots go to docs/screenshots/ (for people) and
var/screens."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Group
from campaigns.play.services import record_attempt
from tests.e2e.conftest import DOC_SCREENS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
# Fails 1-1 (two cards at segment 1, then values drop), but its cards can pass.
LOST = "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"


@pytest.fixture
def dutch_table_lost_1_1(live_server: Any) -> tuple[User, Group]:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Dinsdagavondtafel", ["Annemarie", "Bartholomeus", "Cleo"])
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "failed", 3, session=session, layout=LOST)
    return alice, group


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_clock_its_buttons_and_undo_are_on_the_first_screen(
    phones: Any,
    live_server: Any,
    dutch_table_lost_1_1: tuple[User, Group],
    screenshot: Any,
    lang: str,
) -> None:
    alice, group = dutch_table_lost_1_1
    context = phones(alice)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    first_screen = PHONE["height"]
    for selector in (
        "#play-title",
        "button[value=passed]",
        "button[value=failed]",
        "button[value=skip]",
        "form.undo button",
    ):
        box = _box(page, selector)
        assert box["y"] >= 0 and box["y"] + box["height"] <= first_screen, (selector, box)
    # each label fits its button, whole words only (no "Overslaa n")
    words = page.eval_on_selector_all(
        ".record .actions button > span:last-child",
        "spans => spans.map(s => [s.textContent, s.getClientRects().length,"
        " s.scrollWidth <= s.parentElement.clientWidth])",
    )
    assert len(words) == 3 and all(lines == 1 and fits for _w, lines, fits in words), words
    undo = _box(page, "form.undo button")
    assert _box(page, ".chapter-map")["y"] > undo["y"]  # the map after
    assert _box(page, "section.recent")["y"] > undo["y"]  # the history after
    screenshot(page, f"play-phone-390x844-{lang}")
    if lang == "en":
        DOC_SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOC_SCREENS / "play-390x844.png"))  # the first screen


def test_was_it_winnable_has_room_and_readable_cards(
    phones: Any, live_server: Any, dutch_table_lost_1_1: tuple[User, Group], screenshot: Any
) -> None:
    alice, group = dutch_table_lost_1_1
    page = phones(alice).new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    winnable = page.locator("details.winnable").first
    winnable.locator("summary").click()
    box = winnable.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # not squeezed into a table cell: as wide as its card, less the card's padding
    card = _box(page, "section.recent")
    assert box["width"] >= card["width"] - 48
    # every card's label on the faces, and in the list beside them, is at least 12 px tall
    sizes = page.eval_on_selector_all(
        "details.winnable .cards-list td",
        "items => items.map(i => parseFloat(getComputedStyle(i).fontSize))",
    )
    assert sizes and min(sizes) >= 12, sizes
    winnable.scroll_into_view_if_needed()
    screenshot(page, "winnable-phone-390x844")
    DOC_SCREENS.mkdir(parents=True, exist_ok=True)
    winnable.screenshot(path=str(DOC_SCREENS / "winnable-390.png"))


def test_the_count_a_tap_records_is_next_to_the_buttons(
    phones: Any, live_server: Any, screenshot: Any
) -> None:
    """A new 4-player group once recorded 3 players: the count is preset from the group and
    read next to the buttons, and it follows the chips before the tap."""
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Vier", ["Ann", "Ben", "Cleo", "Dirk"])
    page = phones(alice).new_page()
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    line = page.locator("#players-now")
    assert line.text_content() == "A tap records 4 players, 4 face-up cards"
    assert page.locator("input[name=players][value='4']").is_checked()
    # next to the buttons: right under them, on the first screen
    buttons = _box(page, ".record .actions")
    box = _box(page, "#players-now")
    assert 0 <= box["y"] - (buttons["y"] + buttons["height"]) < 24, (buttons, box)
    assert box["y"] + box["height"] <= PHONE["height"]
    page.locator("label.chip", has_text="3").click()
    assert line.text_content() == "A tap records 3 players, 3 face-up cards"
    page.locator("label.chip", has_text="4").click()
    screenshot(page, "play-player-count-390x844")
    DOC_SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOC_SCREENS / "play-player-count-390x844.png"))
