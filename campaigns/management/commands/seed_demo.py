"""``python manage.py seed_demo --groups N --attempts M [--seed S] [--force]``: demo groups
with realistic, reproducible histories (``campaigns.demo``). Exit code 2 on bad input, or
when the database already holds real groups and ``--force`` is not given."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns import demo


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Fill the database with demo groups: players, sessions, attempts, skips, hints."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--groups", type=_positive, required=True, help="demo groups (≥ 1)")
        parser.add_argument(
            "--attempts", type=_positive, required=True, help="attempts in all (≥ 1)"
        )
        parser.add_argument("--seed", type=int, default=0, help="the same seed, the same data")
        parser.add_argument(
            "--force", action="store_true", help="also on a database holding real groups"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["force"] and demo.has_real_groups():
            raise CommandError(
                "This database holds groups that are not demo groups; "
                "add --force to seed it anyway.",
                returncode=2,
            )
        started = time.perf_counter()
        counts = demo.seed(options["groups"], options["attempts"], options["seed"])
        self.stdout.write(
            f"{counts.groups} groups, {counts.campaigns} campaigns, {counts.sessions} sessions, "
            f"{counts.attempts} attempts, {counts.skips} skips, {counts.retrievals} retrievals, "
            f"{counts.hints} hints in {time.perf_counter() - started:.1f} s"
        )
