"""What a hint returns: the plan, the alternatives it offers, and the stages a search reports.

Data, not words: whoever shows a result words it in the reader's language (``words`` holds
the plan's words in every language).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from rules import hint_result as result_type
from rules.clock import Clock
from rules.hint_result import AlternativeJson, HintResultJson, PlanJson, rounded
from rules.seats import Seats
from solver.core.table.plans import Plan
from solver.core.words import plan_speech


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

    def to_json(self, lang: str = "en") -> AlternativeJson:
        return {
            "kinds": list(self.kinds),
            "plan": cast(PlanJson, self.plan.to_json()),
            "pass_rate": round(self.pass_rate, 4),
            "interval": rounded(self.interval),
            "pass_rate_with_slips": round(self.pass_rate_with_slips, 4),
            "interval_with_slips": rounded(self.interval_with_slips),
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

    def to_json(self, lang: str = "en") -> HintResultJson:
        """The ``hint --json`` object (docs/api.md), built by the one result type."""
        return result_type.build(
            plan=cast(PlanJson, self.plan.to_json()),
            pass_rate=self.pass_rate,
            interval=self.interval,
            baseline_rate=self.baseline_rate,
            odds=self.odds,
            games=self.games,
            words=self.words[lang],
            slip_rate=self.slip_rate,
            pass_rate_with_slips=self.pass_rate_with_slips,
            interval_with_slips=self.interval_with_slips,
            alternatives=[a.to_json(lang) for a in self.alternatives],
        )
