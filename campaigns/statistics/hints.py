"""How well the hints foretold the table: query 8 of ``group_statistics`` (see
``campaigns.statistics.compute``), the finished hints binned by predicted pass rate against
the outcomes they were matched with."""

from __future__ import annotations

from django.db.models import F, FloatField, OuterRef, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from campaigns.models import Attempt, Group
from campaigns.statistics.figures import (
    HINT_BINS,
    HINT_MATCH_WINDOW,
    PASSED,
    HintBin,
    HintFigures,
)


def hint_figures(
    group: Group, group_campaigns: list[int], scope: list[int], players: int | None
) -> HintFigures:
    """Query 8: finished hints of the scope's campaigns, binned by predicted pass rate and
    matched with an outcome (the attempt asked for, else the next one within 24 hours).

    The hints are read through the group's reverse relation: the solver's hint rows point
    at campaigns, and campaigns imports nothing from the solver."""
    next_attempt = (
        Attempt.objects.filter(
            campaign_id__in=group_campaigns,
            clock_id=OuterRef("clock_id"),
            players=OuterRef("players"),
            created__gte=OuterRef("finished_at"),
            created__lte=OuterRef("finished_at") + HINT_MATCH_WINDOW,
        )
        .order_by("created", "id")
        .values("outcome")[:1]
    )
    # The solver's own "done", read through the relation (no import of the solver).
    done = group.hint_requests.model.Status.DONE
    hints = group.hint_requests.filter(
        campaign_id__in=scope, status=done, finished_at__isnull=False
    )
    if players is not None:
        hints = hints.filter(players=players)
    rows = hints.annotate(
        rate=Cast(KT("result__pass_rate"), FloatField()),
        outcome=Coalesce(F("attempt__outcome"), Subquery(next_attempt)),
    ).values_list("rate", "outcome")
    figures = HintFigures(
        bins=[
            HintBin(round(b / HINT_BINS, 1), round((b + 1) / HINT_BINS, 1))
            for b in range(HINT_BINS)
        ]
    )
    # One row per hint (a group asks a few hundred at most), binned here: in SQL, every
    # aggregate would repeat the matching subquery.
    sums: list[list[float]] = [[0, 0.0, 0] for _ in range(HINT_BINS)]  # hints, predicted, passed
    squared = 0.0
    for rate, outcome in rows:
        figures.asked += 1
        if rate is None or outcome is None:
            continue
        passed = outcome == PASSED
        into = sums[min(int(rate * HINT_BINS), HINT_BINS - 1)]
        into[0] += 1
        into[1] += rate
        into[2] += passed
        squared += (rate - passed) ** 2
    for hint_bin, (n, predicted, passed) in zip(figures.bins, sums, strict=True):
        if n:
            hint_bin.hints = int(n)
            hint_bin.predicted = predicted / n
            hint_bin.actual = passed / n
    figures.rated = int(sum(n for n, _, _ in sums))
    predicted_sum = sum(p for _, p, _ in sums)
    passed_sum = sum(p for _, _, p in sums)
    if figures.rated:
        figures.predicted_mean = predicted_sum / figures.rated
        figures.actual_rate = passed_sum / figures.rated
        figures.brier = squared / figures.rated
    return figures
