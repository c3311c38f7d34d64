"""``make test-fast``: the tests a change needs first, on every core of the machine.

No browser, no live worker or broker, no PostgreSQL: the tests marked ``e2e``,
``integration`` or ``slow`` are left out, SQLite and the filesystem broker stand in (each
shard in a var folder of its own). The test files are dealt round-robin, largest first, to
one pytest per core (two at least), which run side by side; each run notes how long every
file took (var/test-fast-durations.json), and the next run deals the files by those times
(by size, the first time). ``make test`` runs everything.

Usage: .venv/bin/python scripts/test_fast.py [pytest options...]
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKERS = "not e2e and not integration and not slow"
DURATIONS = ROOT / "var" / "test-fast-durations.json"
# A line of ``--durations=0``: "0.52s call     tests/rules/test_cards.py::test_x[1]"
DURATION_LINE = re.compile(r"^([0-9.]+)s (?:setup|call|teardown) +(tests/[^:]+)::")


def weights() -> dict[str, float]:
    """Seconds per test file from the last run; empty before the first."""
    try:
        return {k: float(v) for k, v in json.loads(DURATIONS.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def shards(count: int) -> list[list[str]]:
    """The test files in ``count`` shards of about equal weight: the seconds each took last
    time, else (a new file, a first run) its size in bytes, scaled to about a second per 3 kB."""
    known = weights()

    def weight(path: Path) -> float:
        name = str(path.relative_to(ROOT))
        return known.get(name, path.stat().st_size / 3000)

    files = sorted((ROOT / "tests").rglob("test_*.py"), key=lambda path: (-weight(path), path))
    dealt: list[list[str]] = [[] for _ in range(count)]
    loads = [0.0] * count
    for path in files:
        lightest = loads.index(min(loads))
        dealt[lightest].append(str(path.relative_to(ROOT)))
        loads[lightest] += weight(path)
    return dealt


def note_durations(outputs: list[str], ran: list[str]) -> None:
    """Keep how long each file of ``ran`` took, for the next run's shards: a file that ran
    with no test over 0.01 s took none (not the time it took before some of its tests were
    marked slow)."""
    found: dict[str, float] = dict.fromkeys(ran, 0.0)
    for output in outputs:
        for line in output.splitlines():
            match = DURATION_LINE.match(line.strip())
            if match:
                found[match[2]] = found.get(match[2], 0.0) + float(match[1])
    if any(found.values()):
        DURATIONS.parent.mkdir(parents=True, exist_ok=True)
        DURATIONS.write_text(json.dumps({**weights(), **found}, indent=0, sort_keys=True))


def main(argv: list[str]) -> int:
    count = max(2, os.cpu_count() or 2)
    started = time.monotonic()
    # PYTHONDONTWRITEBYTECODE is dropped too: with it, every run compiles the project's
    # modules and rewrites every test module's asserts again (a third of the collection).
    dropped = ("DATABASE_URL", "CELERY_BROKER_URL", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    runs = []
    dealt = shards(count)
    for index, files in enumerate(dealt):
        shard_env = {**env, "TIMEKEEPER_VAR_DIR": str(ROOT / "var" / f"test-fast-{index}")}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["--durations=0", "--durations-min=0.01"]
        runs.append(
            subprocess.Popen(
                [*command, "-m", MARKERS, *argv, *files],
                cwd=ROOT,
                env=shard_env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    status = 0
    outputs = []
    for index, run in enumerate(runs):
        output, _ = run.communicate()
        outputs.append(output)
        print(f"--- shard {index + 1} of {count}")
        shown = (line for line in output.splitlines() if not DURATION_LINE.match(line.strip()))
        print("\n".join(shown).rstrip())
        status = status or run.returncode
    # A run narrowed by options (-k, -x) leaves files out: it corrects none to zero.
    note_durations(outputs, [] if argv else [f for files in dealt for f in files])
    print(f"test-fast: {time.monotonic() - started:.0f} s on {count} shards")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
