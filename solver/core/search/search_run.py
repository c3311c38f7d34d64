"""One search's shared state (:class:`Run`): the table, the schedule of rounds, the progress
bar, the best result so far, and the common deals every phase plays its plans on."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from rules.clock import Clock
from rules.seats import Seats
from solver.core.table.plans import Plan, baseline_plan
from solver.core.table.simulate import check_slip_rate, draw_slips, draw_values, pass_count
from solver.core.table.table_rules import rules_for
from solver.core.words import all_words

from .genes import Genes, prior_for, screen_field
from .hint_result import HintResult, Progress, Stage


@dataclass(frozen=True)
class _Schedule:
    rounds: tuple[tuple[int, int, int], ...]  # (plans raced, deals each, survivors kept)
    climb: tuple[int, int]  # (steps, deals): hill-climbing from the race's winner
    final_games: int
    screen: int = 0  # deals each structure is screened on before the race (0: no screen)
    choice: int = 1000  # deals the choice measures its candidates on (search._choose)


def _schedule(effort: float, compiled: bool) -> _Schedule:
    # Sized for the compiled engine at ~100,000 games/s on 2 cores: about 5 s at effort 1.
    # The reference engine is ~100 times slower, so it gets a token search.
    e = max(effort, 0.01)
    if not compiled:
        return _Schedule(((6, max(20, int(60 * e)), 2), (4, max(40, int(150 * e)), 1)),
                         (0, 0), max(100, int(400 * e)))  # fmt: skip
    # ``screen``: a few tenths of a second for the structures (genes.screen_field).
    return _Schedule(
        (
            (24, max(200, int(1000 * e)), 6),
            (12, max(500, int(3000 * e)), 4),
            (6, max(1000, int(8000 * e)), 2),
            (2, max(2000, int(15000 * e)), 1),  # plus the other openers of the leader
        ),
        # Coordinate descent (search._climb): 28 steps on 8,000 deals at effort 0.5.
        (max(6, int(56 * min(e, 4.0))), max(2000, int(16000 * e))),
        max(4000, int(25000 * e)),
        max(500, int(2000 * e)),
        max(2000, int(16000 * e)),
    )


def seed_for(seed: int, *stream: int) -> int:
    """Independent seeds per purpose, so search deals and fresh deals never coincide."""
    return int(np.random.SeedSequence([seed, *stream]).generate_state(1)[0])


SEARCH, FRESH, BREED, OPENERS = 1, 2, 3, 4


SLIP_RATE = 0.05  # a hint's default: a slip every twenty decisions
SIMPLEST_WITHIN = 0.05  # the simplest plan may lose this much of the rate with slips


def simplest_floor(rate_with_slips: float) -> float:
    """The least rate with slips a "simplest" plan may pass beside a recommended one at
    ``rate_with_slips``: SIMPLEST_WITHIN less, and at least half of it, so that where plans
    pass few deals (the clocks left behind) no plan that passes none is offered as simpler."""
    return max(rate_with_slips - SIMPLEST_WITHIN, rate_with_slips / 2)


# The share of the progress bar the odds take when they are computed; the search takes the
# rest, in proportion to the games it plays, so the bar moves at an even pace to 100.
ODDS_SHARE = 12
OPENER_DEALS = 2  # the prior's openers are played on this many times the choice's deals
SLICE = 5000  # games per pass_count call: progress is reported after each slice
CHOICES = 7  # plans compared in the choice, at most (and the clean search's)


Deals = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64] | None]  # values, slips (or None)
# plan, clean rate, rate with slips, sentences, words
Measured = tuple[Plan, float, float, int, dict[str, str]]


class Run:
    """One search's shared state: the table, the schedule, the progress bar and the best
    result so far, and the two ways every phase plays games (:meth:`passes` on
    :meth:`common` deals)."""

    def __init__(
        self,
        clock: Clock,
        seats: Seats,
        face_up: int,
        effort: float,
        progress: Progress | None,
        compute_odds: bool,
        names: Sequence[str] | None,
        slip_rate: float,
        prior: Genes | None = None,
    ) -> None:
        self.clock, self.seats, self.face_up, self.names = clock, seats, face_up, names
        # Where the search starts, and what it is held to (``search._prior_if_as_good``): the
        # clock's own prior where one is known (``clock_prior``), else the table size's.
        self.prior = prior or prior_for(seats.players)
        self.own_prior = prior is not None  # the clock's own (open_best)
        # The plans of the choice (``search._choose``; the clean twin's too, as this list is
        # shared) with their genes: the genes of the plan a search recommends are what a
        # clock's prior is made of (``search.recommend_genes``).
        self.genes_of: list[tuple[Plan, Genes]] = []
        self.slip_rate = check_slip_rate(slip_rate)
        self.slipping = self.slip_rate > 0
        self.report: Progress = progress or (lambda percent, stage, best: None)
        self.baseline = baseline_plan(clock, seats, face_up)
        self.compiled = rules_for(clock, seats, self.baseline).compiled_ok
        self.schedule = schedule = _schedule(effort, self.compiled)
        self.twice = twice = 2 if self.slipping else 1  # plans measured clean and with slips
        last_games = schedule.rounds[-1][1]
        total = sum((n + 1 + (twice - 1) * 2) * g for n, g, _ in schedule.rounds)
        # The screen (search._screen), for this search and its twin.
        if schedule.screen:
            screened = len(screen_field(clock, seats, self.prior))
            total += screened * schedule.screen * (2 if self.slipping else 1)
        total += (seats.players + (twice - 1) * (2 + seats.players)) * last_games
        total += (schedule.climb[0] + 1) * schedule.climb[1]
        total += CHOICES * twice * schedule.choice
        total += (4 * twice + twice) * schedule.final_games
        if self.own_prior and schedule.screen:  # the prior's openers (open_best)
            total += seats.players * OPENER_DEALS * schedule.choice
        if self.slipping:  # the clean search runs first (see recommend), and pools its plans
            total += sum((n + 1) * g for n, g, _ in schedule.rounds)
            total += seats.players * last_games
            total += (schedule.climb[0] + 1) * schedule.climb[1]
            total += CHOICES * (1 + twice) * schedule.choice
        self.top = 100 - ODDS_SHARE if compute_odds else 99
        # The bar: ``done`` games of ``total`` map linearly onto ``start``..``top`` percent,
        # from the game count ``offset`` on. Once the rest of the work is known exactly,
        # ``rest`` re-aims the same line from where the bar is, so it neither jumps nor stalls.
        self.meter = {"done": 0, "shown": 0, "total": total, "offset": 0, "start": 0}
        self.best: HintResult | None = None
        self.main = True  # False for the clean twin, which neither re-aims the bar nor shows
        # its best-so-far

    def open_best(self) -> None:
        """The prior with the seat that opens best at this table's colours. Who opens suits
        one table more than another, and the prior's opener was chosen on other colours (a
        clock's own prior on four patterns at once): on "1 Sun on 1", 3 players, the prior
        had seat 2 open, at 0.542 with slips, where seat 3 opening passes 0.555, and one
        seed in five kept seat 2. Each seat opening is played on the same deals and slips,
        the same for every seed (so every seed starts from, and is held to, the same
        prior), at SLIP_RATE as the priors were found, whatever this search's slip rate (so
        the clean search and the search on slips start from the same prior); the prior's
        own seat keeps a tie. Only from a clock's own prior: the table size's was climbed
        on three colour patterns with the benchmark's among them, and choosing its opener
        this way lowered the base clock's plan with slips (the strength table's deals:
        0.551 to 0.540 at 4 players, 0.669 to 0.665 at 2). Not on the reference engine (no
        screen)."""
        if not (self.own_prior and self.schedule.screen):
            return
        games = OPENER_DEALS * self.schedule.choice
        stream = seed_for(0, OPENERS)
        values, slips = draw_values(self.seats, games, stream), draw_slips(games, stream)
        stage = Stage("search")

        def passes(genes: Genes) -> int:
            return self.passes(self.plan(genes), values, slips, stage, SLIP_RATE)

        best, won = self.prior, passes(self.prior)
        for opener in range(1, self.seats.players + 1):
            genes = replace(self.prior, opener=opener)
            if genes != self.prior and (passed := passes(genes)) > won:
                best, won = genes, passed
        self.prior = best

    def clean_twin(self) -> Run:
        """The same search at slip rate 0, sharing this one's progress bar."""
        twin = copy.copy(self)
        twin.slip_rate, twin.slipping, twin.twice, twin.main = 0.0, False, 1, False
        twin.report = lambda percent, stage, best: self.report(percent, stage, None)
        return twin

    def plan(self, genes: Genes) -> Plan:
        return genes.plan(self.clock, self.seats)

    def genes(self, plan: Plan) -> Genes | None:
        """The genes ``plan`` came from (None for the baseline, which has none)."""
        return next((g for p, g in self.genes_of if p == plan), None)

    def words(self, plan: Plan) -> dict[str, str]:
        return all_words(plan, self.clock, self.seats, self.face_up, self.names)

    def tell(self, stage: Stage, percent: int | None = None) -> None:
        meter = self.meter
        if percent is None:
            share = (meter["done"] - meter["offset"]) / max(1, meter["total"])
            percent = min(self.top, int(meter["start"] + (self.top - meter["start"]) * share))
        meter["shown"] = max(meter["shown"], min(99, percent))
        self.report(meter["shown"], stage, self.best)

    def rest(self, games: int) -> None:
        if self.main:
            self.meter.update(total=games, offset=self.meter["done"], start=self.meter["shown"])

    def passes(
        self,
        plan: Plan,
        values: npt.NDArray[np.int64],
        slips: npt.NDArray[np.float64] | None,
        stage: Stage,
        slip_rate: float | None = None,
    ) -> int:
        """How many of ``values`` the plan passes: clean where ``slips`` is None, else with
        them at ``slip_rate`` (this search's rate unless given)."""
        # Counted in slices so that the caller hears every fraction of a second, also during
        # the long evaluations at the end (the reference engine, for clocks with rule kinds
        # the compiled one lacks, plays only a few hundred games a second).
        rate = self.slip_rate if slip_rate is None else slip_rate
        step = SLICE if self.compiled else 25
        clock, seats, face_up = self.clock, self.seats, self.face_up
        passed = 0
        for start in range(0, len(values), step):
            part = values[start : start + step]
            if slips is None:
                passed += pass_count(clock, seats, plan, face_up, part)
            else:
                passed += pass_count(
                    clock,
                    seats,
                    plan,
                    face_up,
                    part,
                    "auto",
                    rate,
                    slips[start : start + step],
                )
            self.meter["done"] += len(part)
            self.tell(stage)
        return passed

    def common(self, games: int, stream_seed: int) -> Deals:
        """Common deals, and common slips for them: every plan meets the same luck."""
        values = draw_values(self.seats, games, stream_seed)
        return values, (draw_slips(games, stream_seed) if self.slipping else None)
