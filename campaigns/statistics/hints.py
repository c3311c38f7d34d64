"""How well the hints foretold the table: query 8 of ``group_statistics`` (see
``campaigns.statistics.compute``), the finished hints binned by predicted pass rate against
the outcomes they were matched with; and what those outcomes say about the table's own slip
rate (``table_rate``, which the solver plans with)."""

from __future__ import annotations

from typing import Any

import numpy as np
from django.db.models import F, FloatField, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from campaigns.models import Attempt, Campaign, Group
from campaigns.statistics.figures import (
    HINT_BINS,
    HINT_MATCH_WINDOW,
    PASSED,
    HintBin,
    HintFigures,
    TableCalibration,
)
from campaigns.statistics.table_rate import DEFAULT_RATE as SLIP_RATE_DEFAULT
from campaigns.statistics.table_rate import TableRate, estimate
from rules import hint_result

# Campaign ids: a list, or a query of them (one query less, as a subquery).
CampaignIds = list[int] | QuerySet[Campaign, Any]


def matched_hints(
    group: Group, group_campaigns: CampaignIds, scope: CampaignIds, players: int | None
) -> QuerySet[Any, Any]:
    """The finished hints of the scope's campaigns, each with its predicted pass rate, the
    outcome it is matched with (the attempt asked for, else the next attempt at the same
    clock and table size within 24 hours after the hint finished; None: no attempt) and
    its pass curve: (rate, outcome, curve) rows. The one link between hints and attempts,
    for the calibration and for the table's slip rate.

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
    return hints.annotate(
        rate=Cast(KT(hint_result.lookup("pass_rate")), FloatField()),
        outcome=Coalesce(F("attempt__outcome"), Subquery(next_attempt)),
    ).values_list("rate", "outcome", "pass_curve")


def table_rate(group: Group) -> TableRate:
    """The table's own slip rate (``table_rate.estimate``), from every hinted attempt of
    all its campaigns and table sizes whose hint has its pass curve: how the table plays,
    whatever the filter of the page. Reads the stored curves only, never runs the engine."""
    campaigns = Campaign.objects.filter(group=group).values("id")
    curves, passed = [], []
    for _rate, outcome, curve in matched_hints(group, campaigns, campaigns, None):
        if outcome is None or not curve:
            continue
        curves.append((curve["rates"], curve["passes"]))
        passed.append(outcome == PASSED)
    return estimate(curves, passed)


def hint_figures(
    group: Group,
    group_campaigns: list[int],
    scope: list[int],
    players: int | None,
    table_rate: float | None = None,
) -> HintFigures:
    """Query 8: finished hints of the scope's campaigns, binned by predicted pass rate and
    matched with an outcome (``matched_hints``). With the table's own slip rate
    (``table_rate``), also the predictions read off each hint's pass curve at that rate
    (``at_table``: the hints with a curve only, beside their Brier score at 0.05)."""
    rows = list(matched_hints(group, group_campaigns, scope, players))
    figures = HintFigures(asked=len(rows))
    calibration = _calibration(
        [
            (rate, outcome == PASSED)
            for rate, outcome, _ in rows
            if rate is not None and outcome is not None
        ]
    )
    figures.bins, figures.rated = calibration.bins, calibration.rated
    figures.predicted_mean, figures.actual_rate = (
        calibration.predicted_mean,
        calibration.actual_rate,
    )
    figures.brier = calibration.brier
    if table_rate is not None:
        figures.at_table = at_rate(rows, table_rate)
    return figures


def at_rate(rows: list[tuple[Any, Any, Any]], slip_rate: float) -> TableCalibration:
    """The rated hints with a pass curve, each predicted by its curve read at ``slip_rate``
    (linear between the curve's rates), binned as the hints' own predictions are."""
    curved = [
        (curve["rates"], curve["passes"], outcome == PASSED)
        for _rate, outcome, curve in rows
        if outcome is not None and curve
    ]
    figures = _calibration(
        [(float(np.interp(slip_rate, rates, passes)), passed) for rates, passes, passed in curved]
    )
    figures.slip_rate = slip_rate
    if curved:
        figures.brier_default = sum(
            (float(np.interp(SLIP_RATE_DEFAULT, rates, passes)) - passed) ** 2
            for rates, passes, passed in curved
        ) / len(curved)
    return figures


def _calibration(predicted: list[tuple[float, bool]]) -> TableCalibration:
    """(predicted chance, passed) pairs in the HINT_BINS bins of width 0.2, with their
    means and Brier score (``slip_rate`` left at 0 for the caller). One row per hint (a
    group asks a few hundred at most), binned here: in SQL, every aggregate would repeat
    the matching subquery."""
    figures = TableCalibration(
        slip_rate=0.0,
        bins=[
            HintBin(round(b / HINT_BINS, 1), round((b + 1) / HINT_BINS, 1))
            for b in range(HINT_BINS)
        ],
        rated=len(predicted),
    )
    sums: list[list[float]] = [[0, 0.0, 0] for _ in range(HINT_BINS)]  # hints, predicted, passed
    for rate, passed in predicted:
        into = sums[min(int(rate * HINT_BINS), HINT_BINS - 1)]
        into[0] += 1
        into[1] += rate
        into[2] += passed
    for hint_bin, (n, chance, passes) in zip(figures.bins, sums, strict=True):
        if n:
            hint_bin.hints = int(n)
            hint_bin.predicted = chance / n
            hint_bin.actual = passes / n
    if predicted:
        figures.predicted_mean = sum(rate for rate, _ in predicted) / len(predicted)
        figures.actual_rate = sum(passed for _, passed in predicted) / len(predicted)
        figures.brier = sum((rate - passed) ** 2 for rate, passed in predicted) / len(predicted)
    return figures
