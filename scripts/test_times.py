"""Where the suite's time goes, from ``pytest --durations=0`` output.

Prints the time per test file and per test (setup + call + teardown), and what two workers
would take to run them: whole files shared out in order (``--dist loadfile``), and single
tests taken by whichever worker is free (``--dist worksteal``). Module-scoped fixtures
(a browser, ``make run``) are counted once per file, as loadfile starts them; under
worksteal a file split over both workers starts them twice.

Usage: .venv/bin/pytest --durations=0 ... > durations.txt
       .venv/bin/python scripts/test_times.py durations.txt [--top N] [--workers N]
"""

from __future__ import annotations

import argparse
import heapq
import re
import sys
from collections import defaultdict
from collections.abc import Iterable

LINE = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S+?)::(\S.*)$")


def read(lines: Iterable[str]) -> tuple[dict[tuple[str, str], float], list[str]]:
    """Seconds per (file, test), and the files in the order they were first named."""
    per_test: dict[tuple[str, str], float] = defaultdict(float)
    files: dict[str, None] = {}
    for line in lines:
        match = LINE.match(line)
        if match:
            per_test[(match[3], match[4])] += float(match[1])
            files.setdefault(match[3], None)
    return per_test, list(files)


def slowest[K](seconds: dict[K, float], top: int) -> list[tuple[K, float]]:
    return sorted(seconds.items(), key=lambda item: -item[1])[:top]


def makespan(jobs: Iterable[float], workers: int) -> float:
    """The time ``workers`` take when each job goes to the first free one."""
    free = [0.0] * workers
    for job in jobs:
        heapq.heappush(free, heapq.heappop(free) + job)
    return max(free)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("durations")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        with open(args.durations, encoding="utf-8", errors="replace") as file:
            per_test, order = read(file)
    except OSError as error:
        print(f"test_times: {error}", file=sys.stderr)
        return 2
    if not per_test:
        print("test_times: no --durations lines in that file", file=sys.stderr)
        return 2
    per_file: dict[str, float] = defaultdict(float)
    for (file_name, _test), seconds in per_test.items():
        per_file[file_name] += seconds
    total = sum(per_file.values())
    print(f"{total:.0f} s in {len(per_test)} tests of {len(per_file)} files\n\nfiles:")
    for name, seconds in slowest(per_file, args.top):
        print(f"{seconds:8.1f} s {100 * seconds / total:5.1f} %  {name}")
    print("\ntests:")
    for (name, test), seconds in slowest(per_test, args.top):
        print(f"{seconds:8.1f} s  {name}::{test}")
    files = [per_file[name] for name in order]
    tests = sorted(per_test.values(), reverse=True)
    print(f"\n{args.workers} workers:")
    print(f"  whole files in order (loadfile): {makespan(files, args.workers):.0f} s")
    print(f"  single tests (worksteal)       : {makespan(tests, args.workers):.0f} s")
    print(f"  the work shared out evenly     : {total / args.workers:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
