"""The plan book: prefilled answers a later hint takes at once, worded for its own table;
resuming a stopped prefill; the solver's version retiring old entries; the prefill giving
way to a table's hint; the command's bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import Seats, parse_colours
from solver import prefill, services
from solver.core import version
from solver.core.search.search import HintResult
from solver.core.search.symmetry import class_count, pattern_classes
from solver.core.table.plans import baseline_plan
from solver.hint_inputs import parse_input
from solver.models import ClockPrior, HintRequest, PlanBookEntry

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
Status = HintRequest.Status


def _most_suns(seats: Seats) -> int:
    """The first seat (1-based) holding the most Suns: where the fake plans open."""
    counts = [seat.suns for seat in seats.seats]
    return counts.index(max(counts)) + 1


@pytest.fixture
def prefill_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The prefill's solver replaced by a quick fake whose plan opens at the seat with the
    most Suns; returns the patterns it was asked to solve, in order."""
    calls: list[str] = []

    def fake(clock: Clock, seats: Seats, face_up: int, **kwargs: Any) -> HintResult:
        calls.append(seats.format())
        progress = kwargs.get("progress")
        if progress is not None:
            progress(50, None, None)
        plan = baseline_plan(clock, seats, face_up).with_(opener=_most_suns(seats))
        return HintResult(
            plan=plan,
            pass_rate=0.5,
            interval=(0.45, 0.55),
            baseline_rate=0.3,
            odds=0.9,
            games=1000,
            words={"en": "Stored words.", "nl": "Opgeslagen.", "ja": "保存。"},
            partial=False,
        )

    monkeypatch.setattr(prefill, "recommend", fake)
    return calls


def _ask(user: User, colours: str, names: list[str] | None = None) -> HintRequest:
    hint_input = parse_input("1-1", colours, 3, names=names)
    return services.request_hint(user, hint_input, lang="en")[0]


def test_prefilled_patterns_answer_a_later_hint_worded_for_its_table(
    prefill_calls: list[str], alice: User, sent: list[int]
) -> None:
    call_command("prefill_plans", "--clock", "1-1", "--players", "3", "--face-up", "3")
    # 1-1 has a Sun rule: hand order and rotation only, 45 classes, each solved once.
    assert len(prefill_calls) == len(set(prefill_calls)) == class_count(3) == 45
    assert PlanBookEntry.objects.filter(source="prefill").count() == 45
    # A table seated another way round, hands in another order, than any pattern solved.
    colours = "MSMM/SSMS/MMMM"
    assert colours not in prefill_calls
    hint = _ask(alice, colours, names=["Yves", "Zoe", "Xia"])
    assert (hint.status, hint.from_plan_book, sent) == (Status.DONE, True, [])
    assert hint.result is not None
    # The plan's opener is renumbered onto this table: the seat with the most Suns (Zoe).
    assert hint.result["plan"]["opener"] == 2 == _most_suns(parse_colours(colours))
    data = hint.result_for("en")
    assert data is not None and "Zoe" in data["words"] and "Stored words." not in data["words"]


def test_a_prefilled_entry_is_the_result_a_hint_job_would_store(
    settings: Any, alice: User, sent: list[int]
) -> None:
    # The real solver, small: the entry holds what a job stores, and a hint takes it as is.
    settings.HINT_EFFORT = 0.1
    settings.HINT_ODDS_SAMPLES = 100
    game = prefill.Game(get_clock("1-1"), False, "1-1")
    settings_now = prefill.settings_now()
    item = next(prefill.items(game, [3], [3], settings_now))
    entry = prefill.compute(item, settings_now)
    assert set(entry.result) >= {"plan", "pass_rate", "interval", "odds", "words_all", "partial"}
    hint = _ask(alice, item.pattern.colours)
    assert hint.from_plan_book and sent == []
    assert hint.result is not None and hint.result["plan"] == entry.result["plan"]
    assert hint.result["pass_rate"] == entry.result["pass_rate"]


def test_a_stopped_prefill_resumes_where_it_stopped(
    prefill_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = prefill.compute
    count = [0]

    def stops_after_five(*args: Any, **kwargs: Any) -> PlanBookEntry:
        if count[0] == 5:
            raise KeyboardInterrupt
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(prefill, "compute", stops_after_five)
    with pytest.raises(KeyboardInterrupt):
        call_command("prefill_plans", "--clock", "2-1", "--players", "4", "--face-up", "4")
    assert PlanBookEntry.objects.count() == 5
    monkeypatch.setattr(prefill, "compute", real)
    call_command("prefill_plans", "--clock", "2-1", "--players", "4", "--face-up", "4")
    # The base rules treat both colours alike: the swap too, 38 classes for 4 players.
    assert PlanBookEntry.objects.count() == class_count(4, True) == 38
    assert len(prefill_calls) == len(set(prefill_calls)) == 38  # nothing computed twice
    # Most often dealt first.
    assert prefill_calls[:5] == [c.colours for c in pattern_classes(4, True)[:5]]


def test_a_new_engine_version_retires_every_old_answer(
    prefill_calls: list[str],
    alice: User,
    bob: User,
    sent: list[int],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    call_command("prefill_plans", "--clock", "1-1", "--players", "3", "--face-up", "3")
    assert _ask(alice, "SSMM/MMSS/SMSM").from_plan_book
    monkeypatch.setattr(version, "ENGINE_VERSION", version.ENGINE_VERSION + 1)
    with django_capture_on_commit_callbacks(execute=True):
        again = _ask(bob, "SSMM/MMSS/SMSM")
    # Neither the book nor the finished hint of the old engine answers: a job is queued.
    assert (again.status, again.from_plan_book) == (Status.QUEUED, False)
    assert sent == [again.pk]
    # Nor does the prefill refresh them: it fills the book anew.
    assert not prefill.stale_entries().exists()


def test_after_a_new_search_version_the_old_entries_answer_and_are_refreshed(
    prefill_calls: list[str],
    alice: User,
    bob: User,
    sent: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2-1 is played by the base rules: no clock prior to compute first.
    call_command("prefill_plans", "--clock", "2-1", "--players", "4", "--face-up", "4")
    old = version.SEARCH_VERSION
    monkeypatch.setattr(version, "SEARCH_VERSION", old + 1)
    prefill_calls.clear()
    # The plan of the older search answers at once, and counts as asked.
    for user in (alice, bob):
        hint_input = parse_input("2-1", "SSM/MMS/SMS/MMS", 4)
        hint = services.request_hint(user, hint_input, lang="en")[0]
        assert (hint.status, hint.from_plan_book, sent) == (Status.DONE, True, [])
    asked = PlanBookEntry.objects.get(asked=2)
    assert prefill.stale_entries().count() == 38
    # The prefill searches the stale entries again first, the most asked first, in place.
    first = next(prefill.steps(prefill.settings_now()))
    assert first(lambda: False) is True
    asked.refresh_from_db()
    assert (asked.search_version, prefill_calls) == (old + 1, [asked.colours])
    assert prefill.stale_entries().count() == 37
    assert PlanBookEntry.objects.count() == 38  # nothing added: the same keys


def test_the_prefill_gives_way_to_a_table_hint(prefill_calls: list[str], alice: User) -> None:
    # A hint waiting: the slice computes nothing at all.
    HintRequest.objects.create(
        user=alice,
        clock_id="1-1",
        clock_definition=get_clock("1-1").to_json(),
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        input_hash="x" * 64,
    )
    assert prefill.prefill_slice(seconds=60) == {"computed": 0, "stopped": "a hint is waiting"}
    assert prefill_calls == [] and not PlanBookEntry.objects.exists()
    HintRequest.objects.all().delete()
    # A hint arriving while the first clock's own prior is being computed (1-1 has special
    # rules: solver.clock_priors), then while a pattern is: the search is dropped at its next
    # progress report, nothing is stored, and the slice ends.
    arrived = iter([False, True])
    stopped = prefill.prefill_slice(seconds=60, busy=lambda: next(arrived, True))
    assert stopped == {"computed": 0, "stopped": "a hint is waiting"}
    assert prefill_calls == [] and not ClockPrior.objects.filter(complete=True).exists()
    for n in (2, 3, 4):
        prefill.compute_prior(prefill.shipped_games()[0], n)
    arrived = iter([False, True])
    stopped = prefill.prefill_slice(seconds=60, busy=lambda: next(arrived, True))
    assert stopped == {"computed": 0, "stopped": "a hint is waiting"}
    assert len(prefill_calls) == 1 and not PlanBookEntry.objects.exists()
    # Nobody waiting: it fills the book for a while.
    done = prefill.prefill_slice(seconds=0.5, busy=lambda: False)
    assert done["computed"] >= 1 and PlanBookEntry.objects.count() == done["computed"]


@pytest.mark.slow  # a Django process per case
@pytest.mark.parametrize(
    "arguments",
    [
        ["--clock", "12-9"],
        ["--clock", "1-1", "--players", "5"],
        ["--clock", "1-1", "--players", "3", "--face-up", "7"],
        ["--clock", "1-1", "--face-up", "-1"],
        ["--clock", "1-1", "--face-up", "many"],
        [],
    ],
)
def test_bad_command_input_exits_2(arguments: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "prefill_plans", *arguments],
        cwd=ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() and "Traceback" not in done.stderr


def test_asking_answers_from_the_book_without_a_job(
    prefill_calls: list[str],
    ask: Callable[..., tuple[HintRequest, bool]],
    alice: User,
    sent: list[int],
) -> None:
    call_command("prefill_plans", "--clock", "1-1", "--players", "4", "--face-up", "4")
    hint, created = ask(alice)  # 1-1, SSM/MMS/SMM/SSM, face-up 4, in Dutch
    assert created and hint.from_plan_book and hint.status == Status.DONE and sent == []
    assert hint.result is not None and hint.result["words"] == hint.result["words_all"]["nl"]


def test_the_page_and_the_api_say_how_the_hint_was_answered(
    prefill_calls: list[str], alice: User, login: Callable[[User], Any]
) -> None:
    call_command("prefill_plans", "--clock", "1-1", "--players", "3", "--face-up", "3")
    booked = _ask(alice, "SSMM/MMSS/SMSM")
    computed = HintRequest.objects.create(
        user=alice,
        clock_id="1-1",
        clock_definition=get_clock("1-1").to_json(),
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        input_hash="y" * 64,
        status=Status.DONE,
        result=booked.result,
    )
    client = login(alice)
    page = client.get(f"/hints/{booked.pk}/").content.decode()
    assert "From the plan book" in page and "Computed now" not in page
    assert "Computed now for your table." in client.get(f"/hints/{computed.pk}/").content.decode()
    client.cookies["django_language"] = "nl"
    assert "Uit het plannenboek" in client.get(f"/hints/{booked.pk}/").content.decode()
    client.cookies["django_language"] = "ja"
    assert "今計算しました" in client.get(f"/hints/{computed.pk}/").content.decode()
    assert client.get(f"/api/hints/{booked.pk}/").json()["answered"] == "plan_book"
    assert client.get(f"/api/hints/{computed.pk}/").json()["answered"] == "computed"
    queued = HintRequest.objects.create(
        user=alice,
        clock_id="1-1",
        clock_definition=get_clock("1-1").to_json(),
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=4,
        input_hash="z" * 64,
    )
    assert client.get(f"/api/hints/{queued.pk}/").json()["answered"] is None


def test_the_beat_task_does_nothing_when_prefill_is_off(
    prefill_calls: list[str], settings: Any, alice: User
) -> None:
    from solver.tasks import prefill_plan_book

    settings.PLAN_BOOK_PREFILL = False
    assert prefill_plan_book()["computed"] == 0
    assert prefill_calls == [] and not PlanBookEntry.objects.exists()


def test_one_prefill_slice_at_a_time(
    prefill_calls: list[str], settings: Any, tmp_path: Path
) -> None:
    import fcntl

    from solver.tasks import prefill_plan_book

    settings.VAR_DIR = tmp_path
    with open(tmp_path / "plan-book-prefill.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a slice running in another process
        assert prefill_plan_book()["stopped"] == "another slice is running"
    assert prefill_calls == [] and not PlanBookEntry.objects.exists()
