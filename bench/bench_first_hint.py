"""Benchmark of the first hint a fresh `make run` answers: `POST /api/hints/` until done.

Each run starts scripts/run.py as `make run` does, on a free port and a fresh var dir (a new
SQLite database and filesystem broker, so no earlier result can be reused and no worker is
warm), waits until the web answers /healthz and the worker says it is ready, makes a user
with an API token, then asks one hint and polls `GET /api/hints/{id}/` every 0.2 s until it
is done. It prints, per run:

- start: seconds from starting run.py until the web and the worker were ready;
- hint: seconds from the POST until the poll saw `done` (what a person waits);
- job: the job's own time on its row (claimed → finished);
- CPU: seconds of CPU the worker's processes (main, pool, beat) and the web's spent between
  the POST and done — the machine may be shared, so the wall-clock time alone says little;
- load: the 1-minute load average just before the POST, and the number of cores.

Usage: .venv/bin/python bench/bench_first_hint.py [--runs 3] [--cold] [--clock 1-1]
       [--colours SSMM/MMSS/SMSM] [--face-up 3]
--cold gives run.py an empty numba cache directory, as on a fresh clone: its warm step then
compiles the kernels, which shows in "start", not in "hint". It never asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
READY_TIMEOUT = 900.0  # seconds: a cold start compiles the kernels on a shared machine
HINT_TIMEOUT = 600.0
POLL_EVERY = 0.2  # the page polls every second; faster would load the web (runserver)
TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _group_cpu(leader: int) -> float:
    """CPU seconds (user + system, with reaped children) of every live process in the
    process group ``leader`` leads (run.py starts web and worker each in its own group)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        # fields[0] is the state (field 3 of stat); pgrp is field 5, utime..cstime 14..17.
        if int(fields[2]) == leader:
            total += sum(int(x) for x in fields[11:15])
    return total / TICKS


def _children(pid: int) -> dict[str, int]:
    """run.py's children by role: {"web": pid, "worker": pid}."""
    found: dict[str, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) != pid:
            continue
        if b"runserver" in cmdline:
            found["web"] = int(entry)
        elif b"celery" in cmdline:
            found["worker"] = int(entry)
    return found


class Run:
    """scripts/run.py in the background, its output collected line by line."""

    def __init__(self, env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [PYTHON, "scripts/run.py"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip())

    def saw(self, text: str) -> bool:
        return any(text in line for line in list(self.lines))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _request(url: str, token: str = "", body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _healthy(base: str) -> bool:
    try:
        _request(f"{base}/healthz")
    except (urllib.error.URLError, OSError, ValueError):
        return False
    return True


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _wait(predicate: Any, timeout: float, what: str, run: Run) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if run.proc.poll() is not None:
            raise RuntimeError(f"run.py exited while waiting for {what}:\n" + "\n".join(run.lines))
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}:\n" + "\n".join(run.lines[-40:]))
        time.sleep(0.1)


def one_run(args: argparse.Namespace, number: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-first-hint-") as tmp:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "PORT")
        }
        port = _free_port()
        env.update(TIMEKEEPER_VAR_DIR=str(Path(tmp) / "var"), PORT=str(port))
        if args.cold:
            env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba")
        base = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        run = Run(env)
        try:
            # Celery logs "<name> ready." once its consumer (and so its pool) is up.
            _wait(lambda: run.saw(" ready."), READY_TIMEOUT, "the worker", run)
            _wait(lambda: _healthy(base), READY_TIMEOUT, "the web", run)
            start = time.monotonic() - started
            _manage(
                env,
                "shell",
                "-c",
                "from django.contrib.auth.models import User; User.objects.create_user('bench')",
            )
            token = _manage(env, "api_token", "bench").split()[2]
            roles = _children(run.proc.pid)
            time.sleep(1.0)  # let the token command's exit settle out of the CPU figures
            cpu_before = {role: _group_cpu(pid) for role, pid in roles.items()}
            load = os.getloadavg()[0]
            asked = time.monotonic()
            hint = _request(
                f"{base}/api/hints/",
                token,
                {"clock": args.clock, "colours": args.colours, "face_up": args.face_up},
            )
            url = f"{base}/api/hints/{hint['id']}/"
            while hint["status"] in ("queued", "running"):
                if time.monotonic() - asked > HINT_TIMEOUT:
                    raise RuntimeError("the hint did not finish:\n" + "\n".join(run.lines[-40:]))
                time.sleep(POLL_EVERY)
                hint = _request(url, token)
            waited = time.monotonic() - asked
            cpu = {role: _group_cpu(pid) - cpu_before[role] for role, pid in roles.items()}
        finally:
            run.stop()
    if hint["status"] != "done":
        raise RuntimeError(f"the hint ended {hint['status']}: {hint.get('failure')}")
    job = (
        datetime.fromisoformat(hint["finished_at"]) - datetime.fromisoformat(hint["started_at"])
    ).total_seconds()
    row = {
        "start": start,
        "hint": waited,
        "job": job,
        "worker_cpu": cpu.get("worker", float("nan")),
        "web_cpu": cpu.get("web", float("nan")),
        "load": load,
    }
    print(
        f"run {number}: start {start:6.1f} s   hint {waited:5.2f} s   job {job:5.2f} s   "
        f"CPU worker {row['worker_cpu']:5.2f} s, web {row['web_cpu']:4.2f} s   "
        f"load {load:4.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="start with an empty numba cache")
    parser.add_argument("--clock", default="1-1")
    parser.add_argument("--colours", default="SSMM/MMSS/SMSM")
    parser.add_argument("--face-up", type=int, default=3)
    args = parser.parse_args()
    print(
        f"First hint from a fresh `make run` ({args.clock} {args.colours} face-up "
        f"{args.face_up}{', empty numba cache' if args.cold else ''}):",
        flush=True,
    )
    rows = [one_run(args, n + 1) for n in range(args.runs)]
    if len(rows) > 1:
        print(
            "median: "
            + "   ".join(
                f"{key} {statistics.median(row[key] for row in rows):.2f}"
                for key in ("start", "hint", "job", "worker_cpu", "web_cpu", "load")
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
