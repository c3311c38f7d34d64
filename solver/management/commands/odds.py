"""``python manage.py odds CLOCK --colours C [--samples N] [--seed S] [--json] [--clock-file FILE]
[--base-rules]``

The probability that the 12 cards at a table with these colours admit a passing game, if
everyone could see every card (docs/api.md, "Command line"). Exact by default; ``--samples N``
estimates it from N deals with a 95% interval. ``--json`` prints
``{"odds": x, "exact": bool, "deals": n, "interval": [lo, hi]}``.
Bad input — colours that are not a table, an unknown clock, a clock file that is not a clock,
an untranscribed clock without ``--base-rules`` — one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.errors import RulesError
from rules.inputs import clock_from_argument
from rules.seats import parse_colours
from solver.core.oracle.compiled import base_rules_clock
from solver.core.oracle.odds import odds
from solver.management import add_table_arguments


class Command(BaseCommand):
    help = (
        "The odds that a table with these colours holds cards that can pass the clock, "
        "if everyone could see every card."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_table_arguments(parser)
        parser.add_argument(
            "--samples", type=int, default=None, help="estimate from N random deals"
        )
        parser.add_argument("--seed", type=int, default=0, help="random seed for --samples")
        parser.add_argument(
            "--base-rules",
            action="store_true",
            help="for an untranscribed clock: the odds under the three rules of every clock",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clock = clock_from_argument(options["clock"], options["clock_file"])
            seats = parse_colours(options["colours"])
        except RulesError as error:
            raise CommandError(error.message, returncode=2) from None
        definition: Any = clock.known_rules()  # the table's own words are not judged
        ignored = clock.described_texts()
        if not clock.transcribed:
            if not options["base_rules"]:
                source = (
                    f"--clock-file {options['clock_file']}" if options["clock_file"] else clock.id
                )
                raise CommandError(
                    f"Clock {clock.name} is not transcribed yet: its special rules are unknown. "
                    f"For the odds under the base rules only, run: python manage.py odds "
                    f"{source} --colours {seats.format()} --base-rules",
                    returncode=2,
                )
            definition = base_rules_clock(clock)
        samples = options["samples"]
        if samples is not None and samples < 1:
            raise CommandError("--samples must be at least 1.", returncode=2)
        try:
            result = odds(definition, seats, samples=samples, seed=options["seed"])
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from None

        if options["json"]:
            data = result.to_json()
            data.update(ignored_rules=list(ignored), odds_upper_bound=bool(ignored))
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        how = (
            f"exact, over all {result.deals:,} value sets"
            if result.exact
            else f"estimated from {result.deals:,} deals, 95% {result.interval[0]:.4f}–"
            f"{result.interval[1]:.4f}"
        )
        if not result.exact and samples is None:
            # Only a rule about who plays first makes the default answer a sample.
            how += "; the first-cards rule depends on who holds which card, so the odds are sampled"

        self.stdout.write(
            f"Odds {result.odds:.4f} that the cards at {seats.format()} can pass clock "
            f"{clock.name} with every card visible ({how})."
        )
        for text in ignored:
            self.stdout.write(f"At most that: the odds leave out the rule {text!r}.")
