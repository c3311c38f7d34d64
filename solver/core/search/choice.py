"""The choice among measured plans: which fills each role (recommended, simplest, bold),
"never worse than the clean search", and which plans are offered (distinct aloud)."""

from __future__ import annotations

from dataclasses import replace

from solver.core.table.plans import Plan
from solver.core.table.simulate import wilson
from solver.core.words import plan_speech

from .genes import Genes
from .hint_result import Alternative, plan_size
from .search_run import Measured, Run, simplest_floor

KINDS = ("recommended", "simplest", "bold")


SIMPLER_WORDS = 0.8  # "simplest" says fewer sentences, or at most this share of the words


def distinct(run: Run, alternatives: list[Alternative]) -> list[Alternative]:
    """The plans to offer, recommended first: plans that say the same lines aloud are
    offered once (the first, with the kinds of all), "simplest" only where it is simpler
    aloud than the recommended plan (fewer sentences, or at most SIMPLER_WORDS of the
    words) and at or above ``search_run.simplest_floor`` with slips (within SIMPLEST_WITHIN
    of its rate, and at least half of it), and "bold" only where its clean rate is higher
    than the recommended plan's (else the recommended plan is the bold one too)."""
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
    first_is_bold = False
    for other in offered:
        if "simplest" in other.kinds and not (
            other is not first
            and (
                other.sentences < first.sentences
                or other.word_count <= SIMPLER_WORDS * first.word_count
            )
            and other.pass_rate_with_slips >= simplest_floor(first.pass_rate_with_slips)
        ):
            other = replace(other, kinds=tuple(k for k in other.kinds if k != "simplest"))
        if "bold" in other.kinds and other is not first and other.pass_rate <= first.pass_rate:
            # Chosen on the choice's deals; the final checks may recommend another plan that
            # passes as many fresh deals clean: that one is then the bold one too.
            other = replace(other, kinds=tuple(k for k in other.kinds if k != "bold"))
            first_is_bold = True
        if other.kinds:
            out.append(other)
    if first_is_bold and out and out[0].plan == first.plan:
        out[0] = replace(out[0], kinds=tuple(k for k in KINDS if k in {*out[0].kinds, "bold"}))
    return out


NEVER_WORSE_CLEAN = 0.02  # the clean rate may be this much lower for more than it with slips
# The lead with slips a plan needs over the clean search's pick to replace it: about one and
# a half standard errors of the difference between two plans on a hint's 12,500 fresh deals.
# A smaller lead is too often luck of the deals. Below 0.004, a plan came out 0.006 below the
# pick on other deals ("min_cards 3 on 4", seed 3); with the fine-tuning's coordinate steps,
# one that led by 0.0042 came out 0.006 below it ("2 Moons on 2 + value_range 14-18 on 5",
# seed 1). In both cases the pick is kept now.
NEVER_WORSE_LEAD = 0.006


def never_worse(
    mine: tuple[int, int], clean: tuple[int, int], games: int, lead: float = NEVER_WORSE_LEAD
) -> bool:
    """Whether a plan passing ``mine`` (clean, with slips) of ``games`` fresh deals may be
    recommended over the clean search's pick passing ``clean`` on the same deals and slips:
    ``lead`` (NEVER_WORSE_LEAD) more passes with slips at least, and clean at most
    NEVER_WORSE_CLEAN lower unless its rate with slips is higher by more than that."""
    margin = NEVER_WORSE_CLEAN * games
    if mine[1] < clean[1] + lead * games:
        return False
    return mine[0] >= clean[0] - margin or mine[1] > clean[1] + margin


def measure(run: Run, plan: Plan) -> Measured:
    """A plan's entry for :func:`alternative` (its search rates are not used there)."""
    return plan, 0.0, 0.0, plan_size(plan, run.clock, run.seats, run.face_up)[0], run.words(plan)


def alternative(
    run: Run, kinds: tuple[str, ...], entry: Measured, won: tuple[int, int], n: int
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


def promote(alternatives: list[Alternative], chosen: Alternative) -> list[Alternative]:
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


def simpler(genes: Genes) -> list[Genes]:
    """Versions of a plan with less to say: no value band, no "open every segment" rule,
    neither."""
    return [
        replace(genes, pile_floor=0.0, low_ceiling=0.0),
        replace(genes, open_bonus=min(genes.open_bonus, 1.0)),
        replace(genes, pile_floor=0.0, low_ceiling=0.0, open_bonus=min(genes.open_bonus, 1.0)),
    ]


def simplest(run: Run, measured: list[Measured], recommended: int) -> int:
    """The plan for the "simplest" role: at or above ``simplest_floor`` of the recommended
    plan's rate with slips, other lines aloud, and simpler (see :func:`distinct`); the fewest
    sentences, then words, then the best rate with slips. The recommended one if none is."""

    def said(plan: Plan) -> tuple[tuple[str, ...], int]:
        speech = plan_speech(plan, run.clock, run.seats, run.face_up, "en")
        return speech.lines, len(" ".join((*speech.lines, *speech.details)).split())

    lines, words = said(measured[recommended][0])
    floor = simplest_floor(measured[recommended][2])
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


def roles(measured: list[tuple[Plan, float, float, int, dict[str, str]]]) -> dict[str, int]:
    """Which measured plan fills each role (index into ``measured``; earlier wins ties)."""
    indices = range(len(measured))
    recommended = max(indices, key=lambda i: (measured[i][2], measured[i][1], -i))
    bold = max(indices, key=lambda i: (measured[i][1], measured[i][2], -i))
    floor = simplest_floor(measured[recommended][2])
    simplest = min(
        (i for i in indices if measured[i][2] >= floor),
        key=lambda i: (measured[i][3], -measured[i][2], i),
    )
    return {"recommended": recommended, "simplest": simplest, "bold": bold}
