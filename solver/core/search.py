"""Plan search: the plan a table should agree on, with an honest pass rate.

The search races plans on common deals (every plan in a round plays exactly the same
deals, so differences are due to the plans, not the luck of the deal) and halves the field
each round while the number of deals grows, so bad plans die after a few hundred games and
the survivors are compared on tens of thousands. New plans are bred around the survivors
between rounds. The winner and the baseline plan are then played on **fresh** deals that
took no part in the selection: that is the rate we report, so it is not inflated by having
picked the luckiest plan.

Slips: plans are raced and fine-tuned on their rate **with slips** (``agents.slip_of``, at
the hint's slip rate), every plan meeting the same slips on the same deals. The search then
measures a few candidates clean and with slips — the leader, simpler versions of it, the best
clean plan of the last round and the prior — and offers up to three (:class:`Alternative`):
recommended (best with slips), simplest (fewest sentences within 0.05 of it) and bold (best
clean rate). Each is reported clean and with slips on the fresh deals.

Never worse than the clean search: a search on slips first runs the clean search (slip rate
0, the same seeds), whose candidates join the choice, and its recommended plan must match
the clean search's pick on the fresh deals (:func:`_never_worse`), or that pick is
recommended instead.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.clock import Clock
from rules.seats import Seats

from .agents import rules_for
from .plans import Plan, baseline_plan, colour_owners, h_plan, reading_order, shaped_targets
from .simulate import check_slip_rate, draw_slips, draw_values, pass_count, wilson
from .words import all_words, plan_speech


@dataclass(frozen=True)
class Stage:
    """Where a search is, as a progress report gives it: ``stage`` is one of STAGES, and
    ``round`` of ``of`` count the steps inside it (0 of 0 when the stage has none).

    Data, not words: whoever shows it words it in the reader's language.
    """

    stage: str
    round: int = 0
    of: int = 0

    def to_json(self) -> dict[str, str | int]:
        return {"stage": self.stage, "round": self.round, "of": self.of}


# In the order a search goes through them: starting; racing plans round by round; fine-tuning
# the leader step by step; choosing the plans to offer; each offered plan, then the baseline,
# on fresh deals (step k of n); the perfect-information odds; done.
STAGES = ("search", "racing", "fine-tuning", "choosing", "fresh deals", "odds", "done")

Progress = Callable[[int, Stage, "HintResult | None"], None]


@dataclass(frozen=True)
class Alternative:
    """One of the plans a hint offers: ``kinds`` says which roles it fills —
    "recommended" (best with slips), "simplest" (fewest sentences to say, within
    SIMPLEST_WITHIN of the recommended rate with slips) and "bold" (best clean rate). Rates
    on the hint's fresh deals, clean and with slips."""

    kinds: tuple[str, ...]
    plan: Plan
    pass_rate: float
    interval: tuple[float, float]
    pass_rate_with_slips: float
    interval_with_slips: tuple[float, float]
    words: dict[str, str]
    sentences: int  # to agree on: the lines said aloud and the fine print (English)
    word_count: int

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "plan": self.plan.to_json(),
            "pass_rate": round(self.pass_rate, 4),
            "interval": _rounded(self.interval),
            "pass_rate_with_slips": round(self.pass_rate_with_slips, 4),
            "interval_with_slips": _rounded(self.interval_with_slips),
            "sentences": self.sentences,
            "word_count": self.word_count,
            "words": self.words[lang],
            "words_all": dict(self.words),
        }


def sentence_count(text: str) -> int:
    """Sentences in an English text."""
    return len(re.findall(r"[.!?](?:\s|$)", text.strip()))


def plan_size(plan: Plan, clock: Clock, seats: Seats, face_up: int) -> tuple[int, int]:
    """(sentences, words) a table must agree on for ``plan``: the lines said aloud and the
    fine print behind "Why / details", in English."""
    speech = plan_speech(plan, clock, seats, face_up, "en")
    text = " ".join((*speech.lines, *speech.details))
    return sentence_count(text), len(text.split())


def _rounded(interval: tuple[float, float]) -> list[float]:
    return [round(interval[0], 4), round(interval[1], 4)]


@dataclass(frozen=True)
class HintResult:
    plan: Plan
    pass_rate: float  # clean: everyone plays the plan as said
    interval: tuple[float, float]
    baseline_rate: float
    odds: float | None  # perfect-information odds; None when they could not be computed
    games: int  # fresh deals behind pass_rate and baseline_rate
    words: dict[str, str]
    partial: bool  # True for a best-so-far result (rate measured on search deals)
    slip_rate: float = 0.0  # the chance that a decision slips (agents.slip_of)
    pass_rate_with_slips: float | None = None  # the plan's rate at slip_rate; None: = clean
    interval_with_slips: tuple[float, float] | None = None
    alternatives: tuple[Alternative, ...] = ()  # empty for a best-so-far result

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The ``hint --json`` object (docs/api.md)."""
        with_slips = (
            self.pass_rate if self.pass_rate_with_slips is None else self.pass_rate_with_slips
        )
        return {
            "plan": self.plan.to_json(),
            "pass_rate": round(self.pass_rate, 4),
            "interval": _rounded(self.interval),
            "baseline_rate": round(self.baseline_rate, 4),
            "odds": None if self.odds is None else round(self.odds, 4),
            "games": self.games,
            "words": self.words[lang],
            "slip_rate": self.slip_rate,
            "pass_rate_with_slips": round(with_slips, 4),
            "interval_with_slips": _rounded(self.interval_with_slips or self.interval),
            "alternatives": [a.to_json(lang) for a in self.alternatives],
        }


# --- The plan space -------------------------------------------------------------------------


@dataclass(frozen=True)
class Genes:
    """A point of the plan space: target shape plus the plan's weights."""

    low: tuple[float, float]
    high: tuple[float, float]
    split: int
    need_weight: float
    order_weight: float
    open_bonus: float
    face_up_threshold: float
    opener: int  # 1-based seat
    # The high piles' value band "play cards of pile_floor or more there" (below 2: none) and
    # how much a card outside it costs. Keeping small cards off the piles leaves them for
    # the low segments and makes the piles' totals easier to read.
    pile_floor: float = 0.0
    band_weight: float = 0.3
    # The low segments' band "play cards of low_ceiling or less there" (below 2 or above 11:
    # none): big cards wait for the piles. It helps at 2 players (a long search's priors
    # gain about 0.01 clean and 0.015 with slips), not at 3 or 4.
    low_ceiling: float = 0.0

    def plan(self, clock: Clock, seats: Seats) -> Plan:
        floor = int(round(self.pile_floor))
        order = reading_order(clock)
        bands = dict.fromkeys(order[self.split :], (floor, 12)) if floor >= 2 else {}
        ceiling = int(round(self.low_ceiling))
        if 2 <= ceiling < 12:
            bands.update(dict.fromkeys(order[: self.split], (1, ceiling)))
        return Plan(
            targets=shaped_targets(clock, self.low, self.high, self.split),
            need_weight=round(self.need_weight, 3),
            order_weight=round(self.order_weight, 3),
            open_bonus=round(self.open_bonus, 2),
            face_up_threshold=round(self.face_up_threshold, 2),
            opener=self.opener,
            owners=colour_owners(clock, seats),
            bands=bands,
            band_weight=round(self.band_weight, 3) if bands else 1.0,
        )


def _top(clock: Clock) -> float:
    # Where the cap is lifted a pile may grow past 24; 30 is as far as the search looks.
    return float(clock.cap) if clock.cap is not None else 30.0


def _random_genes(rng: np.random.Generator, clock: Clock, players: int) -> Genes:
    top = _top(clock)
    low0 = rng.uniform(1.5, 7.0)
    low1 = low0 + rng.uniform(0.0, 8.0)
    high1 = rng.uniform(max(low1 + 4.0, top - 6.0), top)
    high0 = rng.uniform(low1 + 1.0, high1)
    return Genes(
        low=(low0, low1),
        high=(high0, high1),
        split=int(rng.integers(2, 5)),
        need_weight=rng.uniform(0.4, 1.0),
        order_weight=math.exp(rng.uniform(math.log(0.1), math.log(3.0))),
        open_bonus=rng.uniform(0.0, 4.0),
        face_up_threshold=rng.uniform(1.5, 6.0),
        opener=int(rng.integers(1, players + 1)),
        pile_floor=0.0 if rng.random() < 0.5 else rng.uniform(5.0, 10.0),
        band_weight=math.exp(rng.uniform(math.log(0.05), math.log(1.0))),
    )


def _mutate(rng: np.random.Generator, g: Genes, clock: Clock, players: int, scale: float) -> Genes:
    top = _top(clock)

    def jiggle(x: float, sd: float, lo: float, hi: float) -> float:
        return float(min(max(x + rng.normal(0.0, sd * scale), lo), hi))

    low0 = jiggle(g.low[0], 1.0, 1.0, 12.0)
    low1 = jiggle(g.low[1], 1.0, low0, top)
    high0 = jiggle(g.high[0], 1.5, low1, top)
    high1 = jiggle(g.high[1], 1.0, high0, top)
    split = g.split
    if rng.random() < 0.15 * scale:
        split = min(max(split + (1 if rng.random() < 0.5 else -1), 2), 4)
    opener = g.opener
    if rng.random() < 0.15 * scale:
        opener = int(rng.integers(1, players + 1))
    return Genes(
        low=(low0, low1),
        high=(high0, high1),
        split=split,
        need_weight=jiggle(g.need_weight, 0.06, 0.0, 1.0),
        order_weight=float(math.exp(jiggle(math.log(g.order_weight), 0.25, -4.0, 2.0))),
        open_bonus=jiggle(g.open_bonus, 0.4, 0.0, 6.0),
        face_up_threshold=jiggle(g.face_up_threshold, 0.5, 0.5, 8.0),
        opener=opener,
        pile_floor=jiggle(g.pile_floor, 1.0, 0.0, 11.0),
        band_weight=float(math.exp(jiggle(math.log(g.band_weight), 0.3, -4.0, 1.0))),
        # Jiggled only where there is one, so plans without it draw the same numbers.
        low_ceiling=jiggle(g.low_ceiling, 0.7, 2.0, 11.0) if g.low_ceiling else 0.0,
    )


def _h_genes() -> Genes:
    return Genes((5.0, 9.0), (17.0, 23.0), 3, 0.75, 0.5, 2.0, 3.0, 1)


# Where long searches ended (effort 10, seed 0, base clock, face-up = players, 2026-11-30,
# each started from the previous priors): the quick search starts here so that a few
# seconds land near what a long search finds. Fresh-deal pass rates: 0.70, 0.64, 0.58.
_PRIORS: dict[int, Genes] = {
    # 2 players: "low segments take cards of 7 or less", measured on 3 colour patterns with
    # 20,000 fresh deals each (2026-12-02): +0.010 to +0.015 clean, +0.012 to +0.020 with slips.
    2: Genes((6.6, 10.5), (19.0, 23.6), 3, 0.877, 0.438, 3.37, 4.66, 1, 0.0, 0.4, 7.0),
    3: Genes((6.2, 9.8), (18.3, 24.0), 3, 0.782, 0.21, 3.52, 2.69, 1, 9.0, 0.266),
    4: Genes((5.6, 9.6), (18.2, 24.0), 3, 0.869, 0.33, 2.89, 3.15, 1, 9.0, 0.429),
}
# Other starting points the first round screens: a different optimum found for 3 players
# without face-up cards (lower first target, weak order and opening terms, no band; 0.39
# against 0.33 from the priors above).
_OTHER_STARTS: tuple[Genes, ...] = (Genes((3.7, 9.8), (15.9, 24.0), 3, 0.70, 0.168, 0.97, 3.19, 1),)


# --- The race -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Schedule:
    rounds: tuple[tuple[int, int, int], ...]  # (plans raced, deals each, survivors kept)
    climb: tuple[int, int]  # (steps, deals): hill-climbing from the race's winner
    final_games: int


def _schedule(effort: float, compiled: bool) -> _Schedule:
    # Sized for the compiled engine at ~100,000 games/s on 2 cores: about 5 s at effort 1.
    # The reference engine is ~100 times slower, so it gets a token search.
    e = max(effort, 0.01)
    if not compiled:
        return _Schedule(((6, max(20, int(60 * e)), 2), (4, max(40, int(150 * e)), 1)),
                         (0, 0), max(100, int(400 * e)))  # fmt: skip
    return _Schedule(
        (
            (24, max(200, int(1000 * e)), 6),
            (12, max(500, int(3000 * e)), 4),
            (6, max(1000, int(8000 * e)), 2),
            (2, max(2000, int(15000 * e)), 1),  # plus the other openers of the leader
        ),
        (max(3, int(14 * min(e, 4.0))), max(2000, int(16000 * e))),
        max(4000, int(25000 * e)),
    )


def _seed_for(seed: int, *stream: int) -> int:
    """Independent seeds per purpose, so search deals and fresh deals never coincide."""
    return int(np.random.SeedSequence([seed, *stream]).generate_state(1)[0])


_SEARCH, _FRESH, _BREED = 1, 2, 3


SLIP_RATE = 0.05  # a hint's default: a slip every twenty decisions
SIMPLEST_WITHIN = 0.05  # the simplest plan may lose this much of the rate with slips
# The share of the progress bar the odds take when they are computed; the search takes the
# rest, in proportion to the games it plays, so the bar moves at an even pace to 100.
ODDS_SHARE = 12
SLICE = 5000  # games per pass_count call: progress is reported after each slice


def recommend(
    clock: Clock,
    seats: Seats,
    face_up: int,
    seed: int = 0,
    effort: float = 1.0,
    progress: Progress | None = None,
    base_rules: bool = False,
    odds_samples: int | None = None,
    compute_odds: bool = True,
    names: Sequence[str] | None = None,
    slip_rate: float = SLIP_RATE,
) -> HintResult:
    """Search for the plan with the best simulated pass rate with slips (see the module
    docstring), and offer up to three plans (:class:`Alternative`).

    ``effort`` scales the number of simulated games (1.0: a few seconds). ``progress`` is
    called often (several times a second) with a percentage, a :class:`Stage` and the best
    result so far. ``base_rules`` plays an untranscribed clock under the base rules only; without it
    an untranscribed clock is a ValueError. ``odds_samples`` asks for sampled rather than
    exact odds; ``compute_odds=False`` leaves them out (None). ``names`` are the players'
    names in seating order, for the words. ``slip_rate`` (0 to 0.5) is the chance that a
    decision slips (``agents.slip_of``); at 0 the search selects on the clean rate.
    Deterministic under ``seed``.

    The phases: :func:`_race`, :func:`_climb`, :func:`_choose` and :func:`_fresh_deals`.
    """
    if not clock.transcribed:
        if not base_rules:
            raise ValueError(
                f"Clock {clock.name} is not transcribed yet: its special rules are unknown, so "
                "no plan can be checked against them. Transcribe it, or ask for a hint under "
                "the base rules only."
            )
        clock = clock.base_rules_only()
    if not 0 <= face_up <= seats.most_face_up:
        raise ValueError(f"face_up must be 0..{seats.most_face_up}, not {face_up}")
    if effort <= 0:
        raise ValueError("effort must be positive")
    run = _Run(clock, seats, face_up, effort, progress, compute_odds, names, slip_rate)
    run.tell(Stage("search"), 0)
    # The "H" plan (``plans.h_plan``) is a strong prior: most of the first field are variations
    # of it, a third are wild guesses in case this clock wants something else.
    prior = _PRIORS.get(seats.players, _h_genes())
    clean_pick: Plan | None = None
    pooled: list[Plan] = []
    if run.slipping:
        # The clean search first, exactly as a search at slip rate 0 runs it (same seeds):
        # its pick must be matched on the fresh deals, and its candidates join the choice.
        twin = run.clean_twin()
        clean_rng = np.random.default_rng(_seed_for(seed, _BREED))
        pool, clean_field = _race(twin, clean_rng, seed, prior)
        leader, climb_deals = _climb(twin, clean_rng, seed, pool[0])
        measured, roles = _choose(twin, leader, clean_field, prior, climb_deals)
        clean_pick = measured[roles["recommended"]][0]
        pooled = [m[0] for m in measured]
    rng = np.random.default_rng(_seed_for(seed, _BREED))
    pool, clean_field = _race(run, rng, seed, prior)
    leader, climb_deals = _climb(run, rng, seed, pool[0])
    measured, roles = _choose(run, leader, clean_field, prior, climb_deals, pooled)
    chosen, alternatives, baseline_rate = _fresh_deals(run, seed, measured, roles, clean_pick)
    run.tell(Stage("odds"), run.top)
    odds = (
        _odds(clock, seats, seed, odds_samples, run.report, run.best, run.top)
        if compute_odds
        else None
    )
    result = HintResult(
        plan=chosen.plan,
        pass_rate=chosen.pass_rate,
        interval=chosen.interval,
        baseline_rate=baseline_rate,
        odds=odds,
        games=run.schedule.final_games,
        words=chosen.words,
        partial=False,
        slip_rate=run.slip_rate,
        pass_rate_with_slips=chosen.pass_rate_with_slips,
        interval_with_slips=chosen.interval_with_slips,
        alternatives=tuple(alternatives),
    )
    run.report(100, Stage("done"), result)
    return result


_Deals = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64] | None]  # values, slips (or None)
# plan, clean rate, rate with slips, sentences, words
_Measured = tuple[Plan, float, float, int, dict[str, str]]


class _Run:
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
    ) -> None:
        self.clock, self.seats, self.face_up, self.names = clock, seats, face_up, names
        self.slip_rate = check_slip_rate(slip_rate)
        self.slipping = self.slip_rate > 0
        self.report: Progress = progress or (lambda percent, stage, best: None)
        self.baseline = baseline_plan(clock, seats, face_up)
        self.compiled = rules_for(clock, seats, self.baseline).compiled_ok
        self.schedule = schedule = _schedule(effort, self.compiled)
        self.twice = twice = 2 if self.slipping else 1  # plans measured clean and with slips
        last_games = schedule.rounds[-1][1]
        total = sum((n + 1 + (twice - 1) * 2) * g for n, g, _ in schedule.rounds)
        total += (seats.players + (twice - 1) * (2 + seats.players)) * last_games
        total += (schedule.climb[0] + 1) * schedule.climb[1]
        total += _CHOICES * twice * schedule.climb[1]
        total += (4 * twice + twice) * schedule.final_games
        if self.slipping:  # the clean search runs first (see recommend), and pools its plans
            total += sum((n + 1) * g for n, g, _ in schedule.rounds)
            total += seats.players * last_games
            total += (schedule.climb[0] + 1) * schedule.climb[1]
            total += _CHOICES * (1 + twice) * schedule.climb[1]
        self.top = 100 - ODDS_SHARE if compute_odds else 99
        # The bar: ``done`` games of ``total`` map linearly onto ``start``..``top`` percent,
        # from the game count ``offset`` on. Once the rest of the work is known exactly,
        # ``rest`` re-aims the same line from where the bar is, so it neither jumps nor stalls.
        self.meter = {"done": 0, "shown": 0, "total": total, "offset": 0, "start": 0}
        self.best: HintResult | None = None
        self.main = True  # False for the clean twin, which neither re-aims the bar nor shows
        # its best-so-far

    def clean_twin(self) -> _Run:
        """The same search at slip rate 0, sharing this one's progress bar."""
        twin = copy.copy(self)
        twin.slip_rate, twin.slipping, twin.twice, twin.main = 0.0, False, 1, False
        twin.report = lambda percent, stage, best: self.report(percent, stage, None)
        return twin

    def plan(self, genes: Genes) -> Plan:
        return genes.plan(self.clock, self.seats)

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
    ) -> int:
        # Counted in slices so that the caller hears every fraction of a second, also during
        # the long evaluations at the end (the reference engine, for clocks with rule kinds
        # the compiled one lacks, plays only a few hundred games a second).
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
                    self.slip_rate,
                    slips[start : start + step],
                )
            self.meter["done"] += len(part)
            self.tell(stage)
        return passed

    def common(self, games: int, stream_seed: int) -> _Deals:
        """Common deals, and common slips for them: every plan meets the same luck."""
        values = draw_values(self.seats, games, stream_seed)
        return values, (draw_slips(games, stream_seed) if self.slipping else None)


def _race(
    run: _Run, rng: np.random.Generator, seed: int, prior: Genes
) -> tuple[list[Genes], list[tuple[float, int, Genes]]]:
    """Race plans round by round on common deals, halving the field while the deals grow.
    Returns the survivors (best first) and the last field ranked on its clean rate."""
    clock, players = run.clock, run.seats.players
    baseline, slipping = run.baseline, run.slipping
    pool: list[Genes] = [prior, _h_genes(), *_OTHER_STARTS]
    clean_field: list[tuple[float, int, Genes]] = []
    for round_index, (size, games, keep) in enumerate(run.schedule.rounds):
        # Refill the field: random plans in the first round, offspring of survivors later.
        scale = 1.0 / (1 + round_index)
        survivors = len(pool)
        last = round_index == len(run.schedule.rounds) - 1
        if last:
            # Who opens is a discrete choice the mutations rarely try: try every seat for
            # the leader on the big final sample.
            pool += [replace(pool[0], opener=o) for o in range(1, players + 1)]
            pool = list(dict.fromkeys(pool))
        while len(pool) < size:
            if round_index == 0 and len(pool) >= 2 * size // 3:
                pool.append(_random_genes(rng, clock, players))
            else:
                parent = pool[int(rng.integers(0, survivors))]
                pool.append(_mutate(rng, parent, clock, players, scale))
        values, slips = run.common(games, _seed_for(seed, _SEARCH, round_index))
        stage = Stage("racing", round_index + 1, len(run.schedule.rounds))
        baseline_score = run.passes(baseline, values, slips, stage) / games
        scored = []
        for index, genes in enumerate(pool):
            rate = run.passes(run.plan(genes), values, slips, stage) / games
            scored.append((rate, index, genes))
        scored.sort(key=lambda x: (-x[0], x[1]))
        if last:
            # The clean rates of the last field: the best of them is the "bold" candidate.
            clean_field = [
                (
                    (run.passes(run.plan(g), values, None, stage) / games) if slipping else r,
                    i,
                    g,
                )
                for r, i, g in scored
            ]
            clean_field.sort(key=lambda x: (-x[0], x[1]))
        pool = [g for _, _, g in scored[:keep]]
        # Best-so-far, measured on search deals (so marked partial): what a task stores if
        # it is stopped before the fresh evaluation.
        top_rate = scored[0][0]
        best_plan = run.plan(pool[0]) if top_rate >= baseline_score else baseline
        best_slips = max(top_rate, baseline_score)
        if slipping:
            best_clean = run.passes(best_plan, values, None, stage) / games
            baseline_clean = run.passes(baseline, values, None, stage) / games
        else:
            best_clean, baseline_clean = best_slips, baseline_score
        run.best = HintResult(
            plan=best_plan,
            pass_rate=best_clean,
            interval=wilson(round(best_clean * games), games),
            baseline_rate=baseline_clean,
            odds=None,
            games=games,
            words=run.words(best_plan),
            partial=True,
            slip_rate=run.slip_rate,
            pass_rate_with_slips=best_slips,
            interval_with_slips=wilson(round(best_slips * games), games),
        )
    return pool, clean_field


def _climb(run: _Run, rng: np.random.Generator, seed: int, leader: Genes) -> tuple[Genes, _Deals]:
    """Hill-climb: small changes to the leader on one large common sample, kept only when
    they pass more deals. Racing finds the region; this settles the fine print (a few
    tenths on a target or a weight are worth a point or two of pass rate). Returns the
    leader and the sample, which the choice reuses."""
    steps, games = run.schedule.climb
    clock, players = run.clock, run.seats.players
    values, slips = run.common(max(games, 1000), _seed_for(seed, _SEARCH, 99))
    if steps:
        leader_passes = run.passes(run.plan(leader), values, slips, Stage("fine-tuning", 0, steps))
        for step in range(steps):
            stage = Stage("fine-tuning", step + 1, steps)
            run.tell(stage)
            candidate = _mutate(rng, leader, clock, players, 0.5)
            candidate_passes = run.passes(run.plan(candidate), values, slips, stage)
            if candidate_passes > leader_passes:
                leader, leader_passes = candidate, candidate_passes
    return leader, (values, slips)


def _choose(
    run: _Run,
    leader: Genes,
    clean_field: list[tuple[float, int, Genes]],
    prior: Genes,
    deals: _Deals,
    pooled: Sequence[Plan] = (),
) -> tuple[list[_Measured], dict[str, int]]:
    """The choice: the leader, the best clean plan of the last round, today's prior and
    simpler versions of the leader, each measured clean and with slips on the fine-tuning
    deals. The recommended plan is the best with slips, the bold one the best clean one,
    the simplest the one with fewest sentences within SIMPLEST_WITHIN of the recommended.
    ``pooled`` plans (the clean search's candidates) join the choice."""
    stage = Stage("choosing")
    run.tell(stage)
    values, slips = deals
    choices: list[Plan] = []
    for plan in (
        run.plan(leader),
        *(run.plan(g) for g in _simpler(leader)),
        *(run.plan(g) for _, _, g in clean_field[:1]),
        run.plan(prior),
        # Today's prior said more simply: other targets aloud, no band, no "open every
        # segment" — a candidate for the simplest plan a table can tell apart.
        run.plan(_simpler(prior)[-1]),
    ):
        if plan not in choices:  # plans hold dicts: compared, not hashed
            choices.append(plan)
    choices = choices[:_CHOICES]
    choices += [plan for plan in pooled if plan not in choices]
    measured: list[_Measured] = []
    n = len(values)
    run.rest(len(choices) * run.twice * n + 5 * run.twice * run.schedule.final_games)
    for plan in choices:
        won_slips = run.passes(plan, values, slips, stage)
        won = run.passes(plan, values, None, stage) if run.slipping else won_slips
        sentences = plan_size(plan, run.clock, run.seats, run.face_up)[0]
        measured.append((plan, won / n, won_slips / n, sentences, run.words(plan)))
    roles = _roles(measured)
    roles["simplest"] = _simplest(run, measured, roles["recommended"])
    if run.best is not None:
        plan, clean, with_slips, _, words = measured[roles["recommended"]]
        if with_slips > (run.best.pass_rate_with_slips or 0.0):
            run.best = replace(
                run.best,
                plan=plan,
                pass_rate=clean,
                interval=wilson(round(clean * n), n),
                pass_rate_with_slips=with_slips,
                interval_with_slips=wilson(round(with_slips * n), n),
                games=n,
                words=words,
            )
    return measured, roles


def _fresh_deals(
    run: _Run,
    seed: int,
    measured: list[_Measured],
    roles: dict[str, int],
    clean_pick: Plan | None = None,
) -> tuple[Alternative, list[Alternative], float]:
    """Fresh deals, which took no part in the choice: the rates we report, for each plan
    offered and the baseline, clean and with slips, on the same deals and slips. Returns
    the recommended plan, every plan offered and the baseline's clean rate.

    Two plans are held to the recommended one on these deals: the baseline, and
    ``clean_pick``, the plan the clean search chose (see :func:`_never_worse`)."""
    baseline = run.baseline
    n = run.schedule.final_games
    fresh, fresh_slips = run.common(n, _seed_for(seed, _FRESH))
    offered = list(dict.fromkeys(roles.values()))
    extra = clean_pick is not None and all(measured[i][0] != clean_pick for i in offered)
    checks = len(offered) + 1 + int(extra)
    run.rest(checks * run.twice * n)

    def play(plan: Plan, stage: Stage) -> tuple[int, int]:
        run.tell(stage)
        won = run.passes(plan, fresh, None, stage)
        won_slips = run.passes(plan, fresh, fresh_slips, stage) if run.slipping else won
        return won, won_slips

    results = {
        index: play(measured[index][0], Stage("fresh deals", step + 1, checks))
        for step, index in enumerate(offered)
    }
    base_won, base_slips = play(baseline, Stage("fresh deals", len(offered) + 1, checks))
    alternatives = [
        _alternative(run, tuple(k for k in KINDS if roles[k] == i), measured[i], results[i], n)
        for i in offered
    ]
    chosen = alternatives[0]
    if (base_slips, base_won) > results[roles["recommended"]][::-1]:
        # Rare (the race compares with the baseline on many deals) but possible by chance:
        # never recommend something that did worse than the fixed plan on the honest test.
        chosen = _alternative(
            run, ("recommended",), _measure(run, baseline), (base_won, base_slips), n
        )
        alternatives = _promote(alternatives, chosen)
    if clean_pick is not None:
        clean_won, clean_slips = next(
            (results[i] for i in offered if measured[i][0] == clean_pick), (0, 0)
        )
        if extra:
            clean_won, clean_slips = play(clean_pick, Stage("fresh deals", checks, checks))
        if base_won > clean_won:  # the clean search's own check against the baseline
            clean_pick, clean_won, clean_slips = baseline, base_won, base_slips
        mine = (round(chosen.pass_rate * n), round(chosen.pass_rate_with_slips * n))
        if clean_pick != chosen.plan and not _never_worse(mine, (clean_won, clean_slips), n):
            chosen = _alternative(
                run, ("recommended",), _measure(run, clean_pick), (clean_won, clean_slips), n
            )
            alternatives = _promote(alternatives, chosen)
    return chosen, _distinct(run, alternatives), base_won / n


SIMPLER_WORDS = 0.8  # "simplest" says fewer sentences, or at most this share of the words


def _distinct(run: _Run, alternatives: list[Alternative]) -> list[Alternative]:
    """The plans to offer, recommended first: plans that say the same lines aloud are
    offered once (the first, with the kinds of all), and "simplest" only where it is simpler
    aloud than the recommended plan (fewer sentences, or at most SIMPLER_WORDS of the
    words) and within SIMPLEST_WITHIN of its rate with slips."""
    merged: list[tuple[tuple[str, ...], Alternative]] = []
    for other in alternatives:
        lines = plan_speech(other.plan, run.clock, run.seats, run.face_up, "en").lines
        for index, (said, kept) in enumerate(merged):
            if said == lines:
                kinds = {*kept.kinds, *other.kinds}
                merged[index] = (said, replace(kept, kinds=tuple(k for k in KINDS if k in kinds)))
                break
        else:
            merged.append((lines, other))
    offered = [other for _, other in merged]
    first = offered[0]
    out = []
    for other in offered:
        if "simplest" in other.kinds and not (
            other is not first
            and (
                other.sentences < first.sentences
                or other.word_count <= SIMPLER_WORDS * first.word_count
            )
            and other.pass_rate_with_slips >= first.pass_rate_with_slips - SIMPLEST_WITHIN
        ):
            other = replace(other, kinds=tuple(k for k in other.kinds if k != "simplest"))
        if other.kinds:
            out.append(other)
    return out


NEVER_WORSE_CLEAN = 0.02  # the clean rate may be this much lower for more than it with slips


def _never_worse(mine: tuple[int, int], clean: tuple[int, int], games: int) -> bool:
    """Whether a plan passing ``mine`` (clean, with slips) of ``games`` fresh deals may be
    recommended over the clean search's pick passing ``clean`` on the same deals and slips:
    at least as many passes with slips, and clean at most NEVER_WORSE_CLEAN lower unless
    its rate with slips is higher by more than that."""
    margin = NEVER_WORSE_CLEAN * games
    if mine[1] < clean[1]:
        return False
    return mine[0] >= clean[0] - margin or mine[1] > clean[1] + margin


def _measure(run: _Run, plan: Plan) -> _Measured:
    """A plan's entry for :func:`_alternative` (its search rates are not used there)."""
    return plan, 0.0, 0.0, plan_size(plan, run.clock, run.seats, run.face_up)[0], run.words(plan)


def _alternative(
    run: _Run, kinds: tuple[str, ...], entry: _Measured, won: tuple[int, int], n: int
) -> Alternative:
    plan = entry[0]
    return Alternative(
        kinds=kinds,
        plan=plan,
        pass_rate=won[0] / n,
        interval=wilson(won[0], n),
        pass_rate_with_slips=won[1] / n,
        interval_with_slips=wilson(won[1], n),
        words=entry[4],
        sentences=entry[3],
        word_count=plan_size(plan, run.clock, run.seats, run.face_up)[1],
    )


def _promote(alternatives: list[Alternative], chosen: Alternative) -> list[Alternative]:
    """``chosen`` first as the recommended plan; the others keep their other kinds (a plan
    already offered is offered once, with the kinds of both)."""
    rest = []
    for a in alternatives:
        if a.plan == chosen.plan:
            chosen = replace(
                chosen, kinds=("recommended", *(k for k in a.kinds if k != "recommended"))
            )
        else:
            rest.append(replace(a, kinds=tuple(k for k in a.kinds if k != "recommended")))
    return [chosen, *(a for a in rest if a.kinds)]


KINDS = ("recommended", "simplest", "bold")
_CHOICES = 7  # plans compared in the choice, at most (and the clean search's)


def _simpler(genes: Genes) -> list[Genes]:
    """Versions of a plan with less to say: no value band, no "open every segment" rule,
    neither."""
    return [
        replace(genes, pile_floor=0.0, low_ceiling=0.0),
        replace(genes, open_bonus=min(genes.open_bonus, 1.0)),
        replace(genes, pile_floor=0.0, low_ceiling=0.0, open_bonus=min(genes.open_bonus, 1.0)),
    ]


def _simplest(run: _Run, measured: list[_Measured], recommended: int) -> int:
    """The plan for the "simplest" role: within SIMPLEST_WITHIN of the recommended plan's
    rate with slips, other lines aloud, and simpler (see :func:`_distinct`); the fewest
    sentences, then words, then the best rate with slips. The recommended one if none is."""

    def said(plan: Plan) -> tuple[tuple[str, ...], int]:
        speech = plan_speech(plan, run.clock, run.seats, run.face_up, "en")
        return speech.lines, len(" ".join((*speech.lines, *speech.details)).split())

    lines, words = said(measured[recommended][0])
    floor = measured[recommended][2] - SIMPLEST_WITHIN
    best: tuple[int, int, float] | None = None
    chosen = recommended
    for index, (plan, _, with_slips, sentences, _) in enumerate(measured):
        if index == recommended or with_slips < floor:
            continue
        own_lines, own_words = said(plan)
        if own_lines == lines or not (
            sentences < measured[recommended][3] or own_words <= SIMPLER_WORDS * words
        ):
            continue
        key = (sentences, own_words, -with_slips)
        if best is None or key < best:
            best, chosen = key, index
    return chosen


def _roles(measured: list[tuple[Plan, float, float, int, dict[str, str]]]) -> dict[str, int]:
    """Which measured plan fills each role (index into ``measured``; earlier wins ties)."""
    indices = range(len(measured))
    recommended = max(indices, key=lambda i: (measured[i][2], measured[i][1], -i))
    bold = max(indices, key=lambda i: (measured[i][1], measured[i][2], -i))
    floor = measured[recommended][2] - SIMPLEST_WITHIN
    simplest = min(
        (i for i in indices if measured[i][2] >= floor),
        key=lambda i: (measured[i][3], -measured[i][2], i),
    )
    return {"recommended": recommended, "simplest": simplest, "bold": bold}


def _odds(
    clock: Clock,
    seats: Seats,
    seed: int,
    samples: int | None,
    report: Progress,
    best: HintResult | None,
    start: int,
) -> float | None:
    """The perfect-information odds (``solver.core.odds.odds``), or None when the clock
    has a rule kind the oracle does not know: the hint is still worth giving."""
    from .odds import odds  # imported late: only a finished search needs the oracle

    shown = [start]

    def forward(percent: int, stage: str) -> None:
        # The odds are the last ODDS_SHARE percent of the job: their own percentage moves
        # the bar from ``start`` towards 100.
        del stage  # the odds' own step, in English: the search's stage is enough
        shown[0] = max(shown[0], min(99, start + (100 - start) * int(percent) // 100))
        report(shown[0], Stage("odds"), best)

    try:
        return float(odds(clock, seats, samples=samples, seed=seed, progress=forward).odds)
    except ValueError:
        return None


__all__ = ["STAGES", "Alternative", "HintResult", "Stage", "recommend", "baseline_plan", "h_plan"]
