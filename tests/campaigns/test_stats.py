"""campaigns.stats: the bar charts of the statistics page."""

from __future__ import annotations

import re

import pytest

from campaigns.stats import bar_chart


def test_a_pass_rate_bar_is_drawn_against_100_percent() -> None:
    svg = bar_chart([("3", 20.0, "")], "Pass rate", top=100, unit=" %")
    rect = re.search(r'<rect [^>]*height="([\d.]+)"', svg)
    assert rect is not None
    height = float(rect[1])
    full = 180 - 30 - 14
    assert height == pytest.approx(full * 0.2, abs=0.1)


def test_a_few_bars_carry_their_values() -> None:
    svg = bar_chart([("2", 0, ""), ("3", 20, ""), ("4", 50, "")], "Rate", top=100, unit=" %")
    assert ">20 %</text>" in svg and ">50 %</text>" in svg


def test_a_rate_of_no_attempts_is_a_dash_not_zero_percent() -> None:
    svg = bar_chart([("3", None, ""), ("4", 50, "")], "Rate", top=100, unit=" %")
    assert ">—</text>" in svg and ">0 %</text>" not in svg


def test_of_many_bars_only_those_above_zero_carry_a_value() -> None:
    bars: list[tuple[str, float | None, str]] = [(str(i), 0, "") for i in range(40)]
    bars[1] = ("1", 5, "")
    svg = bar_chart(bars, "Attempts per clock")
    assert svg.count('class="value"') == 1 and ">5</text>" in svg
