"""The one percentile the benchmarks and the load report print (bench/stats.py)."""

from __future__ import annotations

import pytest

from bench.stats import percentile, summary


def test_a_p95_is_never_below_its_p50_for_two_samples() -> None:
    # The load report's two hints: "p50 4.3 s, p95 3.7 s" before.
    waits = [4.3, 3.7]
    assert percentile(waits, 50) == 3.7
    assert percentile(waits, 95) == 4.3


@pytest.mark.parametrize("n", range(1, 41))
def test_percentiles_grow_with_p_for_every_sample_size(n: int) -> None:
    samples = [float(x) for x in range(n, 0, -1)]
    ranks = [percentile(samples, p) for p in (1, 25, 50, 75, 90, 95, 99, 100)]
    assert ranks == sorted(ranks)
    assert ranks[-1] == n


def test_it_is_the_nearest_rank_of_a_hundred_samples() -> None:
    samples = list(range(1, 101))
    assert percentile(samples, 50) == 50
    assert percentile(samples, 95) == 95
    assert percentile(samples, 99) == 99


def test_one_sample_is_every_percentile() -> None:
    assert percentile([7.0], 50) == percentile([7.0], 95) == 7.0


@pytest.mark.parametrize("p", [0, -5, 101])
def test_it_refuses_a_percentile_outside_0_to_100(p: float) -> None:
    with pytest.raises(ValueError, match="not in"):
        percentile([1.0, 2.0], p)


def test_it_refuses_no_samples() -> None:
    with pytest.raises(ValueError, match="no samples"):
        percentile([], 50)


def test_the_summary_prints_both_and_the_count() -> None:
    assert summary([3.7, 4.3], unit="s") == "p50 3.7 s, p95 4.3 s (n=2)"
