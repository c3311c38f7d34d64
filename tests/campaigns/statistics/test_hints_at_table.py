"""The calibration at the table's own slip rate: each rated hint's prediction read off its
pass curve at the table's estimate, beside the hints' own (the figures, the page's second
series, the API's ``hints.at_table``) and who may see it."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Attempt, Campaign, Group
from campaigns.statistics.compute import group_statistics
from campaigns.statistics.figures import HintBin
from campaigns.statistics.hints import at_rate
from campaigns.statistics.table_rate import DEFAULT_RATE
from solver.core.search.search import SLIP_RATE
from solver.models import HintRequest

RATES = [round(i / 50, 2) for i in range(26)]
CURVE = {"rates": RATES, "passes": [round(0.8 * (1 - rate) ** 12, 4) for rate in RATES]}
READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}


def hinted(attempt: Attempt, user: User, curve: dict[str, Any] | None = CURVE) -> None:
    """A finished hint asked for ``attempt`` (predicting 0.4), with its pass curve."""
    HintRequest.objects.create(
        user=user,
        group=attempt.campaign.group,
        campaign=attempt.campaign,
        attempt=attempt,
        clock_id=attempt.clock_id,
        clock_definition={},
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        input_hash=f"hint-{attempt.pk}",
        status=HintRequest.Status.DONE,
        result={"pass_rate": 0.4},
        pass_curve=curve,
        finished_at=attempt.created,
    )


@pytest.fixture
def estimated(group: Group, campaign: Campaign, play: Callable[..., Any], alice: User) -> Group:
    """Ten hinted clocks, two passed: a table with an estimate, above the default."""
    for outcome in ["passed", "passed"] + ["failed"] * 8:
        hinted(play(campaign, outcome), alice)
    return group


@pytest.fixture
def unestimated(group: Group, campaign: Campaign, play: Callable[..., Any], alice: User) -> Group:
    """Three hinted clocks: rated hints, but no estimate yet."""
    for outcome in ("failed", "passed", "failed"):
        hinted(play(campaign, outcome), alice)
    return group


def test_the_default_rate_is_the_solvers() -> None:
    assert DEFAULT_RATE == SLIP_RATE


def test_each_hint_is_read_off_its_curve_at_the_rate() -> None:
    steep = {"rates": [0.0, 0.5], "passes": [0.9, 0.4]}  # 0.8 at 0.1, 0.85 at 0.05
    low = {"rates": [0.0, 0.5], "passes": [0.5, 0.0]}  # 0.4 at 0.1, 0.45 at 0.05
    rows = [
        (0.9, "passed", steep),
        (0.5, "failed", low),
        (0.7, None, steep),  # no attempt after it: not rated
        (0.6, "passed", {}),  # no curve (a clock the engine does not model): left out
        (0.6, "failed", None),  # curve not computed yet: left out
    ]
    figures = at_rate(rows, 0.1)
    assert (figures.slip_rate, figures.rated) == (0.1, 2)
    assert figures.predicted_mean == pytest.approx(0.6)
    assert figures.actual_rate == pytest.approx(0.5)
    assert figures.brier == pytest.approx((0.2**2 + 0.4**2) / 2)  # 0.1
    assert figures.brier_default == pytest.approx((0.15**2 + 0.45**2) / 2)  # 0.1125
    assert figures.bins == [
        HintBin(0.0, 0.2),
        HintBin(0.2, 0.4),
        HintBin(0.4, 0.6, 1, pytest.approx(0.4), 0.0),  # type: ignore[arg-type]
        HintBin(0.6, 0.8),
        HintBin(0.8, 1.0, 1, pytest.approx(0.8), 1.0),  # type: ignore[arg-type]
    ]


def test_no_curve_no_figures() -> None:
    figures = at_rate([(0.5, "passed", {})], 0.12)
    assert (figures.rated, figures.brier, figures.brier_default) == (0, None, None)
    assert all(b.hints == 0 for b in figures.bins)


def test_the_statistics_read_the_hints_at_the_tables_estimate(estimated: Group) -> None:
    stats = group_statistics(estimated)
    rate = stats.table.slip_rate
    assert rate is not None and rate > DEFAULT_RATE
    at_table = stats.hints.at_table
    assert at_table is not None and at_table.slip_rate == rate
    chance = float(np.interp(rate, CURVE["rates"], CURVE["passes"]))
    default = float(np.interp(DEFAULT_RATE, CURVE["rates"], CURVE["passes"]))
    assert at_table.rated == 10
    assert at_table.brier == pytest.approx((2 * (1 - chance) ** 2 + 8 * chance**2) / 10)
    assert at_table.brier_default == pytest.approx((2 * (1 - default) ** 2 + 8 * default**2) / 10)
    # A slipping table: its rate says its plans pass less often, closer to the two in ten.
    assert at_table.predicted_mean == pytest.approx(chance) and chance < default
    assert at_table.brier is not None and at_table.brier_default is not None
    assert at_table.brier < at_table.brier_default
    # The hints' own predictions are unchanged beside them.
    assert (stats.hints.rated, stats.hints.brier) == (
        10,
        pytest.approx((2 * 0.6**2 + 8 * 0.4**2) / 10),
    )


def test_without_an_estimate_there_is_no_second_series(unestimated: Group) -> None:
    stats = group_statistics(unestimated)
    assert stats.hints.rated == 3 and stats.table.slip_rate is None
    assert stats.hints.at_table is None


def page(group: Group) -> str:
    return f"/groups/{group.pk}/statistics/"


def test_the_page_draws_the_tables_series_as_diamonds_with_a_legend(
    estimated: Group, as_role: Callable[[str], Client]
) -> None:
    body = html.unescape(as_role("viewer").get(page(estimated)).content.decode())
    assert '<circle class="point"' in body
    assert '<polygon class="point at-table" points="' in body
    assert "<title>At your table's rate, 10 hints: predicted" in body
    stats = group_statistics(estimated)
    assert stats.table.slip_rate is not None and stats.hints.at_table is not None
    every = round(1 / stats.table.slip_rate)
    assert f"at your table's rate (1 card in {every})" in body
    brier = f"{stats.hints.at_table.brier:.2f}"
    default = f"{stats.hints.at_table.brier_default:.2f}"
    assert (
        f"Replayed at your table's rate (1 card in {every}), the 10 hints with a replay "
        f"score {brier}; at 1 card in 20, {default}." in body
    )


def test_the_page_draws_one_series_without_an_estimate(
    unestimated: Group, as_role: Callable[[str], Client]
) -> None:
    body = as_role("viewer").get(page(unestimated)).content.decode()
    assert '<circle class="point"' in body
    assert "at-table" not in body and "Replayed at your table" not in body


def test_the_legend_and_the_brier_sentence_in_dutch_and_japanese(
    estimated: Group, as_role: Callable[[str], Client]
) -> None:
    client = as_role("viewer")
    client.cookies["django_language"] = "nl"
    assert "bij het foutpercentage van jullie tafel" in client.get(page(estimated)).content.decode()
    client.cookies["django_language"] = "ja"
    assert "このテーブルの置き間違え率" in client.get(page(estimated)).content.decode()


@pytest.mark.parametrize("role", list(READ_STATUS))
def test_only_members_see_the_tables_series(
    estimated: Group, as_role: Callable[[str], Client], role: str
) -> None:
    response = as_role(role).get(page(estimated))
    assert response.status_code == READ_STATUS[role]
    assert ("at-table" in response.content.decode()) == (READ_STATUS[role] == 200)


def test_the_api_gives_the_tables_bins_and_brier(estimated: Group, api_as: Any) -> None:
    hints = api_as("viewer").get(f"/api/groups/{estimated.pk}/statistics/").json()["hints"]
    at_table = hints["at_table"]
    assert set(at_table) == {
        "slip_rate",
        "rated",
        "predicted_mean",
        "actual_rate",
        "brier",
        "brier_default",
        "bins",
    }
    stats = group_statistics(estimated)
    assert stats.hints.at_table is not None
    assert at_table["slip_rate"] == pytest.approx(stats.hints.at_table.slip_rate)
    assert at_table["brier"] == pytest.approx(stats.hints.at_table.brier)
    assert at_table["brier_default"] == pytest.approx(stats.hints.at_table.brier_default)
    assert [b["hints"] for b in at_table["bins"]] == [b.hints for b in stats.hints.at_table.bins]
    assert sum(b["hints"] for b in at_table["bins"]) == 10


def test_the_api_says_null_without_an_estimate(unestimated: Group, api_as: Any) -> None:
    hints = api_as("viewer").get(f"/api/groups/{unestimated.pk}/statistics/").json()["hints"]
    assert hints["at_table"] is None and hints["rated"] == 3


def test_outsiders_get_404_from_the_api(estimated: Group, api_as: Any) -> None:
    assert api_as("outsider").get(f"/api/groups/{estimated.pk}/statistics/").status_code == 404
