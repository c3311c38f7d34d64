"""``python manage.py clocks [--json] [--lang en|nl|ja]``: the clock catalogue, and which
clocks are transcribed."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.catalogue import load_catalogue
from rules.i18n import LANGUAGES


class Command(BaseCommand):
    help = "List the clock catalogue: id, chapter, clock, transcribed or not, its rules."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the clock definitions")
        parser.add_argument("--lang", choices=LANGUAGES, default="en", help="rule wording language")

    def handle(self, *args: Any, **options: Any) -> None:
        clocks = load_catalogue().values()
        if options["json"]:
            self.stdout.write(json.dumps([clock.to_json() for clock in clocks], ensure_ascii=False))
            return
        self.stdout.write(f"{'id':<8} {'chapter':<7} {'clock':<5} {'transcribed':<11} rules")
        for clock in clocks:
            chapter = "-" if clock.chapter is None else str(clock.chapter)
            number = "-" if clock.number is None else str(clock.number)
            transcribed = "yes" if clock.transcribed else "no"
            summary = clock.summary(options["lang"])
            self.stdout.write(f"{clock.id:<8} {chapter:<7} {number:<5} {transcribed:<11} {summary}")
