"""Geometry of the statistics page's charts: numbers and words only, never markup.

The SVG is written by ``templates/campaigns/statistics.html`` from these values, so every
text in a chart goes through the template's auto-escaping. Each chart keeps to a viewBox a
390-px phone shows without scrolling; colours come from CSS classes, which the light and the
dark theme define.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.statistics.figures import (
    CampaignLine,
    ClockFigures,
    HintBin,
    HintFigures,
    Statistics,
    Tally,
)
from rules.game import CHAPTERS

# --- the chapter map, coloured by attempts to pass --------------------------------------------

CELL_W, CELL_H, CELL_GAP, ROW_LABEL = 70, 28, 4, 44
# Attempts to pass -> heat level: 1, 2, 3, 4-5, 6 or more.
HEAT_LEVELS = ((1, 1), (2, 2), (3, 3), (4, 5), (6, None))


@dataclass
class HeatCell:
    clock: str
    x: int
    y: int
    level: str  # heat-1 … heat-5, failing, unplayed, locked
    text: str  # what the cell says (attempts to pass, or attempts so far)
    title: str  # the cell's full sentence (hover and screen readers)

    @property
    def text_x(self) -> int:
        return self.x + CELL_W // 2

    @property
    def text_y(self) -> int:
        return self.y + CELL_H // 2 + 4


@dataclass
class HeatRow:
    chapter: int
    y: int
    label_y: int


@dataclass
class HeatMap:
    width: int
    height: int
    rows: list[HeatRow]
    cells: list[HeatCell]
    legend: list[tuple[str, str]]  # (css class, words)
    cell_width: int = CELL_W
    cell_height: int = CELL_H


def heat_level(attempts_to_pass: int) -> str:
    for index, (low, high) in enumerate(HEAT_LEVELS, start=1):
        if attempts_to_pass >= low and (high is None or attempts_to_pass <= high):
            return f"heat-{index}"
    return "heat-5"


def heat_map(stats: Statistics) -> HeatMap:
    cells: list[HeatCell] = []
    rows: list[HeatRow] = []
    for chapter in CHAPTERS:
        y = (chapter - 1) * (CELL_H + CELL_GAP)
        rows.append(HeatRow(chapter, y, y + CELL_H // 2 + 4))
    for index, clock in enumerate(c for c in stats.clocks if c.chapter is not None):
        assert clock.chapter is not None
        x = ROW_LABEL + (index % 4) * (CELL_W + CELL_GAP)
        y = (clock.chapter - 1) * (CELL_H + CELL_GAP)
        cells.append(HeatCell(clock.clock, x, y, *_cell(clock)))
    legend = [
        ("heat-1", _("1 attempt")),
        ("heat-2", "2"),
        ("heat-3", "3"),
        ("heat-4", "4–5"),
        ("heat-5", _("6 or more")),
        ("failing", _("not passed yet")),
        ("unplayed", _("not played")),
        ("locked", _("chapter not opened")),
    ]
    return HeatMap(
        width=ROW_LABEL + 4 * CELL_W + 3 * CELL_GAP,
        height=10 * CELL_H + 9 * CELL_GAP,
        rows=rows,
        cells=cells,
        legend=legend,
    )


def _cell(clock: ClockFigures) -> tuple[str, str, str]:
    if not clock.opened:
        return "locked", "", _("%(clock)s: chapter not opened yet") % {"clock": clock.clock}
    if clock.attempts_to_pass is not None:
        title = ngettext(
            "%(clock)s: passed at attempt %(n)d",
            "%(clock)s: passed after %(n)d attempts",
            clock.attempts_to_pass,
        ) % {"clock": clock.clock, "n": clock.attempts_to_pass}
        return (
            heat_level(clock.attempts_to_pass),
            f"{clock.clock} · {clock.attempts_to_pass}",
            title,
        )
    if clock.attempts:
        title = ngettext(
            "%(clock)s: %(n)d attempt, not passed yet",
            "%(clock)s: %(n)d attempts, not passed yet",
            clock.attempts,
        ) % {"clock": clock.clock, "n": clock.attempts}
        return "failing", f"{clock.clock} ✗ {clock.attempts}", title
    return "unplayed", clock.clock, _("%(clock)s: not played") % {"clock": clock.clock}


# --- campaign progress across sessions --------------------------------------------------------

PLOT_W, PLOT_H, LEFT, TOP, BOTTOM = 330, 170, 30, 10, 24
LINE_STYLES = 6  # line-1 … line-6: colour and dash, so lines differ without colour too


@dataclass
class ProgressPoint:
    x: float
    y: float
    title: str


@dataclass
class ProgressLine:
    style: str
    name: str
    points: list[ProgressPoint]
    path: str  # the polyline's points attribute: numbers only
    label_x: float
    label_y: float
    summary: str


@dataclass
class ProgressChart:
    width: int
    height: int
    left: int
    top: int
    bottom: int
    lines: list[ProgressLine]
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]


def campaign_name(line: CampaignLine) -> str:
    if line.kind == "rebirth":
        return _("Campaign %(n)d (Rebirth)") % {"n": line.number}
    return _("Campaign %(n)d") % {"n": line.number}


def progress_chart(stats: Statistics) -> ProgressChart | None:
    played = [line for line in stats.all_campaigns if line.sessions]
    if not played:
        return None
    most = max(len(line.sessions) for line in played)
    span = max(most - 1, 1)
    top_value = 41 if any(line.kind == "rebirth" for line in played) else 40

    def x_of(index: int) -> float:
        return round(LEFT + (PLOT_W - LEFT - 8) * index / span, 1)

    def y_of(value: int) -> float:
        return round(TOP + (PLOT_H - TOP - BOTTOM) * (1 - value / top_value), 1)

    lines = []
    for number, line in enumerate(played):
        name = campaign_name(line)
        points = [
            ProgressPoint(
                x_of(i),
                y_of(s.clocks_passed_after),
                _("%(campaign)s, session %(n)d (%(date)s): %(passed)d clocks passed")
                % {
                    "campaign": name,
                    "n": i + 1,
                    "date": s.date.isoformat(),
                    "passed": s.clocks_passed_after,
                },
            )
            for i, s in enumerate(line.sessions)
        ]
        last = line.sessions[-1]
        lines.append(
            ProgressLine(
                style=f"line-{number % LINE_STYLES + 1}",
                name=name,
                points=points,
                path=" ".join(f"{p.x},{p.y}" for p in points),
                label_x=points[-1].x,
                label_y=points[-1].y,
                summary=ngettext(
                    "%(campaign)s: %(passed)d clocks passed after %(n)d session",
                    "%(campaign)s: %(passed)d clocks passed after %(n)d sessions",
                    len(line.sessions),
                )
                % {"campaign": name, "passed": last.clocks_passed_after, "n": len(line.sessions)},
            )
        )
    step = max(1, round(most / 6))
    return ProgressChart(
        width=PLOT_W,
        height=PLOT_H,
        left=LEFT,
        top=TOP,
        bottom=PLOT_H - BOTTOM,
        lines=lines,
        y_ticks=[(y_of(v), v) for v in (0, 10, 20, 30, 40)],
        x_ticks=[(x_of(i), i + 1) for i in range(0, most, step)],
    )


# --- small bars in tables ---------------------------------------------------------------------


@dataclass
class RateBar:
    """A rate as a bar 0-100 wide with its interval as a whisker (inside a 100-wide SVG)."""

    width: float
    low: float | None
    high: float | None
    percent: int | None
    low_percent: int | None
    high_percent: int | None


def rate_bar(tally: Tally) -> RateBar:
    rate, interval = tally.rate, tally.interval
    if rate is None or interval is None:
        return RateBar(0, None, None, None, None, None)
    return RateBar(
        round(rate * 100, 1),
        round(interval[0] * 100, 1),
        round(interval[1] * 100, 1),
        round(rate * 100),
        round(interval[0] * 100),
        round(interval[1] * 100),
    )


@dataclass
class TokenBar:
    tokens: int
    attempts: int
    passes: int
    percent: int | None
    x: int
    height: float
    y: float


TOKEN_CHART_H, TOKEN_BASE = 150, 124


def token_bars(stats: Statistics) -> list[TokenBar]:
    bars = []
    for index, (tokens, tally) in enumerate(stats.by_bonus_tokens.items()):
        rate = tally.rate
        height = round((TOKEN_BASE - 20) * (rate or 0), 1)
        bars.append(
            TokenBar(
                int(tokens),
                tally.attempts,
                tally.passes,
                None if rate is None else round(rate * 100),
                20 + index * 80,
                height,
                round(TOKEN_BASE - height, 1),
            )
        )
    return bars


# --- hint reliability -------------------------------------------------------------------------

# The reliability chart: a square plot of side R_SIDE at (R_LEFT, R_TOP) in a 240 × 244 box,
# with room around it for the largest dot and the axis labels.
R_LEFT, R_TOP, R_SIDE = 40, 14, 186


@dataclass
class ReliabilityPoint:
    cx: float
    cy: float
    r: float
    hints: int
    predicted: int
    actual: int

    @property
    def diamond(self) -> str:
        """The points of a diamond around the point (the series at the table's rate is drawn
        as diamonds, the hints' own predictions as circles: told apart without colour)."""
        x, y, r = self.cx, self.cy, self.r * 1.25
        corners = ((x, y - r), (x + r, y), (x, y + r), (x - r, y))
        return " ".join(f"{round(a, 1)},{round(b, 1)}" for a, b in corners)


def reliability_points(hints: HintFigures) -> list[ReliabilityPoint]:
    """The hints' own predictions, one point per bin, the area by the number of hints."""
    return _points(hints.bins)


def table_reliability_points(hints: HintFigures) -> list[ReliabilityPoint]:
    """The same hints predicted at the table's own rate; [] while it has no estimate."""
    return [] if hints.at_table is None else _points(hints.at_table.bins)


def _points(bins: list[HintBin]) -> list[ReliabilityPoint]:
    most = max((b.hints for b in bins), default=0) or 1
    points = []
    for hint_bin in bins:
        if not hint_bin.hints or hint_bin.predicted is None or hint_bin.actual is None:
            continue
        points.append(
            ReliabilityPoint(
                round(R_LEFT + R_SIDE * hint_bin.predicted, 1),
                round(R_TOP + R_SIDE * (1 - hint_bin.actual), 1),
                round(4 + 8 * (hint_bin.hints / most) ** 0.5, 1),
                hint_bin.hints,
                round(hint_bin.predicted * 100),
                round(hint_bin.actual * 100),
            )
        )
    return points


# --- community --------------------------------------------------------------------------------


@dataclass
class Comparison:
    clock: str
    sentence: str
    ours: int  # attempts to pass, or attempts so far when not passed
    usual: int
    groups: int
    passed: bool

    @property
    def gap(self) -> int:
        return self.ours - self.usual


def comparisons(stats: Statistics) -> list[Comparison]:
    """One sentence per clock the group played that other tables' figures exist for."""
    found = []
    for clock in stats.clocks:
        if clock.community is None or not clock.attempts:
            continue
        usual = clock.community.median_attempts_to_pass
        if clock.attempts_to_pass is not None:
            ours = clock.attempts_to_pass
            sentence = ngettext(
                "you took %(ours)d try; tables usually take %(usual)d",
                "you took %(ours)d tries; tables usually take %(usual)d",
                ours,
            ) % {"ours": ours, "usual": usual}
        else:
            ours = clock.attempts
            sentence = ngettext(
                "%(ours)d try so far; tables usually take %(usual)d",
                "%(ours)d tries so far; tables usually take %(usual)d",
                ours,
            ) % {"ours": ours, "usual": usual}
        found.append(
            Comparison(
                clock.clock,
                sentence,
                ours,
                usual,
                clock.community.groups,
                clock.attempts_to_pass is not None,
            )
        )
    return found


def hardest_for_us(found: list[Comparison], most: int = 5) -> list[Comparison]:
    """The clocks that took this table the most tries beyond other tables' usual."""
    harder = [c for c in found if c.gap > 0]
    return sorted(harder, key=lambda c: -c.gap)[:most]
