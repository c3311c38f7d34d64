"""Shared by the hint tests that need no worker: a broker that only records what it was
sent, a way to ask for a hint, and a solver result to store without running the solver."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign
from campaigns.play.services import record_attempt, skip
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.kinds.base import RULE_KINDS, Resolution, Rule, Segment, register
from rules.seats import parse_colours
from solver import prefill, services
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.hint_inputs import parse_input
from solver.jobs import RUN_HINT
from solver.models import HintRequest


def a_result(partial: bool = False, rate: float = 0.6) -> HintResult:
    clock, seats = get_clock("1-1"), parse_colours("SSM/MMS/SMM/SSM")
    return HintResult(
        plan=baseline_plan(clock, seats, 4),
        pass_rate=rate,
        interval=(rate - 0.05, rate + 0.05),
        baseline_rate=0.4,
        odds=0.9,
        games=1000,
        words={"en": "Aim high.", "nl": "Mik hoog.", "ja": "高く。"},
        partial=partial,
    )


@pytest.fixture
def fake_result() -> Callable[..., HintResult]:
    """fake_result(partial=False, rate=0.6): a solver result for 1-1 with four players."""
    return a_result


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Jobs 'sent' to the broker (no broker involved): the ids, in order."""
    ids: list[int] = []

    def send_task(name: str, args: tuple[int], **kwargs: Any) -> None:
        assert name == RUN_HINT
        ids.append(args[0])

    monkeypatch.setattr("solver.jobs.app.send_task", send_task)
    return ids


@pytest.fixture
def commit_at_once(sent: list[int], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Jobs go to ``sent`` as soon as they are asked for: the test's transaction never
    commits, so on_commit callbacks run at once (the order of events is tested in
    test_services.py). Modules use it with ``pytest.mark.usefixtures("commit_at_once")``."""
    monkeypatch.setattr("solver.services.transaction.on_commit", lambda func, **kw: func())
    return sent


@pytest.fixture
def ask(
    sent: list[int], django_capture_on_commit_callbacks: Any
) -> Callable[..., tuple[HintRequest, bool]]:
    """ask(user, clock="1-1", colours=..., face_up=None) → (row, created), after commit."""

    def _ask(
        user: User, clock: Any = "1-1", colours: str = "SSM/MMS/SMM/SSM", face_up: Any = None
    ) -> tuple[HintRequest, bool]:
        with django_capture_on_commit_callbacks(execute=True):
            hint_input = parse_input(clock, colours, face_up)
            return services.request_hint(user, hint_input, lang="nl")

    return _ask


# --- A rule kind only the reference engine plays -------------------------------------------


@dataclass(frozen=True, slots=True)
class _NoTwelve(Rule):
    """A rule kind the simulated players and the compiled engine have never heard of (every
    kind Timekeeper ships is played by the compiled engine): clocks with it fall back to the
    reference engine."""

    kind = "test_no_twelve"
    wording = {"en": "No 12 on segment {segment}.", "nl": "Geen 12.", "ja": "12なし。"}

    segment: Segment

    def holds(self, resolution: Resolution) -> bool:
        return all(c.value != 12 for c in resolution.layout.segments[self.segment - 1])

    def explain(self, resolution: Resolution, lang: str) -> str:
        return "A 12 on the segment."

    def label(self) -> str:
        return "≠12"


@pytest.fixture
def no_twelve() -> Iterator[str]:
    """Registers the kind ``test_no_twelve`` ({"segment": n}) for the test; yields its name."""
    register(_NoTwelve)
    try:
        yield _NoTwelve.kind
    finally:
        del RULE_KINDS[_NoTwelve.kind]


@pytest.fixture
def no_twelve_clock(no_twelve: str) -> Clock:
    return Clock("4-1", 4, 1, rules=(_NoTwelve(6),))


@pytest.fixture
def skipped_first(campaign: Campaign, alice: User) -> Campaign:
    """A group of three that failed 1-1 and put it in the Sleeve: 1-2 is on top."""
    record_attempt(campaign, alice, "1-1", "failed", 3)
    skip(campaign, alice, "1-1")
    return campaign


def named_steps(
    steps: Iterator[prefill.Step], most: int, with_rate: bool = False
) -> list[tuple[Any, ...]]:
    """The first ``most`` prefill steps, each named by what it would do (none is run), runs
    of the same name folded into one: ("refresh", entry), ("prior", clock, players) or
    ("pattern", clock, players, face-up[, slip rate])."""
    names: list[tuple[Any, ...]] = []
    for step in islice(steps, most):
        assert isinstance(step, partial)
        if step.func is prefill._refresh_step:
            name: tuple[Any, ...] = ("refresh", step.args[0])
        elif step.func is prefill._prior_step:
            game, players = step.args
            name = ("prior", game.clock.id, players)
        else:
            item, settings = step.args
            name = ("pattern", item.game.clock.id, item.players, item.face_up)
            if with_rate:
                name = (*name, settings["slip_rate"])
        if not names or names[-1] != name:
            names.append(name)
    return names
