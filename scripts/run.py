"""`make run`: the web server and one Celery worker (with its beat) in one command.

Each child runs in its own process group so that Ctrl-C (or SIGTERM) stops the whole tree
— runserver's reloader child, the worker's pool processes — and nothing is left behind.

``supervise`` watches the children. A worker that dies is started again, after a pause
that doubles with each quick death (1 s, 2 s, 4 s … at most 30 s; back to 1 s once a worker
has lived a minute): the web keeps serving meanwhile, and hints asked in between wait in
the queue. If the web server itself dies (a port already taken, a broken settings file),
everything stops: that needs a person. The embedded broker's folders (var/broker/) are
recreated if they disappear while we run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BACKOFF_FIRST = 1.0  # seconds before the first restart of a dead worker
BACKOFF_MAX = 30.0
HEALTHY_AFTER = 60.0  # a worker that lived this long starts over from BACKOFF_FIRST
STOP_SECONDS = 20.0  # a child still running this long after SIGTERM is killed
# The exit code of a Ctrl-C (or SIGTERM) after which a child had to be killed: it did not
# stop in time (a prefill slice once kept the worker busy for 22 s), which a test can see.
KILLED_AT_STOP = 3
WORKER = [
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
]


@dataclass
class Child:
    """One supervised process: how to start it, and whether a death is restarted."""

    name: str
    args: list[str]
    restart: bool
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    backoff: float = BACKOFF_FIRST
    start_at: float | None = field(default=None)  # a restart waiting for its time

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, cwd=ROOT, start_new_session=True)
        self.started = time.monotonic()
        self.start_at = None
        print(f"[run] started {self.name} (pid {self.proc.pid}): {' '.join(self.args)}", flush=True)

    def exited(self) -> int | None:
        """The exit code once the process has died (its group swept), else None."""
        if self.proc is None or self.proc.poll() is None:
            return None
        with contextlib.suppress(ProcessLookupError):  # orphaned pool processes
            os.killpg(self.proc.pid, signal.SIGKILL)
        return self.proc.returncode


def stop(children: list[Child]) -> bool:
    """SIGTERM each leader (Celery then finishes or requeues its job: a warm shutdown),
    then sweep its process group so no reloader child or pool process outlives us. False
    when a leader did not stop within STOP_SECONDS and was killed."""
    running = [child.proc for child in children if child.proc is not None]
    for proc in running:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    in_time = True
    for proc in running:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"[run] pid {proc.pid} did not stop in time; killing it", flush=True)
            in_time = False
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return in_time


def var_dir() -> Path:
    """Where Timekeeper keeps its files (as config.settings reads it)."""
    return Path(os.environ.get("TIMEKEEPER_VAR_DIR") or ROOT / "var")


def make_private(var: Path, who: str) -> int:
    """Everything under ``var`` is its user's alone: the database and its backups hold
    sessions and API tokens, the broker's messages and Caddy's keys are no one else's either.

    The umask covers whatever this process and its children (migrate, gunicorn, the worker,
    Caddy, the daily backup) write from now on; what an earlier release left readable by
    others is tightened once, with one line. Returns how many paths were tightened."""
    os.umask(0o077)
    var.mkdir(parents=True, exist_ok=True)
    tightened = 0
    for path in [var, *var.rglob("*")]:
        with contextlib.suppress(FileNotFoundError):  # a broker message taken meanwhile
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode) or not mode & 0o077:
                continue
            path.chmod(stat.S_IMODE(mode) & 0o700)
            tightened += 1
    if tightened:
        print(
            f"[{who}] made {tightened} files and folders in {var} private to this user "
            "(they were readable by other accounts)",
            flush=True,
        )
    return tightened


def broker_folders() -> list[Path]:
    """The embedded broker's folders (as config.settings makes them), or none when
    CELERY_BROKER_URL names a real broker."""
    if not os.environ.get("CELERY_BROKER_URL", "filesystem://").startswith("filesystem://"):
        return []
    var = var_dir()
    return [var / "broker" / "queue", var / "broker" / "control"]


def keep_broker_folders() -> None:
    for folder in broker_folders():
        if not folder.is_dir():
            print(f"[run] {folder} was gone; made it again", flush=True)
            folder.mkdir(parents=True, exist_ok=True)


def supervise(
    children: list[Child], stopping: list[bool], tick: Callable[[], None] | None = None
) -> int:
    """Run until ``stopping[0]`` is set or a child that is not restarted dies; restart the
    others with back-off. ``tick``, if given, is called on every round (about twice a
    second; `make serve` hangs its periodic work there). Returns the exit code:
    KILLED_AT_STOP after a stop in which a child had to be killed."""
    for child in children:
        child.start()
    while not stopping[0]:
        keep_broker_folders()
        if tick is not None:
            tick()
        now = time.monotonic()
        for child in children:
            if child.start_at is not None:
                if now >= child.start_at:
                    child.start()
                continue
            code = child.exited()
            if code is None:
                continue
            if not child.restart:
                print(f"[run] {child.name} exited with {code}; stopping", flush=True)
                stop(children)
                return code or 1
            if now - child.started >= HEALTHY_AFTER:
                child.backoff = BACKOFF_FIRST
            print(
                f"[run] {child.name} exited with {code}; starting it again in "
                f"{child.backoff:.0f} s",
                flush=True,
            )
            child.start_at = now + child.backoff
            child.backoff = min(child.backoff * 2, BACKOFF_MAX)
        time.sleep(0.5)
    return 0 if stop(children) else KILLED_AT_STOP


def prepare_steps() -> list[list[str]]:
    """Migrate; nothing else stands between the command and the web serving. The solver's
    numba kernels are compiled (the first time on a machine: about a minute of CPU) or
    loaded by the worker itself before it takes jobs (``solver.tasks``), so pages answer at
    once and a hint asked meanwhile waits in the queue, its page saying that the solver is
    starting. (The clock catalogue needs no loading: it is read from rules/catalogue/, and
    groups' transcriptions live in the database.)"""
    return [[PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"]]


def main() -> int:
    port = os.environ.get("PORT", "8000")
    if not port.isdigit() or not 0 < int(port) < 65536:
        print(f"[run] PORT must be a number between 1 and 65535, not {port!r}", file=sys.stderr)
        return 2
    make_private(var_dir(), "run")
    for step in prepare_steps():
        print(f"[run] {' '.join(step[1:])}", flush=True)
        if subprocess.run(step, cwd=ROOT).returncode != 0:
            return 1
    stopping = [False]

    def on_signal(signum: int, _frame: object) -> None:
        stopping[0] = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    children = [
        Child("web", [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}"], restart=False),
        Child("worker", WORKER, restart=True),
    ]
    print(f"[run] Timekeeper on http://127.0.0.1:{port}/ — Ctrl-C stops web and worker", flush=True)
    code = supervise(children, stopping)
    print("[run] stopped", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
