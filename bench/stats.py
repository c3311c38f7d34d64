"""The percentiles every benchmark and the load report print: one definition, so that a p95
is never below its p50, whatever the number of samples.

Nearest rank: the p-th percentile of n samples is the smallest sample with at least p % of
the samples at or below it (the ``ceil(p / 100 * n)``-th, counting from one). It is always a
sample that was measured, and it never decreases as p grows: with two samples the p50 is the
first and the p95 the second.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(samples: Iterable[float], p: float) -> float:
    """The ``p``-th percentile (0 < p <= 100) of ``samples`` by nearest rank; ValueError for
    no samples or a ``p`` outside that range."""
    ordered = sorted(samples)
    if not ordered:
        raise ValueError("no samples")
    if not 0 < p <= 100:
        raise ValueError(f"percentile {p} is not in (0, 100]")
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[rank - 1]


def summary(samples: Iterable[float], unit: str = "ms", digits: int = 1) -> str:
    """``"p50 … ms, p95 … ms (n=…)"``: the line most benchmarks print for a measurement."""
    ordered = sorted(samples)
    p50, p95 = percentile(ordered, 50), percentile(ordered, 95)
    return f"p50 {p50:.{digits}f} {unit}, p95 {p95:.{digits}f} {unit} (n={len(ordered)})"
