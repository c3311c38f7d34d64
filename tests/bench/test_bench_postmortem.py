"""A smoke run of ``python -m bench.bench_postmortem``: it measures what it says."""

from __future__ import annotations

from bench.bench_postmortem import CLOCKS, measure
from rules.clock import Clock


def test_the_benchmark_measures_what_it_says() -> None:
    """A smoke run of ``python -m bench.bench_postmortem`` on a few layouts."""
    clock = Clock.from_json(CLOCKS["segment 1 holds 4 cards"])
    numbers = measure(clock, 40, move_form=True)
    assert set(numbers) == {"wall_mean_ms", "mean_ms", "median_ms", "p99_ms", "max_ms", "winnable"}
    assert 0 < numbers["median_ms"] <= numbers["p99_ms"] <= numbers["max_ms"]
    assert 0 < numbers["winnable"] < 1
