"""The chapter map: the 40 clocks (and Rebirth) as one SVG picture, each a link to its page.

Chapters are columns, clocks 1–4 rows. States: passed, failed-and-retrying, in the Sleeve,
next, upcoming, and clocks of chapters not opened yet (drawn without their number's colour,
so nothing is spoiled). The Rebirth envelope sits at the end, locked or open.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.play.state import CampaignState, Status
from rules.game import CHAPTERS, CLOCKS_PER_CHAPTER

CELL = 40
LEFT = 22
TOP = 24
# What a clock's circle shows instead of its number.
MARKS = {"passed": "✓", "sleeve": "↩", "retrying": "✗", "next": "▶"}
# A drawing is kept for the minutes in which the table's phones fetch the changed board.
DRAWING_TIMEOUT = 10 * 60


def clock_state(state: CampaignState, clock_id: str) -> str:
    row = state.by_id[clock_id]
    if row.status == Status.PASSED:
        return "passed"
    if row.status == Status.SLEEVE:
        return "sleeve"
    if clock_id == state.next_clock:
        return "retrying" if row.retrying else "next"
    if row.retrying:
        return "retrying"
    return "upcoming" if state.clock_open(clock_id) else "locked"


def state_labels() -> dict[str, str]:
    return {
        "passed": _("passed"),
        "retrying": _("failed, being retried"),
        "sleeve": _("in the Sleeve of Regrets"),
        "next": _("next"),
        "upcoming": _("upcoming"),
        "locked": _("chapter not opened yet"),
    }


def drawn_chapter_map(state: CampaignState, group_id: int) -> SafeString:
    """``chapter_map``, drawn once per state and language for the phones at a table: the
    drawing is the largest template of the board, and after a change every phone fetches
    the board. The key holds everything the drawing shows (each clock's status, attempts
    and retry, the next clock, the campaign's kind), so it can never be stale, and the same
    for every member."""
    shown = (
        group_id,
        get_language(),
        state.campaign.kind,
        state.next_clock,
        [(r.clock_id, r.status, r.attempts, r.retrying) for r in state.rows],
    )
    key = "live:map:" + hashlib.sha256(repr(shown).encode()).hexdigest()
    drawing = cache.get(key)
    if drawing is None:
        drawing = chapter_map(state, group_id)
        cache.set(key, str(drawing), DRAWING_TIMEOUT)
    return mark_safe(drawing)  # chapter_map's own drawing, which escapes every label


def chapter_map(state: CampaignState, group_id: int) -> SafeString:
    """Two bands of five chapters (columns) by four clocks (rows), so that each clock stays
    a thumb-sized link on a phone; the Rebirth envelope below them. Drawn by the template
    ``campaigns/chapter_map.svg``, which escapes every label."""
    labels = state_labels()
    band_height = TOP + 4 * CELL
    rows = [
        {"y": band * band_height + TOP + (number - 1) * CELL + CELL / 2 + 4, "label": "I" * number}
        for band in range(2)
        for number in range(1, CLOCKS_PER_CHAPTER + 1)
    ]
    chapters = []
    for chapter in CHAPTERS:
        top = ((chapter - 1) // 5) * band_height
        x = LEFT + ((chapter - 1) % 5) * CELL + CELL / 2
        clocks = []
        for number in range(1, CLOCKS_PER_CHAPTER + 1):
            clock_id = f"{chapter}-{number}"
            kind = clock_state(state, clock_id)
            y = top + TOP + (number - 1) * CELL + CELL / 2
            tip = f"{clock_id}: {labels[kind]}"
            row = state.by_id[clock_id]
            if row.attempts:
                tip += f" ({row.attempts})"
            clocks.append(
                {
                    "url": reverse("campaigns:clock", args=[group_id, clock_id]),
                    "kind": kind,
                    "tip": tip,
                    "x": x,
                    "y": y,
                    "text_y": y + 4,
                    "mark": MARKS.get(kind, number),
                }
            )
        chapters.append({"number": chapter, "x": x, "y": top + 16, "clocks": clocks})
    if "rebirth" in state.by_id:
        kind = clock_state(state, "rebirth")
    else:
        kind = "rebirth-open" if state.rebirth_unlocked else "rebirth-locked"
    rebirth_y = 2 * band_height + 6
    rebirth = {
        "kind": kind,
        "title": _("Rebirth unlocked") if state.rebirth_unlocked else _("Rebirth: locked"),
        "x": LEFT,
        "y": rebirth_y,
        "width": 5 * CELL,
        "text_x": LEFT + 5 * CELL / 2,
        "text_y": rebirth_y + 22,
        "label": _("Rebirth") + (" ★" if state.rebirth_unlocked else ""),
    }
    return render_to_string(
        "campaigns/chapter_map.svg",
        {
            "name": _("Chapter map"),
            "width": LEFT + 5 * CELL + 4,
            "height": 2 * band_height + 48,
            "rows": rows,
            "chapters": chapters,
            "rebirth": rebirth,
        },
    )
