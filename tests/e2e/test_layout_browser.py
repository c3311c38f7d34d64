"""Text fits its box on a 390-px phone in every language: no text element is clipped by its
box (its content wider than it: scrollWidth > clientWidth), and no word is broken inside a
button or a table header ("(2-⏎4)", "✓⏎Geslaagd", "プレイヤ⏎ー" once were)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

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
