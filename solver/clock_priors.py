"""Clocks' own priors, stored (``solver.models.ClockPrior``; what one is:
``solver.core.search.clock_prior``).

The prefill computes a clock's prior at a table size before that clock's patterns
(``solver.prefill``); a hint asked later reads it (:func:`stored`), keeps it on its row
(``HintRequest.prior``) and starts its search from it. The prior is part of the hint's input
hash and of the plan book's key: a hint asked before the prior existed and one asked after
are different inputs, and neither is answered with the other's plan.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from django.conf import settings

from rules.clock import Clock
from solver import plan_book
from solver.core import version
from solver.core.search.clock_prior import (
    PRIOR_PATTERNS,
    PRIOR_SEED,
    genes_from_json,
    genes_to_json,
    has_own_prior,
    one_search,
    settle,
)
from solver.core.search.genes import Genes
from solver.core.search.hint_result import Progress
from solver.models import ClockPrior


def planned(clock: Clock, base_rules: bool) -> Clock:
    """The clock a hint's search plays (the rules it can judge; the base rules where asked
    for an untranscribed clock): the clock whose prior it starts from."""
    return plan_book.solved_clock(clock.known_rules(), base_rules)


def for_hint(clock: Clock, base_rules: bool, players: int) -> dict[str, Any] | None:
    """The prior a hint asked now starts from (:func:`stored`), as JSON for its row."""
    return stored(planned(clock, base_rules), players)


def prior_key(solved: Clock, players: int) -> str:
    """What a prior depends on: the game (``plan_book.game``), the table size, the engine's
    version and the long searches' settings (``CLOCK_PRIOR_EFFORT``, ``CLOCK_PRIOR_SEARCHES``).

    Not the search's version, though a prior is found by searches: the prior is part of
    every book key and hint hash of its clock, so a new prior would orphan every entry of
    the clock. After a change to the search alone the stored prior stays where the clock's
    searches start (the row keeps the search version that found it)."""
    data = {
        "game": plan_book.game(solved),
        "players": players,
        "solver": version.ENGINE_VERSION,  # the name kept from version 26 on
        "effort": float(settings.CLOCK_PRIOR_EFFORT),
        "searches": int(settings.CLOCK_PRIOR_SEARCHES),
        "seed": PRIOR_SEED,
        "patterns": PRIOR_PATTERNS,
    }
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def stored(solved: Clock, players: int) -> dict[str, Any] | None:
    """The stored prior's genes (as JSON) for a hint on ``solved`` at ``players``; None where
    the clock gets none, it is not complete yet, or what is stored does not read as genes."""
    if not has_own_prior(solved):
        return None
    row = ClockPrior.objects.filter(key=prior_key(solved, players), complete=True).first()
    if row is None or row.genes is None:
        return None
    try:
        return genes_to_json(genes_from_json(row.genes))
    except ValueError:
        return None


def needs(solved: Clock, players: int) -> bool:
    """Whether the prefill should compute this prior first: the clock gets one and it is
    not complete (a complete one that found no genes counts as computed)."""
    return (
        has_own_prior(solved)
        and not ClockPrior.objects.filter(key=prior_key(solved, players), complete=True).exists()
    )


def compute(solved: Clock, players: int, progress: Progress | None = None) -> ClockPrior | None:
    """Compute and store the prior: the searches not stored yet, one at a time, each stored
    as it ends (``CLOCK_PRIOR_SEARCHES`` at ``CLOCK_PRIOR_EFFORT``), then the better of the
    best of them and the table size's prior, both polished (``clock_prior.settle``): about
    two minutes in all on 2 cores. The row, or None where the clock gets none. An exception
    from ``progress`` (the prefill yielding to a hint), in a search or in the polish, stops
    it; the searches already stored are kept, and the next call goes on from there."""
    if not has_own_prior(solved):
        return None
    effort, searches = float(settings.CLOCK_PRIOR_EFFORT), int(settings.CLOCK_PRIOR_SEARCHES)
    row, _ = ClockPrior.objects.get_or_create(
        key=prior_key(solved, players),
        defaults={
            "engine_version": version.ENGINE_VERSION,
            "search_version": version.SEARCH_VERSION,
            "clock_id": solved.id,
            "players": players,
        },
    )
    found: list[Genes | None] = [genes_of(g) for g in row.searches]
    while len(found) < searches and not row.complete:
        started = time.monotonic()
        genes = one_search(solved, players, len(found), effort=effort, progress=progress)
        found.append(genes)
        row.searches = [None if g is None else genes_to_json(g) for g in found]
        row.seconds += time.monotonic() - started
        row.save(update_fields=["searches", "seconds"])
    if not row.complete:
        best = settle(solved, players, found, effort=effort, progress=progress)
        row.genes = None if best is None else genes_to_json(best)
        row.complete = True
        row.save(update_fields=["genes", "complete"])
    return row


def genes_of(prior: dict[str, Any] | None) -> Genes | None:
    """A hint row's ``prior`` (or a stored search's genes) as genes for the search; None for
    None, or for what does not read as genes (the table size's prior is played instead)."""
    if prior is None:
        return None
    try:
        return genes_from_json(prior)
    except ValueError:
        return None
