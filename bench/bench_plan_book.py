"""Benchmark of the plan book (`make bench`): how many patterns, how long a prefill takes,
and how long a table waits for a prefilled pattern and for a new one.

Prints, without asserting anything:

1. patterns: the classes of colour patterns (``solver.core.search.symmetry``) for 2, 3 and 4
   players and each face-up budget, with and without the Sun/Moon swap, against the 4,096
   colour strings a deal can show; and the entries one clock needs.
2. prefill: seconds to compute the clock's own prior and to solve a sample of patterns per
   table size (spread over how often they are dealt) from it, with the hint settings on
   every core, and the time for a whole clock extrapolated from them (priors + classes ×
   budgets × mean seconds).
3. POST → done: starts scripts/run.py as `make run` does (fresh var dir, SQLite, filesystem
   broker, PLAN_BOOK_PREFILL off so beat stays out of the figures), waits until it is ready
   and warm (one hint asked and finished first), then prefills a few patterns with
   ``solver.prefill`` and asks, over the API, patterns of those classes seated another way
   (answered from the plan book) and new patterns (computed by a job); p50 / p95 of each.

Usage: .venv/bin/python bench/bench_plan_book.py [--quick] [--skip patterns|prefill|live]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench.stats import summary  # noqa: E402


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} / {five:.1f} (1 / 5 min) on {os.cpu_count()} cores"


def patterns() -> None:
    from rules.seats import most_face_up
    from solver.core.search.symmetry import class_count

    print("plan book, patterns after symmetry (of 4,096 colour strings per table size):")
    print("  players  face-up  classes  with Sun/Moon swap (clocks treating both colours alike)")
    for players in (2, 3, 4):
        for face_up in range(0, most_face_up(players) + 1):
            print(
                f"  {players:>7}  {face_up:>7}  {class_count(players):>7}  "
                f"{class_count(players, True):>7}"
            )
    per_clock = sum(class_count(n) * 4 for n in (2, 3, 4))
    per_swap = sum(class_count(n, True) * 4 for n in (2, 3, 4))
    print(
        f"  one clock, budgets players..players+3 (what a campaign gives): {per_clock} entries "
        f"({per_swap} with the swap); the 41 shipped clocks are 3 games (40 play the base "
        "rules, start 1, cap 24 or none)"
    )


def prefill_time(quick: bool) -> None:
    import numba

    from rules.catalogue import get_clock
    from rules.seats import parse_colours
    from solver.core.search.clock_prior import search_prior
    from solver.core.search.search import SLIP_RATE, recommend
    from solver.core.search.symmetry import class_count, colour_symmetric, pattern_classes

    effort = 0.5  # settings.HINT_EFFORT
    per_size = 1 if quick else 3
    for clock_id in ("1-1",):
        clock = get_clock(clock_id)
        symmetric = colour_symmetric(clock)
        total = 0.0
        print(
            f"plan book, prefill of clock {clock_id} on {numba.get_num_threads()} threads "
            f"(effort {effort}, exact odds):"
        )
        for players in (2, 3, 4):
            classes = pattern_classes(players, symmetric)
            picks = [
                classes[(len(classes) - 1) * k // max(per_size - 1, 1)] for k in range(per_size)
            ]
            # The clock's own prior first, as the prefill computes it (solver.clock_priors).
            started = time.perf_counter()
            prior = search_prior(clock, players)
            prior_seconds = time.perf_counter() - started
            times = []
            for pattern in picks:
                started = time.perf_counter()
                recommend(
                    clock,
                    parse_colours(pattern.colours),
                    players,
                    seed=0,
                    effort=effort,
                    slip_rate=SLIP_RATE,
                    prior=prior,
                )
                times.append(time.perf_counter() - started)
            mean = statistics.mean(times)
            entries = class_count(players, symmetric) * 4
            total += entries * mean + prior_seconds
            print(
                f"  {players} players: the clock's own prior {prior_seconds:.0f} s, then "
                f"{', '.join(f'{t:.1f}' for t in times)} s for "
                f"{', '.join(p.colours for p in picks)}; mean {mean:.1f} s x {entries} entries "
                f"= {entries * mean / 60:.0f} min; {_load()}"
            )
        print(f"  whole clock (extrapolated): {total / 3600:.1f} h on this machine now")


def live(quick: bool) -> None:
    from bench_first_hint import PYTHON, Run, _free_port, _healthy, _manage, _request, _wait

    from rules.seats import parse_colours
    from solver.core.search.symmetry import pattern_classes

    prefilled = 3 if quick else 5
    asks = 6 if quick else 20
    new = 2 if quick else 5
    with tempfile.TemporaryDirectory(prefix="bench-plan-book-") as tmp:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "PORT")
        }
        port = _free_port()
        env.update(TIMEKEEPER_VAR_DIR=str(Path(tmp) / "var"), PORT=str(port))
        env["PLAN_BOOK_PREFILL"] = "false"
        base = f"http://127.0.0.1:{port}"
        run = Run(env)
        try:
            _wait(lambda: run.saw(" ready."), 900, "the worker", run)
            _wait(lambda: _healthy(base), 900, "the web", run)
            tokens = []
            for name in ("warm", "booked", "new"):
                _manage(
                    env,
                    "shell",
                    "-c",
                    "from django.contrib.auth.models import User; "
                    f"User.objects.create_user('{name}')",
                )
                tokens.append(_manage(env, "api_token", name).split()[2])

            def ask(token: str, colours: str) -> tuple[float, str]:
                asked = time.monotonic()
                hint = _request(
                    f"{base}/api/hints/",
                    token,
                    {"clock": "1-1", "colours": colours, "face_up": 3},
                )
                url = f"{base}/api/hints/{hint['id']}/"
                while hint["status"] in ("queued", "running"):
                    time.sleep(0.05)
                    hint = _request(url, token)
                if hint["status"] != "done":
                    raise RuntimeError(f"hint {colours} ended {hint['status']}")
                return time.monotonic() - asked, str(hint.get("answered"))

            classes = pattern_classes(3)  # clock 1-1 has a Sun rule: no swap
            ask(tokens[0], classes[-1].colours)  # warm: the worker has run a job
            code = (
                "from rules.catalogue import get_clock; from solver import prefill; "
                "game = prefill.Game(get_clock('1-1'), False, '1-1'); "
                "s = prefill.settings_now(); items = list(prefill.items(game, [3], [3], s)); "
                f"[prefill.compute(i, s, threads=None) for i in items[:{prefilled}]]"
            )
            started = time.monotonic()
            _manage(env, "shell", "-c", code)
            print(
                f"plan book, live (`make run`, warm; clock 1-1, 3 players, face-up 3): "
                f"{prefilled} patterns prefilled in {time.monotonic() - started:.0f} s; {_load()}"
            )
            rng = random.Random(7)
            booked = []
            for _ in range(asks):
                table = parse_colours(classes[rng.randrange(prefilled)].colours)
                seats = ["".join(rng.sample(s.hand, len(s.hand))) for s in table.seats]
                shift = rng.randrange(3)
                colours = "/".join(seats[shift:] + seats[:shift])
                seconds, answered = ask(tokens[1], colours)
                booked.append(seconds)
                assert answered == "plan_book", answered
            fresh = []
            for unseen in classes[prefilled : prefilled + new]:
                seconds, answered = ask(tokens[2], unseen.colours)
                fresh.append(seconds)
                assert answered == "computed", answered
        finally:
            run.stop()
    for label, times in (("prefilled pattern (another seating)", booked), ("new pattern", fresh)):
        print(f"  POST -> done, {label}: {summary(times, unit='s', digits=2)}; {_load()}")
    del PYTHON


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--skip", action="append", default=[], choices=["patterns", "prefill", "live"]
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if "patterns" not in args.skip:
        patterns()
    if "prefill" not in args.skip:
        prefill_time(args.quick)
    if "live" not in args.skip:
        live(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
