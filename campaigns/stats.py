"""Statistics of a campaign, and the small SVG bar charts the statistics page draws on the
server (no JavaScript, no chart library). Three aggregate queries whatever the history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from campaigns.models import Attempt, Campaign
from campaigns.services import NUMBERED_CLOCKS


@dataclass
class Statistics:
    per_clock: dict[str, tuple[int, int]]  # clock -> (attempts, passes)
    by_players: dict[int, tuple[int, int]]  # 2..4 -> (attempts, passes)
    tokens_at_pass: dict[int, int]  # Bonus tokens face up when a clock was passed -> passes

    def to_json(self) -> dict[str, Any]:
        return {
            "attempts_per_clock": {c: a for c, (a, _) in self.per_clock.items()},
            "pass_rate_by_players": {
                str(n): (p / a if a else None) for n, (a, p) in self.by_players.items()
            },
            "bonus_tokens_at_pass": {str(n): c for n, c in self.tokens_at_pass.items()},
        }


def statistics(campaign: Campaign) -> Statistics:
    rows = campaign.attempts.all()
    passed = Count("id", filter=Q(outcome=Attempt.Outcome.PASSED))
    per_clock = dict.fromkeys(NUMBERED_CLOCKS, (0, 0))
    for clock, n, p in rows.values_list("clock_id").annotate(n=Count("id"), p=passed):
        per_clock[clock] = (n, p)
    by_players = dict.fromkeys((2, 3, 4), (0, 0))
    for players, n, p in rows.values_list("players").annotate(n=Count("id"), p=passed):
        by_players[players] = (n, p)
    tokens = dict.fromkeys(range(4), 0)
    for count, n in (
        rows.filter(outcome=Attempt.Outcome.PASSED)
        .values_list("bonus_tokens")
        .annotate(n=Count("id"))
    ):
        tokens[count] = n
    return Statistics(per_clock, by_players, tokens)


def bar_chart(
    bars: list[tuple[str, float | None, str]],
    title: str,
    width: int = 640,
    height: int = 180,
    top: float | None = None,
    unit: str = "",
) -> SafeString:
    """An accessible SVG bar chart: ``bars`` are (label, value, text shown on hover); a
    value of None (nothing to measure, e.g. a rate of no attempts) draws no bar and "—".
    ``top`` is the value of a full-height bar (100 for a percentage; else the largest
    value). Bars carry their values, since a phone has no hover to show them (of many
    bars, only those above zero)."""
    top = top or max((value or 0 for _, value, _ in bars), default=0) or 1
    gap = 2
    slot = width / max(len(bars), 1)
    plot = height - 30
    headroom = 14  # room for the value above the tallest bar
    few = len(bars) <= 12  # many bars (a clock each) carry a value only where there is one
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="0" y1="{plot}" x2="{width}" y2="{plot}" class="axis"/>',
    ]
    for index, (label, value, hover) in enumerate(bars):
        h = round((plot - headroom) * min(value or 0, top) / top, 1)
        x = round(index * slot + gap / 2, 1)
        parts.append(
            f'<rect x="{x}" y="{plot - h}" width="{round(slot - gap, 1)}" height="{h}" '
            f'class="bar"><title>{escape(hover)}</title></rect>'
        )
        if few or value:
            shown = "—" if value is None else f"{round(value)}{escape(unit)}"
            parts.append(
                f'<text x="{round(x + (slot - gap) / 2, 1)}" y="{round(plot - h - 3, 1)}" '
                f'text-anchor="middle" class="value">{shown}</text>'
            )
        if len(bars) <= 12 or index % 4 == 0:
            parts.append(
                f'<text x="{round(x + (slot - gap) / 2, 1)}" y="{height - 12}" '
                f'text-anchor="middle" class="label">{escape(label)}</text>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every piece of text is escaped above
