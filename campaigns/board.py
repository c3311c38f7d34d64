"""The chapter map: the 40 clocks (and Rebirth) as one SVG picture, each a link to its page.

Chapters are columns, clocks 1–4 rows. States: passed, failed-and-retrying, in the Sleeve,
next, upcoming, and clocks of chapters not opened yet (drawn without their number's colour,
so nothing is spoiled). The Rebirth envelope sits at the end, locked or open.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.services import CampaignState, Status

CELL = 40
LEFT = 22
TOP = 24


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
    chapter = int(clock_id.split("-")[0]) if clock_id != "rebirth" else 10
    return "upcoming" if state.chapter_open(chapter) else "locked"


def state_labels() -> dict[str, str]:
    return {
        "passed": _("passed"),
        "retrying": _("failed, being retried"),
        "sleeve": _("in the Sleeve of Regrets"),
        "next": _("next"),
        "upcoming": _("upcoming"),
        "locked": _("chapter not opened yet"),
    }


def chapter_map(state: CampaignState, group_id: int) -> SafeString:
    """Two bands of five chapters (columns) by four clocks (rows), so that each clock stays
    a thumb-sized link on a phone; the Rebirth envelope below them."""
    labels = state_labels()
    name = escape(_("Chapter map"))
    band_height = TOP + 4 * CELL
    width = LEFT + 5 * CELL + 4
    height = 2 * band_height + 48
    parts = [
        f'<svg class="chapter-map" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{name}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{name}</title>",
    ]
    for band in range(2):
        top = band * band_height
        for number in range(1, 5):
            y = top + TOP + (number - 1) * CELL + CELL / 2
            parts.append(f'<text x="2" y="{y + 4}" class="map-row">{"I" * number}</text>')
    for chapter in range(1, 11):
        top = ((chapter - 1) // 5) * band_height
        x = LEFT + ((chapter - 1) % 5) * CELL + CELL / 2
        parts.append(
            f'<text x="{x}" y="{top + 16}" text-anchor="middle" class="map-col">{chapter}</text>'
        )
        for number in range(1, 5):
            clock_id = f"{chapter}-{number}"
            kind = clock_state(state, clock_id)
            y = top + TOP + (number - 1) * CELL + CELL / 2
            url = reverse("campaigns:clock", args=[group_id, clock_id])
            tip = f"{clock_id}: {labels[kind]}"
            row = state.by_id[clock_id]
            if row.attempts:
                tip += f" ({row.attempts})"
            mark = {"passed": "✓", "sleeve": "↩", "retrying": "✗", "next": "▶"}.get(kind, "")
            parts.append(
                f'<a href="{url}" class="map-clock {kind}"><title>{escape(tip)}</title>'
                f'<circle cx="{x}" cy="{y}" r="16"/>'
                f'<text x="{x}" y="{y + 4}" text-anchor="middle">{mark or number}</text></a>'
            )
    if "rebirth" in state.by_id:
        kind = clock_state(state, "rebirth")
    else:
        kind = "rebirth-open" if state.rebirth_unlocked else "rebirth-locked"
    title = _("Rebirth unlocked") if state.rebirth_unlocked else _("Rebirth: locked")
    ry = 2 * band_height + 6
    rebirth = escape(_("Rebirth"))
    parts.append(
        f'<g class="map-rebirth {kind}"><title>{escape(title)}</title>'
        f'<rect x="{LEFT}" y="{ry}" width="{5 * CELL}" height="34" rx="8"/>'
        f'<text x="{LEFT + 5 * CELL / 2}" y="{ry + 22}" text-anchor="middle">'
        f"{rebirth}{' ★' if state.rebirth_unlocked else ''}</text></g>"
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - labels are escaped above
