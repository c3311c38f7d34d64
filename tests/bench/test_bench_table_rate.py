"""A smoke run of ``python -m bench.bench_table_rate``: it prints what it says."""

from __future__ import annotations

import re

import pytest

from bench.bench_table_rate import Difference, deals, main, overall

NUMBER = r"[+-]?\d+\.\d+"


def test_the_deals_are_the_base_clock_and_panel_clocks_at_every_size() -> None:
    found = deals()
    assert [d.case.players for d in found] == [2, 3, 4, 2, 3, 4]
    assert not found[0].clock.rules  # the base clock: no special rule


def test_the_overall_gain_is_the_mean_with_errors_combined() -> None:
    rows = [
        Difference("a", 0.12, 0.12, 0.50, 0.45, 0.03),
        Difference("b", 0.12, 0.12, 0.40, 0.41, 0.04),
        Difference("a", 0.02, 0.02, 0.70, 0.70, 0.0),
    ]
    mean, error, count = overall(rows, 0.12)
    assert (mean, error, count) == (pytest.approx(0.02), pytest.approx(0.025), 2)


def test_a_tiny_run_prints_a_line_per_deal_and_rate_then_the_overall(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--effort", "0.02", "--games", "300", "--deals", "0", "--rates", "0.12"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(
        rf"base clock, 2 players +true 0\.12 \(plans at 0\.12\): learned {NUMBER}, "
        rf"at 0\.05 {NUMBER}, gain {NUMBER} ± {NUMBER}",
        lines[0],
    ), lines[0]
    assert re.fullmatch(
        rf"overall, true 0\.12: gain {NUMBER} ± {NUMBER} over 1 deals, 300 games each", lines[1]
    ), lines[1]
    assert re.fullmatch(r"effort 0\.02, \d+ s, load .+", lines[2]), lines[2]
