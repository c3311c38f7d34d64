"""recommend(): the plan search and its honest report."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver.core.search import choice, genes, search, search_run
from solver.core.search.hint_result import STAGES, Alternative, HintResult, Stage, plan_size
from solver.core.search.search import recommend
from solver.core.table.plans import Plan, baseline_plan, colour_owners
from solver.core.table.simulate import draw_slips, draw_values, pass_count, simulate
from solver.core.words import plan_speech

CLOCK = Clock("2-1", 2, 1)
THREE = parse_colours("SSMM/SMSM/MMSS")
QUICK = 0.05  # the smallest search: a fraction of a second


@pytest.mark.slow  # three searches
def test_the_same_seed_gives_the_same_hint() -> None:
    first = recommend(CLOCK, THREE, 3, seed=4, effort=QUICK, compute_odds=False)
    again = recommend(CLOCK, THREE, 3, seed=4, effort=QUICK, compute_odds=False)
    assert first.to_json() == again.to_json()


def test_the_recommended_plan_does_at_least_as_well_as_the_baseline() -> None:
    hint = recommend(CLOCK, THREE, 3, seed=1, effort=QUICK, compute_odds=False)
    assert hint.pass_rate >= hint.baseline_rate
    assert hint.interval[0] <= hint.pass_rate <= hint.interval[1]
    assert not hint.partial


# Clocks and tables for the honesty checks: two to four players, a colour rule, a start
# segment other than 1, a lifted cap.
HONESTY_CASES = [
    (CLOCK, THREE, 3),
    (get_clock("1-1"), parse_colours("MMMM/SSMM/MMSS"), 3),
    (Clock("3-2", 3, 2, start=4), parse_colours("SSMM+SM/SMMM+SS"), 2),
    (Clock("5-1", 5, 1, cap=None), parse_colours("SSM/MMS/SMS/MSM"), 4),
]
CHECK_GAMES = 20_000


@pytest.mark.slow  # searches on several tables, each replayed for 20,000 games
def test_an_independent_simulation_confirms_the_claimed_pass_rate() -> None:
    # The plan is replayed on deals from a seed the search never saw. An honest claim is an
    # unbiased measurement on 4,000 fresh deals: its interval and the replay's overlap (each
    # case), and the claims do not sit above the replays on the whole. A rate measured on
    # the deals that picked the plan would be inflated by the choice of the luckiest plan.
    standardised = []
    for clock, seats, face_up in HONESTY_CASES:
        hint = recommend(clock, seats, face_up, seed=0, effort=QUICK, compute_odds=False)
        replay = simulate(clock, seats, hint.plan, face_up, games=CHECK_GAMES, seed=7_919)
        assert replay.games == CHECK_GAMES and 0.05 < replay.pass_rate < 0.95
        assert hint.interval[0] <= replay.interval[1] and replay.interval[0] <= hint.interval[1], (
            clock.id,
            hint.pass_rate,
            hint.interval,
            replay.pass_rate,
            replay.interval,
        )
        variance = sum(
            r * (1 - r) / n
            for r, n in ((hint.pass_rate, hint.games), (replay.pass_rate, replay.games))
        )
        standardised.append((hint.pass_rate - replay.pass_rate) / math.sqrt(variance))
    # One-sided: honest claims give a standard normal mean times sqrt(cases) (2.5: 1 in 160).
    assert sum(standardised) / math.sqrt(len(standardised)) < 2.5, standardised


def test_the_reported_rates_are_measured_on_deals_the_search_never_raced_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Watch (not replace) the search's deals and games: which seed drew each set of deals,
    # and which plans played on it with what result.
    draws: list[tuple[int, npt.NDArray[np.int64]]] = []
    plays: list[tuple[Plan, bytes, int, int]] = []

    def draw(seats: Seats, games: int, seed: int) -> npt.NDArray[np.int64]:
        values = draw_values(seats, games, seed)
        draws.append((seed, values))
        return values

    def count(
        clock: Clock, seats: Seats, plan: Plan, face_up: int, values: Any, *slips: Any
    ) -> int:
        passed = pass_count(clock, seats, plan, face_up, values, *slips)
        if not slips:  # the clean games (the rates with slips play the very same deals)
            plays.append((plan, values.tobytes(), passed, len(values)))
        return passed

    monkeypatch.setattr(search_run, "draw_values", draw)
    monkeypatch.setattr(search_run, "pass_count", count)
    hint = recommend(CLOCK, THREE, 3, seed=1, effort=QUICK, compute_odds=False)

    fresh = [
        deals
        for plan, deals, passed, games in plays
        if plan == hint.plan and games == hint.games and passed / games == hint.pass_rate
    ]
    assert fresh, "the winner's reported rate comes from one of its games"
    deals = fresh[-1]
    baseline = baseline_plan(CLOCK, THREE, 3)
    on_fresh = [(plan, passed) for plan, played, passed, _ in plays if played == deals]
    offered = [other.plan for other in hint.alternatives]
    assert hint.plan in offered
    # Besides the plans offered and the baseline, only the plans the recommended one is held
    # to may play there: the prior the search started from and the clean search's pick.
    prior = str(genes.prior_for(3).plan(CLOCK, THREE))
    held = {str(plan) for plan, _ in on_fresh if plan not in (*offered, baseline)} - {prior}
    assert len(held) <= 1
    assert len([plan for plan, _ in on_fresh]) == len({str(plan) for plan, _ in on_fresh})
    for offer in hint.alternatives:
        assert (offer.plan, round(offer.pass_rate * hint.games)) in on_fresh
    assert (baseline, round(hint.baseline_rate * hint.games)) in on_fresh
    # Drawn from a seed of its own, sharing no deal with any set the search raced on.
    (fresh_seed,) = [seed for seed, values in draws if values.tobytes() == deals]
    other = [(seed, values) for seed, values in draws if values.tobytes() != deals]
    assert len(other) >= 4 and fresh_seed not in {seed for seed, _ in other}
    raced = {row.tobytes() for _, values in other for row in values}
    fresh_rows = np.frombuffer(deals, dtype=np.int64).reshape(hint.games, -1)
    assert not any(row.tobytes() in raced for row in fresh_rows)


def test_the_hint_object_has_the_public_keys_and_words_per_language() -> None:
    hint = recommend(CLOCK, THREE, 3, seed=0, effort=QUICK, compute_odds=False)
    data = hint.to_json("nl")
    assert set(data) == {
        "plan", "pass_rate", "interval", "baseline_rate", "odds", "games", "words",
        "slip_rate", "pass_rate_with_slips", "interval_with_slips", "alternatives", "version",
    }  # fmt: skip
    assert data["words"].startswith("Mik op")
    assert set(hint.words) == {"en", "nl", "ja"}
    assert data["games"] >= 4000


def test_progress_is_reported_from_0_to_100_with_a_best_result_on_the_way() -> None:
    calls: list[tuple[int, Stage, HintResult | None]] = []
    recommend(
        CLOCK, THREE, 3, effort=QUICK, compute_odds=False, progress=lambda *a: calls.append(a)
    )
    percents = [c[0] for c in calls]
    assert percents[0] == 0 and percents[-1] == 100
    assert percents == sorted(percents)
    partial = [c[2] for c in calls if c[2] is not None and c[2].partial]
    assert partial, "a best-so-far result is offered before the end"
    final = calls[-1][2]
    assert final is not None and not final.partial


def test_progress_names_each_stage_in_order_with_its_rounds() -> None:
    stages: list[Stage] = []
    recommend(
        CLOCK,
        THREE,
        3,
        effort=QUICK,
        compute_odds=False,
        progress=lambda percent, stage, best: stages.append(stage),
    )
    names = list(dict.fromkeys(stage.stage for stage in stages))
    assert names == list(STAGES)
    racing = [stage for stage in stages if stage.stage == "racing"]
    rounds = racing[0].of
    assert rounds > 1
    assert sorted({stage.round for stage in racing}) == list(range(1, rounds + 1))
    assert {stage.of for stage in racing} == {rounds}
    assert stages[-1].to_json() == {"stage": "done", "round": 0, "of": 0}


def test_an_untranscribed_clock_is_refused_unless_base_rules_are_asked_for() -> None:
    clock = get_clock("2-1")
    assert not clock.transcribed
    with pytest.raises(ValueError, match="not transcribed"):
        recommend(clock, THREE, 3, effort=QUICK)
    hint = recommend(clock, THREE, 3, effort=QUICK, base_rules=True, compute_odds=False)
    assert hint.pass_rate > 0


def test_a_colour_rule_is_given_to_a_seat_that_can_keep_it() -> None:
    seats = parse_colours("MMMM/SSMM/MMSS")
    assert colour_owners(get_clock("1-1"), seats)[1] in ((2,), (3,))  # seat 1 holds no Sun
    hint = recommend(get_clock("1-1"), seats, 3, effort=QUICK, compute_odds=False)
    # The plan gives segment 1 to such a seat, or leaves it to whoever holds a Sun.
    assert hint.plan.owners.get(1, (2,)) in ((2,), (3,))
    assert hint.pass_rate > 0.2


def test_a_face_up_budget_outside_the_range_is_refused() -> None:
    with pytest.raises(ValueError, match="face_up"):
        recommend(CLOCK, THREE, 7, effort=QUICK)


def test_the_pass_rate_stays_below_the_odds_on_a_hard_clock() -> None:
    # "Segment 6 holds exactly one card": feasible for a minority of deals even with every
    # card visible, so silent play must do worse than the oracle's odds.
    clock = Clock.from_json(
        {"id": "5-1", "rules": [{"kind": "card_count", "segment": 6, "count": 1}]}
    )
    hint = recommend(clock, THREE, 3, effort=QUICK, odds_samples=400)
    assert hint.odds is not None and hint.odds < 0.5
    assert hint.pass_rate <= hint.odds


def test_names_are_used_in_the_words() -> None:
    seats = parse_colours("MMMM/SSMM/MMSS")
    hint = recommend(
        get_clock("1-1"), seats, 3, effort=QUICK, compute_odds=False, names=["Ann", "Bea", "Cas"]
    )
    names, words = ["Ann", "Bea", "Cas"], hint.words["en"]
    # Whoever the plan names (the opener, a colour's owner) is named, never "Seat N".
    assert f"{names[hint.plan.opener - 1]} opens" in words and "Seat" not in words
    assert all(names[seat - 1] in words for held in hint.plan.owners.values() for seat in held)


# --- Slips and the choice of plans -------------------------------------------------------------


def test_the_rates_with_slips_are_confirmed_by_an_independent_replay() -> None:
    hint = recommend(CLOCK, THREE, 3, seed=2, effort=QUICK, compute_odds=False, slip_rate=0.1)
    assert hint.slip_rate == 0.1
    assert hint.pass_rate_with_slips is not None and hint.interval_with_slips is not None
    # Measured on the same fresh deals: slips cost games, they do not win them.
    assert hint.pass_rate_with_slips < hint.pass_rate
    replay = simulate(CLOCK, THREE, hint.plan, 3, games=CHECK_GAMES, seed=7_919, slip_rate=0.1)
    low, high = hint.interval_with_slips
    assert low <= replay.interval[1] and replay.interval[0] <= high, (hint, replay)


def test_the_alternatives_fill_each_role_once() -> None:
    hint = recommend(CLOCK, THREE, 3, seed=0, effort=QUICK, compute_odds=False)
    kinds = [kind for other in hint.alternatives for kind in other.kinds]
    assert len(kinds) == len(set(kinds)) and {"recommended", "bold"} <= set(kinds)
    assert 1 <= len(hint.alternatives) <= 3
    # Plans offered differ aloud.
    aloud = [plan_speech(other.plan, CLOCK, THREE, 3).lines for other in hint.alternatives]
    assert len(set(aloud)) == len(aloud)
    first = hint.alternatives[0]
    assert "recommended" in first.kinds
    assert (first.plan, first.pass_rate, first.pass_rate_with_slips) == (
        hint.plan,
        hint.pass_rate,
        hint.pass_rate_with_slips,
    )
    for simplest in [other for other in hint.alternatives if "simplest" in other.kinds]:
        assert simplest is not first
        assert simplest.sentences < first.sentences or simplest.word_count <= 0.8 * first.word_count
        assert simplest.pass_rate_with_slips >= first.pass_rate_with_slips - 0.05
    for other in hint.alternatives:
        assert set(other.words) == {"en", "nl", "ja"}
        speech = plan_speech(other.plan, CLOCK, THREE, 3)
        said = " ".join((*speech.lines, *speech.details))
        assert other.word_count == len(said.split()) > len(other.words["en"].split())
        assert other.sentences == said.count(". ") + 1
        assert other.interval_with_slips[0] <= other.pass_rate_with_slips


def test_each_role_goes_to_the_plan_that_earns_it() -> None:
    plans = [Plan(targets=(t, 6, 9, 17, 20, 23)) for t in (1, 2, 3, 4)]
    words: dict[str, str] = {}
    measured = [
        (plans[0], 0.70, 0.60, 8, words),  # best with slips
        (plans[1], 0.74, 0.55, 8, words),  # best clean
        (plans[2], 0.60, 0.56, 5, words),  # fewest sentences, within 0.05 of 0.60
        (plans[3], 0.50, 0.40, 3, words),  # fewer still, but 0.20 behind
    ]
    assert choice.roles(measured) == {"recommended": 0, "simplest": 2, "bold": 1}
    # Nothing simpler within reach: the recommended plan is also the simplest.
    assert choice.roles(measured[:2])["simplest"] == 0
    # Where plans pass few deals, "within 0.05" would take a plan that passes none: the
    # simplest must also pass at least half of what the recommended one does.
    few = [
        (plans[0], 0.025, 0.020, 8, words),
        (plans[1], 0.012, 0.011, 5, words),  # half of 0.020 and more: simpler, kept
        (plans[2], 0.0, 0.0, 3, words),  # simpler still, but passes nothing
    ]
    assert choice.roles(few)["simplest"] == 1
    assert choice.roles([few[0], few[2]])["simplest"] == 0


def test_a_slip_rate_of_zero_selects_on_the_clean_rate() -> None:
    hint = recommend(CLOCK, THREE, 3, seed=0, effort=QUICK, compute_odds=False, slip_rate=0)
    assert hint.slip_rate == 0
    for other in hint.alternatives:
        assert other.pass_rate_with_slips == other.pass_rate
    assert hint.to_json()["pass_rate_with_slips"] == hint.to_json()["pass_rate"]


@pytest.mark.parametrize("rate", [-0.1, 0.6])
def test_a_slip_rate_outside_0_to_half_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="slip rate"):
        recommend(CLOCK, THREE, 3, effort=QUICK, slip_rate=rate)


def test_the_bar_moves_steadily_through_the_final_checks_and_the_odds() -> None:
    calls: list[tuple[int, Stage]] = []
    recommend(
        CLOCK,
        THREE,
        3,
        effort=0.3,
        odds_samples=3000,
        progress=lambda percent, stage, best: calls.append((percent, stage)),
    )
    percents = [percent for percent, _ in calls]
    assert percents == sorted(percents) and percents[-1] == 100
    distinct = sorted(set(percents))
    jumps = [b - a for a, b in zip(distinct, distinct[1:], strict=False)]
    assert max(jumps) <= 12, distinct
    # The final checks on fresh deals and the odds move the bar themselves, step by step.
    fresh = sorted({p for p, stage in calls if stage.stage == "fresh deals"})
    odds = sorted({p for p, stage in calls if stage.stage == "odds"})
    assert len(fresh) >= 3 and fresh[-1] - fresh[0] >= 5, fresh
    assert len(odds) >= 3 and odds[-1] - odds[0] >= 5, odds
    steps = {(stage.round, stage.of) for _, stage in calls if stage.stage == "fresh deals"}
    (of,) = {of for _, of in steps}
    assert sorted(r for r, _ in steps) == list(range(1, of + 1))


def test_plans_that_say_the_same_lines_are_offered_once_with_all_their_kinds() -> None:
    run = search_run.Run(CLOCK, THREE, 3, QUICK, None, False, None, 0.05)
    plan = Plan(targets=(5, 7, 9, 17, 20, 23), open_bonus=2.0)
    hidden = plan.with_(open_bonus=0.5)  # only the fine print differs
    other = Plan(targets=(4, 8, 12, 16, 20, 24), open_bonus=0.5)

    def offer(kinds: tuple[str, ...], p: Plan, slips: float) -> Alternative:
        sentences, words = plan_size(p, CLOCK, THREE, 3)
        return Alternative(kinds, p, 0.6, (0.5, 0.7), slips, (0.5, 0.6), {}, sentences, words)

    assert plan_speech(plan, CLOCK, THREE, 3).lines == plan_speech(hidden, CLOCK, THREE, 3).lines
    merged = choice.distinct(
        run, [offer(("recommended",), plan, 0.55), offer(("bold",), hidden, 0.5)]
    )
    assert [a.kinds for a in merged] == [("recommended", "bold")]
    # "Simplest" says other lines, and fewer sentences: offered.
    offered = choice.distinct(
        run, [offer(("recommended",), plan, 0.55), offer(("simplest",), other, 0.52)]
    )
    assert [a.kinds for a in offered] == [("recommended",), ("simplest",)]
    # More than SIMPLEST_WITHIN behind with slips, or no simpler: not offered.
    assert (
        len(
            choice.distinct(
                run, [offer(("recommended",), plan, 0.55), offer(("simplest",), other, 0.49)]
            )
        )
        == 1
    )
    assert (
        len(
            choice.distinct(
                run, [offer(("recommended",), other, 0.55), offer(("simplest",), plan, 0.55)]
            )
        )
        == 1
    )
    # "Bold" only where it passes more deals clean than the plan recommended after the
    # final checks (it was chosen before them, on the choice's deals).
    bold = replace(offer(("bold",), other, 0.5), pass_rate=0.6)
    offered = choice.distinct(run, [offer(("recommended",), plan, 0.55), bold])
    assert [a.kinds for a in offered] == [("recommended", "bold")]
    bolder = replace(bold, pass_rate=0.61)
    offered = choice.distinct(run, [offer(("recommended",), plan, 0.55), bolder])
    assert [a.kinds for a in offered] == [("recommended",), ("bold",)]
    # Nor where it passes under half of what a recommended plan that passes few deals does.
    low = [offer(("recommended",), plan, 0.02), offer(("simplest",), other, 0.009)]
    assert [a.kinds for a in choice.distinct(run, low)] == [("recommended",)]
    # The recommended plan is never called the simplest.
    assert choice.distinct(run, [offer(("recommended", "simplest"), plan, 0.55)])[0].kinds == (
        "recommended",
    )


def test_the_two_player_prior_keeps_big_cards_off_the_low_segments() -> None:
    seats = parse_colours("SSMM+SM/SMMM+SS")
    plan = genes.PRIORS[2].plan(CLOCK, seats)
    assert plan.bands == {1: (1, 7), 2: (1, 7), 3: (1, 7)}
    speech = plan_speech(plan, CLOCK, seats, 2)
    assert "On segments 1, 2 and 3, play cards from 1 to 7 when you can." in speech.details
    # Said more simply, the band goes; plans without one never grow one by mutation.
    assert all(not g.plan(CLOCK, seats).bands for g in choice.simpler(genes.PRIORS[2])[::2])
    rng = np.random.default_rng(0)
    child = genes.mutate(rng, genes.h_genes(), CLOCK, 2, 1.0)
    assert child.low_ceiling == 0.0


def test_the_last_pile_may_take_smaller_cards_than_the_others() -> None:
    seats = parse_colours("SSMM/SMSM/MMSS")
    piles = replace(genes.h_genes(), pile_floor=11.0)
    assert piles.plan(CLOCK, seats).bands == dict.fromkeys((4, 5, 6), (11, 12))
    lower = replace(piles, top_offset=-1.0)
    assert lower.plan(CLOCK, seats).bands == {4: (11, 12), 5: (11, 12), 6: (10, 12)}
    details = plan_speech(lower.plan(CLOCK, seats), CLOCK, seats, 3).details
    assert "On segments 4 and 5, play cards of 11 or more when you can." in details
    assert "On segment 6, play cards of 10 or more when you can." in details
    # Whole cards, from 2 to 12; without a band on the piles there is no floor to offset.
    assert replace(piles, top_offset=3.0).plan(CLOCK, seats).bands[6] == (12, 12)
    assert replace(piles, pile_floor=3.0, top_offset=-4.0).plan(CLOCK, seats).bands[6] == (2, 12)
    assert not replace(lower, pile_floor=0.0).plan(CLOCK, seats).bands
    assert "top_offset" in {name for name, _ in genes.coordinates(lower)}
    # Mutations carry it as it is, drawing the same numbers as before it existed.
    child = genes.mutate(np.random.default_rng(0), lower, CLOCK, 3, 1.0)
    twin = genes.mutate(np.random.default_rng(0), piles, CLOCK, 3, 1.0)
    assert child.top_offset == -1.0 and replace(child, top_offset=0.0) == twin


def test_a_fine_tuning_step_moves_one_gene_within_bounds_and_keeps_the_structure() -> None:
    parent = genes.PRIORS[2]  # with a low ceiling; no pile band, no lone segment
    names = [name for name, _ in genes.coordinates(parent)]
    assert "low_ceiling" in names and "opener" not in names
    assert not {"pile_floor", "top_offset", "band_weight", "lone_floor"} & set(names)
    banded = genes.PRIORS[3]
    assert {"pile_floor", "top_offset", "band_weight"} <= {
        name for name, _ in genes.coordinates(banded)
    }

    def flat(g: genes.Genes) -> dict[str, Any]:
        return {**dict(zip(genes.ENDS, (*g.low, *g.high), strict=True)), **vars(g)}

    for g in (parent, banded):
        for name, size in genes.coordinates(g):
            for delta in (size, -size, 40.0, -40.0):
                child = genes.moved(g, name, delta, CLOCK)
                changed = {
                    k
                    for k, v in flat(g).items()
                    if k not in ("low", "high") and flat(child)[k] != v
                }
                # Only that gene, or ends after the one moved, pushed up to keep them rising.
                later = set(genes.ENDS[genes.ENDS.index(name) :]) if name in genes.ENDS else {name}
                assert changed <= later, (name, delta, changed)
                assert child.low[0] <= child.low[1] <= child.high[0] <= child.high[1] <= 24
                assert 1 <= child.low[0] <= 12 and 2 <= child.split <= 5
                assert 0 <= child.need_weight <= 1 and 0.5 <= child.face_up_threshold <= 8
                assert math.exp(-4) <= child.order_weight <= math.exp(2)
                # A step never takes a band away: that is a structure, the screen's choice.
                assert bool(child.plan(CLOCK, THREE).bands) == bool(g.plan(CLOCK, THREE).bands)
                assert child.opener == g.opener and child.owned == g.owned
    assert genes.moved(parent, "split", 0.5, CLOCK) == parent  # whole steps only
    assert genes.moved(parent, "split", 1.0, CLOCK).split == parent.split + 1
    assert genes.moved(banded, "order_weight", math.log(2), CLOCK).order_weight == pytest.approx(
        2 * banded.order_weight
    )


class _Terrain:
    """A stand-in for the search's run whose "deals passed" peak at a known point."""

    def __init__(self, steps: int) -> None:
        self.clock = CLOCK
        self.schedule = replace(search_run._schedule(QUICK, True), climb=(steps, 1000))
        self.played = 0

    def common(self, games: int, seed: int) -> tuple[None, None]:
        return None, None

    def plan(self, g: genes.Genes) -> Plan:
        return g.plan(CLOCK, THREE)  # rounded as a plan is said: tiny steps change nothing

    def tell(self, stage: Stage) -> None:
        pass

    def passes(self, plan: Plan, values: None, slips: None, stage: Stage) -> int:
        self.played += 1
        return 1000 - round(100 * abs(plan.face_up_threshold - 3.3) + 80 * abs(plan.open_bonus - 1))


def test_fine_tuning_keeps_only_steps_that_pass_more_and_ends_where_its_deals_say() -> None:
    start = genes.h_genes()  # threshold 3.0, opening bonus 2.0
    terrain = _Terrain(steps=1000)
    top = search._climb(terrain, 0, start)  # type: ignore[arg-type]
    assert top.face_up_threshold == pytest.approx(3.3, abs=0.02)
    assert top.open_bonus == pytest.approx(1.0, abs=0.02)
    # Nothing else pays on this terrain, so nothing else moved; and it stopped by itself
    # once its steps were too small to change a deal.
    assert replace(top, face_up_threshold=3.0, open_bonus=2.0) == start
    assert terrain.played < 1000
    # A budget of steps is kept to, and a climb cut short still only kept what paid.
    short = _Terrain(steps=4)
    cut = search._climb(short, 0, start)  # type: ignore[arg-type]
    assert short.played == 5  # the leader, then four steps
    stage = Stage("fine-tuning")
    assert short.passes(short.plan(cut), None, None, stage) >= short.passes(
        short.plan(start), None, None, stage
    )


def test_fine_tuning_on_real_deals_is_the_same_for_every_seed_from_one_leader() -> None:
    run = search_run.Run(CLOCK, THREE, 3, QUICK, None, False, None, 0.05)
    leader = genes.PRIORS[3]
    top = search._climb(run, 5, leader)
    assert search._climb(run, 5, leader) == top
    values, slips = run.common(run.schedule.climb[1], search_run.seed_for(5, search_run.SEARCH, 99))
    stage = Stage("fine-tuning")
    assert run.passes(run.plan(top), values, slips, stage) >= run.passes(
        run.plan(leader), values, slips, stage
    )


def test_the_prior_opens_with_the_seat_that_opens_best_at_this_table(
    no_twelve_clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = replace(genes.prior_for(3), need_weight=0.5)  # a clock's own prior, say

    def run() -> search_run.Run:
        return search_run.Run(CLOCK, THREE, 3, QUICK, None, False, None, 0.0, own)

    prior = run().prior
    assert prior == own
    # On real deals, with slips at the hint's default rate even for a clean search: the seat
    # whose plan passes most of the same deals and slips, for every seed.
    real = run()
    real.open_best()
    games = search_run.OPENER_DEALS * real.schedule.choice
    stream = search_run.seed_for(0, search_run.OPENERS)
    values, slips = draw_values(THREE, games, stream), draw_slips(games, stream)
    plans = {seat: replace(prior, opener=seat).plan(CLOCK, THREE) for seat in (1, 2, 3)}
    passed = {
        seat: pass_count(CLOCK, THREE, plan, 3, values, "auto", 0.05, slips)
        for seat, plan in plans.items()
    }
    assert passed[real.prior.opener] == max(passed.values())
    assert real.prior == replace(prior, opener=real.prior.opener)

    def seat_3_best(clock: Clock, seats: Seats, plan: Plan, *args: Any) -> int:
        return 9 if plan.opener == 3 else 8

    monkeypatch.setattr(search_run, "pass_count", seat_3_best)
    favoured = run()
    favoured.open_best()
    assert favoured.prior == replace(prior, opener=3)
    monkeypatch.setattr(search_run, "pass_count", lambda *args: 100)
    tied = run()
    tied.open_best()
    assert tied.prior == prior  # a tie keeps the prior's own seat
    # Only a clock's own prior: the table size's is kept as it is.
    monkeypatch.setattr(search_run, "pass_count", seat_3_best)
    table_size = search_run.Run(CLOCK, THREE, 3, QUICK, None, False, None, 0.0)
    table_size.open_best()
    assert table_size.prior == genes.prior_for(3)
    # The reference engine's token search keeps the prior as it is.
    seats = parse_colours("SSMM/SMMM/SSMM")
    slow = search_run.Run(no_twelve_clock, seats, 3, QUICK, None, False, None, 0.05, own)
    slow.open_best()
    assert slow.prior == own
