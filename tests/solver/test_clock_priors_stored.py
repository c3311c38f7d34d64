"""Clocks' own priors, stored (``solver.clock_priors``): computed by the prefill before a
clock's patterns, read by every hint asked after, part of its input and of the plan book's
key, and passed to its search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from rules.catalogue import get_clock
from solver import clock_priors, jobs, prefill
from solver.core.search import clock_prior
from solver.core.search.clock_prior import genes_from_json
from solver.core.search.search import HintResult
from solver.models import ClockPrior, HintRequest, PlanBookEntry

pytestmark = pytest.mark.django_db

ONE_ONE = prefill.Game(get_clock("1-1"), False, "1-1")  # a Sun rule and a card count
BASE = prefill.Game(get_clock("1-2"), True, "1-2")  # rules unknown: the base rules


def test_only_a_clock_with_special_rules_gets_a_prior_and_only_once() -> None:
    assert prefill.priors_missing(BASE, [2, 3, 4]) == []  # the table size's prior is its own
    assert prefill.priors_missing(ONE_ONE, [2, 3, 4]) == [2, 3, 4]
    prefill.compute_prior(ONE_ONE, 3)
    assert prefill.priors_missing(ONE_ONE, [2, 3, 4]) == [2, 4]
    row = ClockPrior.objects.get()
    assert (row.clock_id, row.players) == ("1-1", 3)
    assert row.genes is not None and genes_from_json(row.genes)  # genes a search can start from
    assert clock_priors.for_hint(ONE_ONE.clock, False, 3) == row.genes
    assert clock_priors.for_hint(ONE_ONE.clock, False, 4) is None  # not computed
    assert clock_priors.for_hint(BASE.clock, True, 3) is None


def test_a_stored_prior_that_does_not_read_as_genes_is_not_played() -> None:
    solved = clock_priors.planned(ONE_ONE.clock, False)
    ClockPrior.objects.create(
        key=clock_priors.prior_key(solved, 3),
        engine_version=0,
        search_version=0,
        clock_id="1-1",
        players=3,
        genes={"low": "nothing"},
        complete=True,
    )
    assert clock_priors.for_hint(ONE_ONE.clock, False, 3) is None
    assert not prefill.priors_missing(ONE_ONE, [3])  # computed, if badly: not again


def test_a_stopped_prior_goes_on_from_the_searches_it_stored(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CLOCK_PRIOR_SEARCHES = 3
    real = clock_priors.one_search
    searched: list[int] = []

    def stops_at_the_second(*args: Any, **kwargs: Any) -> Any:
        if len(searched) == 1:
            raise KeyboardInterrupt  # a hint arrived, the slice ended, the worker stopped…
        searched.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(clock_priors, "one_search", stops_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        prefill.compute_prior(ONE_ONE, 2)
    row = ClockPrior.objects.get()
    assert (len(row.searches), row.complete, row.genes) == (1, False, None)
    assert prefill.priors_missing(ONE_ONE, [2]) == [2]  # not complete: hints do not use it
    assert clock_priors.for_hint(ONE_ONE.clock, False, 2) is None

    def counted(*args: Any, **kwargs: Any) -> Any:
        searched.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(clock_priors, "one_search", counted)
    prefill.compute_prior(ONE_ONE, 2)
    assert searched == [0, 1, 2]  # the first search was not done again
    row.refresh_from_db()
    assert row.complete and len(row.searches) == 3 and row.genes is not None
    found = [clock_priors.genes_of(g) for g in row.searches]
    solved = clock_priors.planned(ONE_ONE.clock, False)
    best = clock_prior.settle(solved, 2, found, effort=settings.CLOCK_PRIOR_EFFORT)
    assert genes_from_json(row.genes) == best  # the best of them, polished
    assert clock_priors.for_hint(ONE_ONE.clock, False, 2) == row.genes


def test_a_hint_waiting_stops_the_polish_and_the_next_slice_ends_it(settings: Any) -> None:
    """The polish of the searches' best (``clock_prior.settle``) is the last minute of a
    prior: a hint that arrives then stops it as it stops a search."""

    def hint_arrives_during_the_polish() -> bool:
        row = ClockPrior.objects.first()
        return row is not None and len(row.searches) == 1  # the one search is stored

    with pytest.raises(prefill.Yielded):
        prefill.compute_prior(ONE_ONE, 2, busy=hint_arrives_during_the_polish)
    row = ClockPrior.objects.get()
    assert (len(row.searches), row.complete, row.genes) == (1, False, None)
    assert clock_priors.for_hint(ONE_ONE.clock, False, 2) is None  # hints do not use it yet
    prefill.compute_prior(ONE_ONE, 2, busy=lambda: False)
    row.refresh_from_db()
    assert row.complete and len(row.searches) == 1 and row.genes is not None
    found = [clock_priors.genes_of(g) for g in row.searches]
    solved = clock_priors.planned(ONE_ONE.clock, False)
    best = clock_prior.settle(solved, 2, found, effort=settings.CLOCK_PRIOR_EFFORT)
    assert genes_from_json(row.genes) == best


def test_a_hint_asked_after_the_prior_starts_from_it_and_is_another_input(
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    bob: User,
    sent: list[int],
    fake_result: Callable[..., HintResult],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    colours = "SSM/MMS/SMM/SSM"
    before, _ = ask(alice, "1-1", colours)
    assert before.prior is None
    prefill.compute_prior(ONE_ONE, 4)
    after, created = ask(bob, "1-1", colours)
    stored = ClockPrior.objects.get(players=4).genes
    assert created and after.prior == stored is not None
    assert after.input_hash != before.input_hash
    # The job's search starts from it.
    given: list[Any] = []

    def recording(*args: Any, **kwargs: Any) -> HintResult:
        given.append(kwargs.get("prior"))
        return fake_result()

    monkeypatch.setattr(jobs, "recommend", recording)
    jobs.run(after.pk, "task-1")
    jobs.run(before.pk, "task-2")
    assert given == [genes_from_json(stored), None]
    # The plan book holds each under its own key: the one asked with the prior answers a
    # later hint with the prior, not the one asked before it.
    entries = {e.hint_id: e.key for e in PlanBookEntry.objects.all()}
    assert len(set(entries.values())) == 2
    again, _ = ask(alice, "1-1", colours)
    assert again.from_plan_book and again.reused_from_id == after.pk


def test_the_prefill_computes_a_clocks_prior_before_its_patterns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    real_prior = prefill.compute_prior

    def prior(game: prefill.Game, players: int, *args: Any, **kwargs: Any) -> None:
        order.append(f"prior {players}")
        real_prior(game, players, *args, **kwargs)

    def compute(item: prefill.Item, *args: Any, **kwargs: Any) -> None:
        order.append(f"pattern {item.players}")
        # Its search starts from the prior stored just before.
        assert item.prior == clock_priors.for_hint(item.game.clock, False, item.players)
        assert item.prior is not None
        raise KeyboardInterrupt  # one is enough

    monkeypatch.setattr(prefill, "compute_prior", prior)
    monkeypatch.setattr(prefill, "compute", compute)
    with pytest.raises(KeyboardInterrupt):
        prefill.prefill_slice(seconds=600, busy=lambda: False)
    assert order == ["prior 2", "prior 3", "prior 4", "pattern 2"]
