"""``python -m bench.bench_what_if``: how long one "What if" takes in the web process, on
clock 1-1 and on the heaviest definition a hint may have (40 rules). Since solver version 6
the compiled engine plays every kind Timekeeper ships, so both run there; the reference
engine's share (a tenth of the games, within ``WHAT_IF_SECONDS``) is left to kinds added
later, and is tested with a kind registered by the tests.

Prints numbers only; it asserts nothing about time. Set up like ``bench.bench_import``:
a database of its own in a temporary folder.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

COLOURS = "SSM/MMS/SMM/SSM"
TARGETS = [3.0, 6.0, 9.0, 12.0, 15.0, 30.0]
HEAVIEST_RULES = [
    {"kind": "forbidden_values", "segment": 1 + i % 6, "values": [12]} for i in range(40)
]
CLOCKS: dict[str, Any] = {
    "compiled engine, clock 1-1": "1-1",
    "compiled engine, 40 rules": {"id": "2-1", "rules": HEAVIEST_RULES},
}


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="tk-bench-what-if-"))
    os.environ["TIMEKEEPER_VAR_DIR"] = str(folder)
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from rules.seats import parse_colours
    from solver import what_if as what_if_module
    from solver.core.table.plans import baseline_plan
    from solver.models import HintRequest

    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench")
    seats = parse_colours(COLOURS)
    what_if_module.WHAT_IF_PER_MINUTE = 10**9  # the limit is not what is measured here
    for name, clock in CLOCKS.items():
        from solver.hint_inputs import parse_input

        hint_input = parse_input(clock, COLOURS, 4, base_rules=True)
        plan = baseline_plan(hint_input.clock, seats, 4)
        hint = HintRequest(
            user=user,
            clock_definition=hint_input.clock.to_json(),
            colours=COLOURS,
            players=seats.players,
            face_up=4,
            result={"plan": plan.to_json()},
        )
        what_if_module.what_if(hint, TARGETS, 1, user)  # compile and warm up
        times, games = [], 0
        for _ in range(5):
            started = time.perf_counter()
            outcome = what_if_module.what_if(hint, TARGETS, 1, user)
            times.append(time.perf_counter() - started)
            games = outcome.mine.games
        print(
            f"what if, {name}: {games} deals a plan, median {statistics.median(times) * 1000:.0f} "
            f"ms, longest {max(times) * 1000:.0f} ms (5 runs)"
        )
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
