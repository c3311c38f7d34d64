"""`make run` (scripts/run.py) as a person runs it: SQLite and the embedded broker in a
var folder of its own. A worker that dies is started again while the web keeps serving;
the broker's folder, deleted, is made again and a hint still completes.

Each test waits with a bound (a few minutes at most): these are subprocesses on a shared
machine, so the bounds are generous and never a speed claim.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate: Callable[[], Any], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with suppress(OSError, ValueError):
            if predicate():
                return True
        time.sleep(0.25)
    return False


@dataclass
class MakeRun:
    proc: subprocess.Popen[str]
    base: str
    var: Path
    env: dict[str, str]
    lines: list[str] = field(default_factory=list)

    def pids(self, name: str) -> list[int]:
        """The pids of each start of the child `name`, in order."""
        found = (re.match(rf"\[run\] started {name} \(pid (\d+)\)", line) for line in self.lines)
        return [int(match.group(1)) for match in found if match]

    def get(self, path: str, token: str = "") -> Any:
        request = urllib.request.Request(self.base + path)
        if token:
            request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any], token: str) -> Any:
        """The JSON answer; a 503 too (a hint asked while the broker was gone is kept, and
        its answer says so and carries the hint)."""
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Token {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code != 503:
                raise
            return json.loads(error.read())

    def workers(self) -> int:
        return int(self.get("/healthz")["workers"])


@pytest.fixture(scope="module")
def make_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MakeRun]:
    var = tmp_path_factory.mktemp("make-run") / "var"
    # An earlier release's install: a folder and a log others could read.
    (var / "logs").mkdir(parents=True, mode=0o755)
    (var / "logs" / "old.log").write_text("a line")
    for path in (var, var / "logs", var / "logs" / "old.log"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # As on a clean clone: no database or broker named, so SQLite and the embedded broker.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "HINT_HOLD_FILE", "CI")
    }
    env.update(TIMEKEEPER_VAR_DIR=str(var), PORT=str(port), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "scripts/run.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    run = MakeRun(proc, f"http://127.0.0.1:{port}", var, env)

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            run.lines.append(line.rstrip())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert wait_for(lambda: run.workers() >= 1, timeout=240), "\n".join(run.lines[-40:])
        yield run
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        for name in ("web", "worker"):  # whatever run.py left behind
            for pid in run.pids(name):
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        reader.join(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()
        print("\n".join(line for line in run.lines if line.startswith("[run]")))


def test_what_it_writes_under_var_is_private_to_its_user(make_run: MakeRun) -> None:
    var = make_run.var
    written = [var / "db.sqlite3", var / "broker" / "queue", var / "logs" / "old.log"]
    written += [p for p in (var / "broker").rglob("*") if p.is_file()]
    for path in [var, *written]:
        assert path.stat().st_mode & 0o077 == 0, (path, oct(path.stat().st_mode))
    tightened = [line for line in make_run.lines if "private to this user" in line]
    assert len(tightened) == 1 and "made 3 files and folders" in tightened[0], tightened


def test_a_dead_worker_is_started_again_and_the_web_stays_up(make_run: MakeRun) -> None:
    (first,) = make_run.pids("worker")
    os.killpg(first, signal.SIGKILL)  # the worker, its pool and its beat
    assert wait_for(lambda: len(make_run.pids("worker")) == 2, timeout=60), make_run.lines[-20:]
    assert make_run.proc.poll() is None  # make run itself goes on …
    assert make_run.get("/healthz")["database"] == "ok"  # … and so does the web
    assert make_run.pids("web") and len(make_run.pids("web")) == 1
    assert any("worker exited with -9; starting it again" in line for line in make_run.lines)
    second = make_run.pids("worker")[1]
    assert second != first
    os.kill(second, 0)  # the new worker lives


def test_a_deleted_broker_folder_is_made_again_and_a_hint_still_completes(
    make_run: MakeRun,
) -> None:
    broker = make_run.var / "broker"
    shutil.rmtree(broker)
    # The behaviour, not the supervisor's log line: under load the folder may come back
    # (made by the web or the worker) before the supervisor looks, and then it logs nothing.
    assert wait_for(lambda: (broker / "queue").is_dir(), timeout=30)
    make_token = (
        "from django.contrib.auth.models import User;"
        "from accounts.models import ApiToken;"
        "print(ApiToken.issue(User.objects.create_user('broker-gone')))"
    )
    token = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", make_token],
        cwd=ROOT,
        env=make_run.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[-1]
    body = {"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "face_up": 3}
    # Asked just as the folder came back, the send may still fail: the hint is then kept
    # (503, "the solver is unreachable") and beat sends it again; either way it completes.
    hint = make_run.post("/api/hints/", body, token)
    assert hint["status"] in ("queued", "running", "done")

    def done() -> bool:
        hint.update(make_run.get(f"/api/hints/{hint['id']}/", token))
        return hint["status"] not in ("queued", "running")

    assert wait_for(done, timeout=300), hint["status"]
    assert hint["status"] == "done", hint
    assert make_run.workers() >= 1
