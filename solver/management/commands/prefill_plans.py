"""``python manage.py prefill_plans --clock C [--players N] [--face-up F]``

Fills the plan book (``solver.plan_book``) for one clock: every class of colour patterns a
table of each size can see (``solver.core.search.symmetry``), for each face-up budget a campaign
gives (the players, plus one per flipped Bonus token) unless ``--face-up`` names one. The
clock is played as a hint would play it for a table using the shipped rules (the base rules
when its special rules are unknown); a clock with special rules first gets its own prior at
each table size (``solver.clock_priors``), which the patterns' searches start from.
Resumable: classes the book holds are skipped, so running it again after a stop carries on.
A progress bar goes to stderr; the last line says how many were computed. It uses every
core (the beat task uses one, and only while no hint waits). Bad input (an unknown clock, a
table size, a budget the table cannot have): one line on stderr, exit 2.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.catalogue import get_clock
from rules.errors import RulesError
from rules.game import PLAYER_COUNTS
from rules.seats import most_face_up
from solver import prefill

BAR = 30


class Command(BaseCommand):
    help = "Compute the plan book's answers for every colour pattern of a clock in advance."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clock", required=True, help="a clock id, like 2-1")
        parser.add_argument(
            "--players", type=int, choices=list(PLAYER_COUNTS), help="one table size only"
        )
        parser.add_argument("--face-up", type=int, help="one face-up budget only")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clock = get_clock(options["clock"])
        except RulesError as error:
            raise CommandError(error.message, returncode=2) from None
        players = [options["players"]] if options["players"] else list(PLAYER_COUNTS)
        face_up = options["face_up"]
        if face_up is not None:
            for n in players:
                if not 0 <= face_up <= most_face_up(n):
                    raise CommandError(
                        f"With {n} players the face-up budget is 0 to {most_face_up(n)}, "
                        f"not {face_up}.",
                        returncode=2,
                    )
        game = prefill.Game(clock, not clock.transcribed, clock.id)
        for n in prefill.priors_missing(game, players):
            self.stderr.write(f"Clock {clock.id}: its own prior at {n} players (about a minute).")
            prefill.compute_prior(game, n, threads=None)
        settings = prefill.settings_now()
        every = list(prefill.items(game, players, None if face_up is None else [face_up], settings))
        todo = prefill.missing(every)
        total, held = len(every), len(every) - len(todo)
        self.stderr.write(
            f"Clock {clock.id}: {total} patterns after symmetry, {held} already in the book, "
            f"{len(todo)} to compute."
        )
        started = time.monotonic()
        for number, item in enumerate(todo, start=1):
            self._bar(held + number - 1, total, started, number - 1, len(todo), item)
            prefill.compute(item, settings, threads=None)  # every core: nobody else waits
        self._bar(total, total, started, len(todo), len(todo), None)
        self.stderr.write("")
        seconds = time.monotonic() - started
        self.stdout.write(
            f"{len(todo)} computed in {seconds:.1f} s; the book holds all {total} patterns "
            f"of clock {clock.id}."
        )

    def _bar(
        self, done: int, total: int, started: float, computed: int, todo: int, item: Any
    ) -> None:
        filled = BAR * done // max(total, 1)
        elapsed = time.monotonic() - started
        left = f", about {elapsed / computed * (todo - computed):.0f} s left" if computed else ""
        now = (
            f" {item.players} players, face-up {item.face_up}, {item.pattern.colours}"
            if item is not None
            else ""
        )
        line = f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}{left}{now}"
        end = "\r" if sys.stderr.isatty() and item is not None else "\n"
        self.stderr.write(line.ljust(100), ending=end)
