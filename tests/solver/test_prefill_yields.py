"""A running prefill slice gives way within one progress report of the search: to a
table's hint, and to the worker's shutdown (``make run`` / ``make serve`` stopping it with
SIGTERM, Ctrl-C). It stores no partial entry, and the next slice does that pattern again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from celery.signals import worker_shutting_down
from django.contrib.auth.models import User

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.game import PLAYER_COUNTS
from rules.seats import Seats
from solver import clock_priors, prefill, tasks
from solver.core import version
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.models import ClockPrior, HintRequest, PlanBookEntry

pytestmark = pytest.mark.django_db
REPORTS = 1000  # a long search: this many progress reports before it ends


def _hint_asked(user: User) -> None:
    HintRequest.objects.create(
        user=user,
        clock_id="1-1",
        clock_definition=get_clock("1-1").to_json(),
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        input_hash="x" * 64,
    )


def _worker_told_to_stop(user: User) -> None:
    # What Celery's SIGTERM / SIGINT handler sends in the worker's main process.
    worker_shutting_down.send(sender="celery@here", sig="SIGTERM", how="Warm", exitcode=0)


@dataclass
class LongSearch:
    searched: list[str] = field(default_factory=list)  # the patterns it was asked for
    arrives: Callable[[], None] = lambda: None  # what happens at its fourth report


@pytest.fixture
def long_search(monkeypatch: pytest.MonkeyPatch, settings: Any) -> LongSearch:
    """The prefill's search replaced by one that reports progress REPORTS times, then ends
    with a plan; 1-1's priors stored, so the slice starts with its first pattern. Flag
    files of the test's own."""
    settings.PLAN_BOOK_PREFILL = True
    monkeypatch.setattr(tasks, "_stopping_flag", lambda pid: settings.VAR_DIR / f"t-{pid}.flag")
    solved = clock_priors.planned(get_clock("1-1"), False)
    for n in PLAYER_COUNTS:
        ClockPrior.objects.create(
            key=clock_priors.prior_key(solved, n),
            engine_version=version.ENGINE_VERSION,
            search_version=version.SEARCH_VERSION,
            clock_id="1-1",
            players=n,
            complete=True,
        )
    fake = LongSearch()

    def search(clock: Clock, seats: Seats, face_up: int, **kwargs: Any) -> HintResult:
        fake.searched.append(seats.format())
        for percent in range(REPORTS):
            kwargs["progress"](percent * 100 // REPORTS, None, None)
            if percent == 3:
                fake.arrives()
        return HintResult(
            plan=baseline_plan(clock, seats, face_up),
            pass_rate=0.5,
            interval=(0.45, 0.55),
            baseline_rate=0.3,
            odds=0.9,
            games=1000,
            words={},
            partial=False,
        )

    monkeypatch.setattr(prefill, "recommend", search)
    return fake


@pytest.mark.parametrize(
    ("arrival", "stopped"),
    [(_hint_asked, "a hint is waiting"), (_worker_told_to_stop, "the worker is stopping")],
)
def test_a_running_slice_stops_at_the_next_progress_report(
    long_search: LongSearch,
    alice: User,
    arrival: Callable[[User], None],
    stopped: str,
) -> None:
    long_search.arrives = lambda: arrival(alice)
    assert tasks.prefill_plan_book() == {"computed": 0, "stopped": stopped}
    assert len(long_search.searched) == 1 and not PlanBookEntry.objects.exists()
    # The pattern it dropped is the next slice's first.
    HintRequest.objects.all().delete()
    tasks._clear_stopping()
    first = next(prefill.steps(prefill.settings_now()))
    assert first.args[0].pattern.colours == long_search.searched[0]  # type: ignore[attr-defined]
