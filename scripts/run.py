"""`make run`: the web server and one Celery worker (with its beat) in one command.

Each child runs in its own process group so that Ctrl-C (or SIGTERM) stops the whole tree
— runserver's reloader child, the worker's pool processes — and nothing is left behind.
If either child dies, the other is stopped too: a web app without its worker would accept
hint requests it can never answer.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def start(name: str, args: list[str]) -> subprocess.Popen[bytes]:
    print(f"[run] starting {name}: {' '.join(args)}", flush=True)
    return subprocess.Popen(args, cwd=ROOT, start_new_session=True)


def stop(children: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM each leader (Celery then finishes or requeues its job: a warm shutdown),
    then sweep its process group so no reloader child or pool process outlives us."""
    for proc in children.values():
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 20
    for name, proc in children.items():
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"[run] {name} did not stop in time; killing it", flush=True)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def prepare_steps() -> list[list[str]]:
    """Migrate. (The clock catalogue needs no loading: it is read from rules/catalogue/,
    and groups' transcriptions live in the database.)"""
    return [[PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"]]


def main() -> int:
    port = os.environ.get("PORT", "8000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        print(f"[run] PORT must be a number between 1 and 65535, not {port!r}", file=sys.stderr)
        return 2
    (ROOT / "var").mkdir(exist_ok=True)
    for step in prepare_steps():
        print(f"[run] {' '.join(step[1:])}", flush=True)
        if subprocess.run(step, cwd=ROOT).returncode != 0:
            return 1
    children = {
        "web": start("web", [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}"]),
        "worker": start(
            "worker",
            [
                PYTHON,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--beat",
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
                "--without-mingle",
                "--without-gossip",
            ],
        ),
    }
    print(f"[run] Timekeeper on http://127.0.0.1:{port}/ — Ctrl-C stops web and worker", flush=True)

    stopping = False

    def on_signal(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    code = 0
    while not stopping:
        for name, proc in children.items():
            if proc.poll() is not None:
                print(f"[run] {name} exited with {proc.returncode}; stopping", flush=True)
                code = proc.returncode or 1
                stopping = True
        time.sleep(0.5)
    stop(children)
    print("[run] stopped", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
