"""Hints on a real Celery worker and the real broker (Redis in CI, the filesystem broker
locally): a job end to end, a double submit, reuse, a redelivered message, a worker killed
mid-job, and a broker that is down when the hint is asked for.

The solver runs for real at a small effort (HINT_EFFORT / HINT_ODDS_SAMPLES), so a job
takes a second or two once numba's cache is warm.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from config.celery import app as celery_app
from solver import jobs, services
from solver.core.search.search import Stage
from solver.hint_inputs import parse_input
from solver.models import HintRequest, PlanBookEntry
from solver.tasks import run_hint
from tests.conftest import use_broker
from tests.workers import running_worker

pytestmark = [pytest.mark.integration, pytest.mark.slow]
Status = HintRequest.Status
ROOT = Path(__file__).resolve().parents[2]
COLOURS = "SSMM/MMSS/SMSM"
THREE_PLAYERS = {"clock": "1-1", "players": 3, "face_up": 3, "colours": COLOURS}


@pytest.fixture(autouse=True)
def _small_solver(settings: Any) -> None:
    settings.HINT_EFFORT = 0.2
    settings.HINT_ODDS_SAMPLES = 200


def wait_for(predicate: Callable[[], bool], timeout: float = 120, every: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False


def ask(client: Client, **data: Any) -> HintRequest:
    response = client.post("/hints/new/", {**THREE_PLAYERS, **data})
    assert response.status_code == 302, response.content
    hint_id = int(response["Location"].rstrip("/").rsplit("/", 1)[1])
    return HintRequest.objects.get(pk=hint_id)


def finished(hint: HintRequest) -> bool:
    hint.refresh_from_db()
    return hint.status not in (Status.QUEUED, Status.RUNNING)


# --- (1) end to end ---------------------------------------------------------------------------


def test_a_hint_finishes_end_to_end_with_progress_rising_to_100(
    celery_worker: Any,
    alice: User,
    login: Callable[[User], Client],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every progress report is written, and each pauses the job a little, so a poller sees
    # the rows between 0 and 100 even when the (real) search is quick on a fast machine.
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0.0)
    real_recommend = jobs.recommend

    def recommend_paced(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        def report(percent: int, stage: Stage, so_far: Any) -> None:
            progress(percent, stage, so_far)
            time.sleep(0.05)

        kwargs["progress"] = report
        return real_recommend(*args, **kwargs)

    monkeypatch.setattr(jobs, "recommend", recommend_paced)
    client = login(alice)
    hint = ask(client)
    seen: list[int] = []

    def watch() -> bool:
        hint.refresh_from_db()
        if not seen or seen[-1] != hint.progress:
            seen.append(hint.progress)
        return hint.status not in (Status.QUEUED, Status.RUNNING)

    assert wait_for(watch, every=0.05)
    assert hint.status == Status.DONE, hint.error
    assert seen == sorted(seen), f"progress went backwards: {seen}"
    assert seen[-1] == 100
    assert any(0 < p < 100 for p in seen), f"no progress between 0 and 100: {seen}"
    assert hint.result is not None
    assert set(hint.result) >= {"plan", "pass_rate", "interval", "baseline_rate", "odds"}
    assert hint.started_at and hint.finished_at and hint.finished_at >= hint.started_at
    # The page the poll lands on shows the plan, the odds and the pass rate.
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert hint.result["words"].splitlines()[0][:30] in html
    assert "Odds if everyone could see every card" in html
    assert 'class="clock-face"' in html


# --- (4) double submit, (5) reuse ------------------------------------------------------------


def test_a_double_submit_runs_one_job(
    celery_worker: Any, alice: User, login: Callable[[User], Client]
) -> None:
    client = login(alice)
    first = ask(client, face_up=4)
    second = ask(client, face_up=4)
    assert first.pk == second.pk
    assert wait_for(lambda: finished(first))
    assert first.status == Status.DONE
    assert first.runs == 1
    assert HintRequest.objects.count() == 1


def test_the_same_input_within_a_day_reuses_the_finished_result(
    celery_worker: Any,
    alice: User,
    bob: User,
    login: Callable[[User], Client],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every message to the broker goes through the app's send_task: watch it.
    sent: list[Any] = []
    real_send = celery_app.send_task

    def send_task(*args: Any, **kwargs: Any) -> Any:
        sent.append(args)
        return real_send(*args, **kwargs)

    monkeypatch.setattr(celery_app, "send_task", send_task)
    first = ask(login(alice))
    assert wait_for(lambda: finished(first))
    assert len(sent) == 1  # the first asks the worker
    again = ask(login(bob))
    assert again.status == Status.DONE  # at once: no job
    assert len(sent) == 1  # the second sends nothing
    assert again.reused_from_id == first.pk
    assert again.runs == 0
    assert again.result is not None and first.result is not None
    assert again.result["plan"] == first.result["plan"]


def test_a_finished_job_answers_the_same_game_seated_another_way(
    celery_worker: Any, alice: User, bob: User, login: Callable[[User], Client]
) -> None:
    # The worker's job writes the plan book; a table seated one place round, each hand in
    # another order, is answered from it at once, the plan's seats renumbered onto it.
    first = ask(login(alice), colours="SSSM/MMSS/SMMM")
    assert wait_for(lambda: finished(first))
    assert first.status == Status.DONE and first.result is not None
    assert PlanBookEntry.objects.filter(hint=first, source="hint").count() == 1
    again = ask(login(bob), colours="SMSM/MMSM/MSSS")  # turned by one seat
    assert (again.status, again.from_plan_book, again.runs) == (Status.DONE, True, 0)
    assert again.result is not None
    opener = first.result["plan"]["opener"]
    assert again.result["plan"]["opener"] == (opener - 2) % 3 + 1
    assert again.result["pass_rate"] == first.result["pass_rate"]


# --- (2) a redelivered message, a killed worker ----------------------------------------------


def test_a_redelivered_message_finishes_a_job_whose_run_was_lost(
    transactional_db: None, alice: User
) -> None:
    """The task body twice for one id, as after a worker died mid-job: the dead run had
    claimed the row and written progress; the redelivered message takes over and finishes;
    a duplicate message (another task id) does nothing."""
    hint_input = parse_input("1-1", COLOURS, 3)
    hint, _ = services.request_hint(alice, hint_input)
    assert jobs.claim(hint.pk, "message-1") == 1
    HintRequest.objects.filter(pk=hint.pk).update(
        progress=40, stage="racing", stage_round=2, stage_of=4
    )
    jobs.run(hint.pk, "message-2")  # a duplicate: the row is not queued
    hint.refresh_from_db()
    assert (hint.status, hint.runs) == (Status.RUNNING, 1)
    jobs.run(hint.pk, "message-1", redelivered=True)
    hint.refresh_from_db()
    assert (hint.status, hint.runs, hint.progress) == (Status.DONE, 2, 100)


def _test_database_url() -> str | None:
    """A URL a worker subprocess can use to reach this test's database, or None
    (SQLite's test database lives in this process's memory)."""
    db = connection.settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        return None
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def spawn_worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """spawn_worker() → a `celery -A config worker` subprocess (prefork, one child) on the
    test database and the configured broker; spawn_worker(beat=True) → a `celery beat`
    instead. All are killed at the end."""
    url = _test_database_url()
    if url is None:
        pytest.skip("SQLite's test database is in memory: a worker process cannot reach it")
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[Any] = []

    def spawn(beat: bool = False, **extra_env: str) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "CELERY_BROKER_URL": celery_app.conf.broker_url,
            # These tests time the jobs against their limits with the other pytest worker
            # busy beside them: the pool runs at the test's priority, not SOLVER_NICE's.
            "SOLVER_NICE": "0",
            **extra_env,
        }
        log = open(tmp_path / f"worker{len(procs)}.log", "wb")  # noqa: SIM115
        logs.append(log)
        schedule = str(tmp_path / "beat-schedule")
        beat_args = ["beat", "--loglevel", "INFO", "--schedule", schedule]
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *beat_args]
            if beat
            else [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                "1",
                "--without-mingle",
                "--without-gossip",
                "--loglevel",
                "INFO",
                "-n",
                f"hints{len(procs)}@%h",
            ],  # fmt: skip
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        procs.append(proc)
        return proc

    yield spawn
    for proc in procs:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for log in logs:
        log.close()
    for path in sorted(tmp_path.glob("worker*.log")):
        print(path.name, path.read_text(errors="replace")[-3000:])


def _pool_child(worker: subprocess.Popen[bytes]) -> int:
    """The pid of the worker's pool process (its only child doing the work)."""
    out = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(worker.pid)], capture_output=True, text=True
    ).stdout.split()
    assert out, "the worker has no pool process"
    return int(out[0])


def _running_with_progress(hint: HintRequest) -> bool:
    hint.refresh_from_db()
    return hint.status == Status.RUNNING and hint.progress > 0


def _running_again(hint: HintRequest) -> bool:
    """The redelivered message has taken the row over (a second run)."""
    hint.refresh_from_db()
    return hint.status == Status.RUNNING and hint.runs == 2


@pytest.fixture
def hold(tmp_path: Path) -> Path:
    """A file that, named in a worker's HINT_HOLD_FILE, holds its hint jobs at their first
    progress report with a plan in hand until the test deletes it: a job is then running
    when the test kills it, and still running when a time limit strikes, on any machine."""
    path = tmp_path / "hold"
    path.touch()
    return path


def test_a_job_survives_its_pool_process_being_killed(
    transactional_db: None,
    alice: User,
    login: Callable[[User], Client],
    spawn_worker: Callable[..., subprocess.Popen[bytes]],
    hold: Path,
) -> None:
    """SIGKILL the process running the job: acks_late + reject_on_worker_lost requeue the
    message, the redelivery takes the row over and the job finishes."""
    worker = spawn_worker(HINT_HOLD_FILE=str(hold))
    hint = ask(login(alice))
    # Held with a plan in hand: the job cannot have finished when the signal lands.
    assert wait_for(lambda: _running_with_progress(hint), timeout=180), hint.status
    os.kill(_pool_child(worker), signal.SIGKILL)
    assert wait_for(lambda: _running_again(hint), timeout=120), (hint.status, hint.runs)
    hold.unlink()
    assert wait_for(lambda: finished(hint), timeout=240)
    assert hint.status == Status.DONE, (hint.failure, hint.error)
    assert hint.runs == 2


def test_the_soft_time_limit_stores_the_best_plan_so_far(
    transactional_db: None,
    alice: User,
    login: Callable[[User], Client],
    spawn_worker: Callable[..., subprocess.Popen[bytes]],
    hold: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = login(alice)
    spawn_worker(HINT_HOLD_FILE=str(hold))
    # A first job, not held, loads the solver into the pool process: the next one has a
    # plan in hand within a fraction of a second, well before its soft limit.
    hold.unlink()
    warm_up = ask(client, face_up=4)
    assert wait_for(lambda: finished(warm_up), timeout=120)
    assert (warm_up.status, warm_up.partial) == (Status.DONE, False)
    # The limits travel in the message, from the sender's task options.
    monkeypatch.setattr(run_hint, "soft_time_limit", 15)  # room for a busy machine
    monkeypatch.setattr(run_hint, "time_limit", 60)
    monkeypatch.setattr(run_hint, "_exec_options", None)  # Celery caches them per task
    # Held with a plan in hand until the soft limit strikes, however fast the machine.
    hold.touch()
    hint = ask(client)
    assert wait_for(lambda: finished(hint), timeout=60)
    assert hint.status == Status.DONE, (hint.failure, hint.error)
    assert hint.partial and hold.exists()
    assert hint.result is not None and hint.result["partial"] is True
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "best plan it had found so far" in html


def test_every_hint_of_a_whole_worker_killed_mid_job_ends_done_within_a_minute(
    transactional_db: None,
    alice: User,
    bob: User,
    login: Callable[[User], Client],
    spawn_worker: Callable[..., subprocess.Popen[bytes]],
    hold: Path,
) -> None:
    """SIGKILL the worker's main process and its pool while a hint runs and others wait
    behind it: nobody requeues the running job's message, so the reaper must see that its
    node stopped beating. Every hint ends done within 60 s of a new worker starting, with
    the default heartbeat period and a separate beat, as in production."""
    spawn_worker(beat=True)
    first = spawn_worker(HINT_HOLD_FILE=str(hold))
    running = ask(login(alice))
    assert wait_for(lambda: _running_with_progress(running), timeout=180), running.status
    waiting = [ask(login(alice), face_up=4), *(ask(login(bob), face_up=n) for n in (2, 4))]
    os.killpg(first.pid, signal.SIGKILL)
    killed = time.monotonic()
    first.wait()
    hints = [running, *waiting]
    for hint in hints:
        hint.refresh_from_db()
    # Killed mid-job (held with a plan in hand), the others still queued behind it.
    assert [(hint.status, hint.runs) for hint in hints] == [(Status.RUNNING, 1)] + [
        (Status.QUEUED, 0)
    ] * 3
    hold.unlink()
    spawn_worker()
    started = time.monotonic()
    requeued: list[float] = []

    def all_done() -> bool:
        # Also notes when the killed run's row left its first run (for the printed delay).
        states = [finished(hint) for hint in hints]  # each refreshed
        done = all(states)
        if not requeued and (running.status, running.runs) != (Status.RUNNING, 1):
            requeued.append(time.monotonic() - killed)
        return done

    assert wait_for(all_done, timeout=60), [(hint.pk, hint.status, hint.runs) for hint in hints]
    print(
        f"the killed job requeued {requeued[0]:.1f} s after the kill; every hint done "
        f"{time.monotonic() - started:.1f} s after the new worker started"
    )
    assert [hint.status for hint in hints] == [Status.DONE] * 4, [hint.error for hint in hints]
    assert [hint.runs for hint in hints] == [2, 1, 1, 1]
    assert jobs.claimed_node(running.claimed_by).startswith("hints2@")  # the new worker


# --- The solver's kernels are loaded before the pool forks ----------------------------------


def _worker_log(tmp_path: Path, number: int = 0) -> str:
    return (tmp_path / f"worker{number}.log").read_text(errors="replace")


def test_the_worker_loads_the_kernels_before_it_forks_its_pool(
    transactional_db: None,
    alice: User,
    login: Callable[[User], Client],
    spawn_worker: Callable[..., subprocess.Popen[bytes]],
    tmp_path: Path,
) -> None:
    """The main process loads them once (Celery logs "<name> ready." when its pool is up);
    pool processes forked after that inherit them and run a hint."""
    spawn_worker()
    # Ready within seconds once numba's cache holds the kernels (the tests before this one
    # filled it); with an empty cache the main process compiles them first.
    assert wait_for(lambda: " ready." in _worker_log(tmp_path), timeout=600)
    up = _worker_log(tmp_path)
    assert "/MainProcess] Solver kernels ready" in up, up
    hint = ask(login(alice))
    assert wait_for(lambda: finished(hint), timeout=240)
    assert hint.status == Status.DONE, (hint.failure, hint.error)
    assert _worker_log(tmp_path).count("Solver kernels ready") == 1


def test_with_a_threading_layer_unsafe_to_fork_each_pool_process_loads_them(
    transactional_db: None,
    alice: User,
    login: Callable[[User], Client],
    spawn_worker: Callable[..., subprocess.Popen[bytes]],
    tmp_path: Path,
) -> None:
    """GNU OpenMP (asked for by the environment) would make a child forked after the
    kernels ran abort: the pool process loads them itself as it starts, and runs a hint."""
    spawn_worker(NUMBA_THREADING_LAYER="omp")
    assert wait_for(
        lambda: "/ForkPoolWorker-1] Solver kernels ready" in _worker_log(tmp_path), timeout=600
    )
    assert "/MainProcess] Solver kernels ready" not in _worker_log(tmp_path)
    hint = ask(login(alice))
    assert wait_for(lambda: finished(hint), timeout=240)
    assert hint.status == Status.DONE, (hint.failure, hint.error)


# --- (3) the broker is down when the hint is asked for ---------------------------------------


@pytest.fixture
def own_redis(monkeypatch: pytest.MonkeyPatch, redis_server: Any) -> Iterator[Any]:
    """The shared redis_server fixture (tests/conftest.py), not started, as the app's broker."""
    redis = redis_server
    old_url = celery_app.conf.broker_url
    old_options = dict(celery_app.conf.broker_transport_options or {})
    # Celery reads CELERY_BROKER_URL from the environment before its configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", redis.url)
    use_broker(redis.url, {"visibility_timeout": 3600})
    yield redis
    redis.stop()
    monkeypatch.undo()
    use_broker(old_url, old_options)


def test_broker_down_saves_the_hint_and_runs_it_once_the_broker_is_back(
    transactional_db: None,
    alice: User,
    login: Callable[[User], Client],
    own_redis: Any,
) -> None:
    client = login(alice)
    # The broker is down (never started): the request is still saved, as queued.
    hint = ask(client)
    assert (hint.status, hint.sent_at) == (Status.QUEUED, None)
    page = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "The solver is unavailable right now" in page
    # The rest of the app keeps working.
    assert client.get("/hints/").status_code == 200
    assert client.get("/").status_code == 200
    assert jobs.resend_queued() == 0  # still down: nothing sent, nothing lost
    # The broker comes back; the periodic resender sends the row; a worker runs it.
    own_redis.start()
    HintRequest.objects.filter(pk=hint.pk).update(queued_at=hint.queued_at - jobs.RESEND_AFTER)
    assert jobs.resend_queued() == 1
    with running_worker(celery_app):
        assert wait_for(lambda: finished(hint))
    assert hint.status == Status.DONE, hint.error
    assert hint.sent_at is not None
