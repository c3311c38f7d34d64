"""Text fits its box on a 390-px phone in every language: no text element is clipped by its
box (its content wider than it: scrollWidth > clientWidth), and no word is broken inside a
button or a table header ("(2-⏎4)", "✓⏎Geslaagd", "プレイヤ⏎ー" once were)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.groups.services import create_group, fill_in_session
from campaigns.play.services import record_attempt
from tests.evening import an_evening

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Elements that hold text. A scrolling wrapper is not clipped: its table scrolls on purpose.
CLIPPED = """() => {
  const out = [];
  const text = "p, span, a, button, label, th, td, li, dt, dd, strong, b, h1, h2, h3, "
    + "summary, legend";
  for (const el of document.querySelectorAll(text)) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    if (style.overflowX === "auto" || style.overflowX === "scroll") continue;
    if (el.closest("svg")) continue;
    // clientWidth 1: a label for screen readers only (visually-hidden), not clipped text.
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 1) {
      out.push(el.tagName + " «" + el.textContent.trim().slice(0, 40) + "» "
        + el.scrollWidth + ">" + el.clientWidth);
    }
  }
  return out;
}"""

# A word (text between spaces) whose characters sit on more than one line.
BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll("button, th")) {
    if (!el.offsetParent) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(el.tagName + " «" + m[0] + "»");
      }
    }
    // A mark and its word ("✓ Geslaagd") are one label: on one line (except where the
    // Play page's three buttons put the mark above the word on purpose: .big).
    const words = el.textContent.trim().split(/\\s+/);
    if (el.tagName === "BUTTON" && !el.classList.contains("big") && words.length === 2
        && !/\\p{L}/u.test(words[0])) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.push("BUTTON «" + el.textContent.trim() + "» on two lines");
    }
  }
  return out;
}"""


@pytest.fixture
def pages_to_lay_out(live_server: Any) -> Iterator[tuple[Any, list[str]]]:
    alice = User.objects.create_user("alice", password="password")
    evening = an_evening(alice, second="failed")
    g = f"/groups/{evening.group.pk}/"
    pages = [g, g + "table/", g + "statistics/", g + "sessions/", g + "members/"]
    yield alice, [*pages, f"/hints/new/?group={evening.group.pk}"]


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_no_text_is_clipped_and_no_word_broken_at_390_px(
    phones: Callable[..., Any], live_server: Any, pages_to_lay_out: tuple[Any, list[str]], lang: str
) -> None:
    alice, pages = pages_to_lay_out
    page = phones(alice, lang=lang).new_page()
    faults = []
    for path in pages:
        page.goto(f"{live_server.url}{path}")
        faults += [f"{path}: clipped {f}" for f in page.evaluate(CLIPPED)]
        faults += [f"{path}: broken {f}" for f in page.evaluate(BROKEN)]
    assert not faults, f"{lang}: {faults}"


# A failure at 1-2 (its special rules not transcribed) whose cards looked winnable: the
# statistics tile counts it apart, in a note under its figure.
LOST = "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"

# How the player table and the "Not counted" note sit on the statistics page.
STATISTICS = """() => {
  const table = document.querySelector("table.stats-players");
  const note = document.querySelector(".figures .not-counted");
  const figure = note.closest("dd");
  const style = (el) => {
    const s = getComputedStyle(el);
    return [s.fontSize, s.fontWeight];
  };
  return {
    rows: table.tBodies[0].rows.length,
    table: table.scrollWidth,
    room: table.parentElement.clientWidth,
    note: style(note),
    figure: style(figure),
  };
}"""


@pytest.fixture
def four_players(live_server: Any) -> tuple[User, str]:
    """A table of four with long names, its player table filled (each opened an attempt)."""
    alice = User.objects.create_user("alice", password="password")
    names = ["Annemarie", "Bartholomeus", "Cleopatra", "Dorothea"]
    group = create_group(alice, "Donderdagavondtafel", names)
    campaign = group.current_campaign()
    players = list(group.players.all())
    session = fill_in_session(campaign, players)
    record_attempt(campaign, alice, "1-1", "passed", 4, opener=players[0], session=session)
    campaign.refresh_from_db()
    for opener in players[1:]:
        record_attempt(campaign, alice, "1-2", "failed", 3, LOST, opener, session=session)
        campaign.refresh_from_db()
    return alice, f"/groups/{group.pk}/statistics/"


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_statistics_player_table_fits_a_phone_and_the_note_is_not_a_figure(
    phones: Callable[..., Any], live_server: Any, four_players: tuple[User, str], lang: str
) -> None:
    """Dutch at 390 px once cut the player table off on the right ("Als starte…", "1 van
    1"), Japanese broke a header as "プレイヤ⏎ー", and the "Not counted" note was drawn in
    the tile's big bold figure style."""
    alice, path = four_players
    page = phones(alice, lang=lang).new_page()
    page.goto(f"{live_server.url}{path}")
    shown = page.evaluate(STATISTICS)
    assert shown["rows"] == 4
    # The whole table in view: no sideways scrolling to reach its last column.
    assert shown["table"] <= shown["room"], f"{lang}: {shown}"
    assert not page.evaluate(CLIPPED), lang
    assert not page.evaluate(BROKEN), lang
    size, weight = (float(shown["note"][0].removesuffix("px")), int(shown["note"][1]))
    assert size < float(shown["figure"][0].removesuffix("px")), shown
    assert weight < int(shown["figure"][1]), shown
