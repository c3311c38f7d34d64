"""``python manage.py simulate CLOCK --colours C --plan FILE [--face-up N] [--games N]
[--seed S] [--slips P] [--json] [--clock-file FILE] [--base-rules]``

Plays a plan (the ``plan`` object that ``hint --json`` prints, edited or not) in silent
simulation and prints its pass rate with a 95% interval; with ``--slips P`` each decision
slips with probability P (``solver.core.table.agents.slip_of``). Bad input — including a plan file
that breaks the plan schema — is one line on stderr and exit 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver.core.table.plans import Plan
from solver.core.table.simulate import simulate, table_from_arguments
from solver.management import add_slips_argument, add_table_arguments, slip_rate_argument

MAX_GAMES = 10_000_000
MAX_PLAN_BYTES = 100_000  # a plan is a few hundred bytes


def read_plan(path: str, players: int) -> Plan:
    """The plan in a JSON file: either the plan object or a whole ``hint --json`` output."""
    try:
        file = Path(path)
        if file.stat().st_size > MAX_PLAN_BYTES:
            raise ValueError(f"{path} is far too large to be a plan.")
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"Cannot read the plan file {path}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise ValueError(f"The plan file {path} is not UTF-8 text.") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"The plan file {path} is not valid JSON: {error.msg} (line {error.lineno})."
        ) from None
    if isinstance(data, dict) and isinstance(data.get("plan"), dict) and "targets" not in data:
        data = data["plan"]  # the whole output of `hint --json` works too
    return Plan.from_json(data, players=players)


class Command(BaseCommand):
    help = "Play a plan in silent simulation and print its pass rate."

    def add_arguments(self, parser: CommandParser) -> None:
        add_table_arguments(parser)
        parser.add_argument("--plan", required=True, metavar="FILE", help="a plan (JSON)")
        parser.add_argument(
            "--face-up", type=int, default=None, help="face-up cards allowed (default: players)"
        )
        parser.add_argument("--games", type=int, default=10_000, help="games to play")
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        add_slips_argument(parser, 0.0)
        parser.add_argument(
            "--base-rules",
            action="store_true",
            help="for an untranscribed clock: use the base rules only",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clock, seats, face_up = table_from_arguments(
                options["clock"],
                options["clock_file"],
                options["colours"],
                options["face_up"],
                options["base_rules"],
            )
            games = options["games"]
            if not 1 <= games <= MAX_GAMES:
                raise ValueError(f"--games must be 1..{MAX_GAMES:,}, not {games}.")
            slip_rate = slip_rate_argument(options["slips"])
            plan = read_plan(options["plan"], seats.players)
            result = simulate(
                clock, seats, plan, face_up, games, options["seed"], slip_rate=slip_rate
            )
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from None

        if options["json"]:
            self.stdout.write(json.dumps({**result.to_json(), "slip_rate": slip_rate}))
            return
        low, high = result.interval
        slipping = f", a decision slipping with chance {slip_rate:g}" if slip_rate else ""
        self.stdout.write(
            f"Pass rate {result.pass_rate:.3f} (95% {low:.3f}–{high:.3f}) over {result.games} "
            f"simulated games{slipping}."
        )
