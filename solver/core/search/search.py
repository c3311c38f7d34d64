"""Plan search: the plan a table should agree on, with an honest pass rate.

The search gives the prior the seat that opens best at this table (``Run.open_best``) and
screens the plan's structures (:func:`_screen`), then races plans on
common deals (every plan in a round plays exactly the same
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
recommended (best with slips), simplest (fewest sentences within 0.05 of it, and at least
half of it) and bold (best clean rate). Each is reported clean and with slips on the fresh
deals.

Never worse than the clean search: a search on slips first runs the clean search (slip rate
0, the same seeds), whose candidates join the choice, and its recommended plan must beat
the clean search's pick with slips on the fresh deals by a lead luck rarely gives
(:func:`choice.never_worse`), or that pick is recommended instead. Before that, in both
searches, the prior the search started from (where long searches ended) is recommended
where it does as well on the fresh deals, so a quick search that wandered off it to a plan
no better does not recommend that plan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from rules.clock import Clock
from rules.seats import Seats
from solver.core.table import exact
from solver.core.table.plans import Plan, baseline_plan, h_plan
from solver.core.table.simulate import wilson

from . import choice
from .genes import (
    Genes,
    descend,
    mutate,
    random_genes,
    screen_field,
    screen_starts,
)
from .hint_result import STAGES, Alternative, HintResult, Progress, Stage, plan_size
from .search_run import BREED, CHOICES, FRESH, SEARCH, SLIP_RATE, Measured, Run, seed_for


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
    prior: Genes | None = None,
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
    ``prior``: where the search starts and what it is held to, the clock's own
    (``clock_prior.search_prior``) where one is known; else the table size's
    (``genes.prior_for``). Deterministic under ``seed``.

    The phases: ``Run.open_best``, :func:`_race`, :func:`_climb`, :func:`_choose` and
    :func:`_fresh_deals`.
    """
    return recommend_genes(
        clock,
        seats,
        face_up,
        seed,
        effort,
        progress,
        base_rules,
        odds_samples,
        compute_odds,
        names,
        slip_rate,
        prior,
    )[0]


def recommend_genes(
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
    prior: Genes | None = None,
) -> tuple[HintResult, Genes | None]:
    """:func:`recommend`, and the genes of the plan it recommends (None where that is the
    baseline plan, which has none)."""
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
    run = Run(clock, seats, face_up, effort, progress, compute_odds, names, slip_rate, prior)
    run.tell(Stage("search"), 0)
    run.open_best()
    # The prior is a strong start: most of the first field are variations of it, a third are
    # wild guesses in case this clock wants something else.
    prior = run.prior
    clean_pick: Plan | None = None
    pooled: list[Plan] = []
    if run.slipping:
        # The clean search first, exactly as a search at slip rate 0 runs it (same seeds):
        # its pick must be matched on the fresh deals, and its candidates join the choice.
        twin = run.clean_twin()
        clean_rng = np.random.default_rng(seed_for(seed, BREED))
        pool, clean_field = _race(twin, clean_rng, seed, prior)
        leader = _climb(twin, seed, pool[0])
        measured, roles = _choose(twin, seed, leader, clean_field, prior)
        clean_pick = measured[roles["recommended"]][0]
        pooled = [m[0] for m in measured]
    rng = np.random.default_rng(seed_for(seed, BREED))
    pool, clean_field = _race(run, rng, seed, prior)
    leader = _climb(run, seed, pool[0])
    measured, roles = _choose(run, seed, leader, clean_field, prior, pooled)
    chosen, alternatives, baseline_rate = _fresh_deals(
        run, seed, measured, roles, run.plan(prior), clean_pick
    )
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
    return result, run.genes(chosen.plan)


def _race(
    run: Run, rng: np.random.Generator, seed: int, prior: Genes
) -> tuple[list[Genes], list[tuple[float, int, Genes]]]:
    """Race plans round by round on common deals, halving the field while the deals grow.
    Returns the survivors (best first) and the last field ranked on its clean rate."""
    clock, players = run.clock, run.seats.players
    baseline, slipping = run.baseline, run.slipping
    pool = _screen(run, seed, prior)
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
                pool.append(random_genes(rng, clock, players))
            else:
                parent = pool[int(rng.integers(0, survivors))]
                pool.append(mutate(rng, parent, clock, players, scale))
        values, slips = run.common(games, seed_for(seed, SEARCH, round_index))
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


def _screen(run: Run, seed: int, prior: Genes) -> list[Genes]:
    """The starting points in every structure (:func:`genes.structures`), screened on one
    common sample: the best SCREEN_KEEP start the race, best first."""
    games = run.schedule.screen
    if not games:  # the reference engine: too slow to screen, the starts race as they are
        return screen_starts(run.clock, prior)
    field = screen_field(run.clock, run.seats, prior)
    values, slips = run.common(games, seed_for(seed, SEARCH, 50))
    stage = Stage("racing", 1, len(run.schedule.rounds))
    scored = sorted(
        ((-run.passes(run.plan(g), values, slips, stage), i, g) for i, g in enumerate(field)),
        key=lambda x: (x[0], x[1]),
    )
    return [g for _, _, g in scored[:SCREEN_KEEP]]


SCREEN_KEEP = 6


def _climb(run: Run, seed: int, leader: Genes) -> Genes:
    """Fine-tuning: coordinate descent (:func:`descend`) from the race's winner on one
    common sample. Racing finds the region; this settles the fine print (a few tenths on a
    target or a weight are worth a point or two of pass rate). No chance in it: from one
    leader on one sample, every seed climbs the same way, where random steps (one to three
    genes) took each seed somewhere else. Returns the new leader."""
    steps, games = run.schedule.climb
    if not steps:
        return leader
    values, slips = run.common(games, seed_for(seed, SEARCH, 99))

    def passes(plan: Plan, tried: int) -> int:
        stage = Stage("fine-tuning", tried, steps)
        run.tell(stage)
        return run.passes(plan, values, slips, stage)

    return descend(leader, run.clock, steps, run.plan, passes)


def _choose(
    run: Run,
    seed: int,
    leader: Genes,
    clean_field: list[tuple[float, int, Genes]],
    prior: Genes,
    pooled: Sequence[Plan] = (),
) -> tuple[list[Measured], dict[str, int]]:
    """The choice: the leader, the best clean plan of the last round, today's prior and
    simpler versions of the leader, each measured clean and with slips on deals of the
    choice's own (``Run.schedule.choice``). The recommended plan is the best with slips,
    the bold one the best clean one, the simplest the one with fewest sentences within
    SIMPLEST_WITHIN of the recommended.
    ``pooled`` plans (the clean search's candidates) join the choice."""
    stage = Stage("choosing")
    run.tell(stage)
    # Deals of its own: on the fine-tuning's, the leader would be measured on the very
    # deals its steps were kept for, and win the choice by their luck.
    values, slips = run.common(run.schedule.choice, seed_for(seed, SEARCH, 98))
    choices: list[Plan] = []
    for genes in (
        leader,
        *choice.simpler(leader),
        *(g for _, _, g in clean_field[:1]),
        prior,
        # Today's prior said more simply: other targets aloud, no band, no "open every
        # segment" — a candidate for the simplest plan a table can tell apart.
        choice.simpler(prior)[-1],
    ):
        plan = run.plan(genes)
        if plan not in choices:  # plans hold dicts: compared, not hashed
            choices.append(plan)
            if run.genes(plan) is None:
                run.genes_of.append((plan, genes))
    choices = choices[:CHOICES]
    if exact.convention_for(run.clock) is not None:
        # The exactly-twelve convention, where the segment read last takes one card: no
        # genes, a candidate of its own (the leader's opener: which seat opens changes its
        # rate by less than 0.001).
        conventional = replace(run.plan(leader), exact=True)
        if conventional not in choices:
            choices.append(conventional)
    choices += [plan for plan in pooled if plan not in choices]
    measured: list[Measured] = []
    n = len(values)
    run.rest(len(choices) * run.twice * n + 5 * run.twice * run.schedule.final_games)
    for plan in choices:
        won_slips = run.passes(plan, values, slips, stage)
        won = run.passes(plan, values, None, stage) if run.slipping else won_slips
        sentences = plan_size(plan, run.clock, run.seats, run.face_up)[0]
        measured.append((plan, won / n, won_slips / n, sentences, run.words(plan)))
    roles = choice.roles(measured)
    roles["simplest"] = choice.simplest(run, measured, roles["recommended"])
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
    run: Run,
    seed: int,
    measured: list[Measured],
    roles: dict[str, int],
    prior: Plan,
    clean_pick: Plan | None = None,
) -> tuple[Alternative, list[Alternative], float]:
    """Fresh deals, which took no part in the choice: the rates we report, for each plan
    offered and the baseline, clean and with slips, on the same deals and slips. Returns
    the recommended plan, every plan offered and the baseline's clean rate.

    Plans held to the recommended one on these deals: the baseline; the ``prior`` the
    search started from (:func:`_prior_if_as_good`); and ``clean_pick``, the plan the clean
    search chose after the same checks (:func:`_held_to`, :func:`choice.never_worse`).
    """
    baseline = run.baseline
    n = run.schedule.final_games
    fresh, fresh_slips = run.common(n, seed_for(seed, FRESH))
    offered = list(dict.fromkeys(roles.values()))
    plans = [measured[i][0] for i in offered] + [baseline]
    for plan in (prior, clean_pick):
        if plan is not None and plan not in plans:
            plans.append(plan)
    run.rest(len(plans) * run.twice * n)

    def play(plan: Plan, stage: Stage) -> tuple[int, int]:
        run.tell(stage)
        won = run.passes(plan, fresh, None, stage)
        won_slips = run.passes(plan, fresh, fresh_slips, stage) if run.slipping else won
        return won, won_slips

    results = [play(plan, Stage("fresh deals", k + 1, len(plans))) for k, plan in enumerate(plans)]

    def rates(plan: Plan) -> tuple[int, int]:
        return results[plans.index(plan)]

    def clean_rates(plan: Plan) -> tuple[int, int]:
        won = rates(plan)[0]
        return won, won

    base_won, base_slips = rates(baseline)
    alternatives = [
        choice.alternative(
            run, tuple(k for k in choice.KINDS if roles[k] == i), measured[i], rates(plan), n
        )
        for i, plan in zip(offered, plans[: len(offered)], strict=True)
    ]
    chosen = alternatives[0].plan
    if (base_slips, base_won) > rates(chosen)[::-1]:
        # Rare (the race compares with the baseline on many deals) but possible by chance:
        # never recommend something that did worse than the fixed plan on the honest test.
        chosen = baseline
    chosen = _prior_if_as_good(chosen, prior, rates, n)
    if clean_pick is not None:
        # What the clean search recommends: its pick after its own checks on these deals.
        if base_won > rates(clean_pick)[0]:
            clean_pick = baseline
        clean_pick = _prior_if_as_good(clean_pick, prior, clean_rates, n)
        chosen = _held_to(chosen, clean_pick, rates, n)
    first = alternatives[0]
    if chosen != first.plan:
        first = choice.alternative(
            run, ("recommended",), choice.measure(run, chosen), rates(chosen), n
        )
        alternatives = choice.promote(alternatives, first)
    return first, choice.distinct(run, alternatives), base_won / n


def _held_to(
    chosen: Plan, held: Plan, rates: Callable[[Plan], tuple[int, int]], games: int
) -> Plan:
    """``held`` instead of ``chosen``, unless ``chosen`` beats it on the fresh deals
    (:func:`choice.never_worse`)."""
    if held != chosen and not choice.never_worse(rates(chosen), rates(held), games):
        return held
    return chosen


def _prior_if_as_good(
    chosen: Plan, prior: Plan, rates: Callable[[Plan], tuple[int, int]], games: int
) -> Plan:
    """The ``prior`` instead of ``chosen`` where it does as well on the fresh deals
    (:func:`choice.never_worse` without a lead): where the prior is a long search's plan, a
    quick search that wandered off it to a plan no better recommends the prior, whatever
    its seed. Without a lead, so that on a clock where the prior is weak a plan that passes
    a few more deals is never given up for it."""
    if prior != chosen and choice.never_worse(rates(prior), rates(chosen), games, lead=0.0):
        return prior
    return chosen


def _odds(
    clock: Clock,
    seats: Seats,
    seed: int,
    samples: int | None,
    report: Progress,
    best: HintResult | None,
    start: int,
) -> float | None:
    """The perfect-information odds (``solver.core.oracle.odds.odds``), or None when the clock
    has a rule kind the oracle does not know: the hint is still worth giving."""
    from solver.core.oracle.odds import (
        odds,  # imported late: only a finished search needs the oracle
    )

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


__all__ = [
    "STAGES",
    "Alternative",
    "HintResult",
    "Stage",
    "baseline_plan",
    "h_plan",
    "recommend",
    "recommend_genes",
]
