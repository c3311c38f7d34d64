"""``python manage.py check_layout CLOCK LAYOUT [--json] [--clock-file FILE] [--lang en|nl|ja]``

Exit status: 0 passed, 1 failed, 2 bad input (one line on stderr, never a traceback).
The parsing and checking live in ``rules.inputs`` so the API answers exactly the same.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.errors import RulesError
from rules.i18n import LANGUAGES
from rules.inputs import check_layout, clock_from_argument

_CLOCK_AND_LAYOUT = {
    "en": "Give a CLOCK and a LAYOUT (quote the layout).",
    "nl": "Geef een CLOCK en een LAYOUT (zet de kaartverdeling tussen aanhalingstekens).",
    "ja": "CLOCKとLAYOUTを指定してください（配置は引用符で囲みます）。",
}


class Command(BaseCommand):
    help = (
        "Check a layout against a clock: exit 0 when it passes, 1 when it fails, 2 for bad "
        "input. LAYOUT is in segment form ('S3 | M5 | S2 M3 | ...') or move form "
        "('S3@1 M5@2 ...'); quote it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "words",
            nargs="+",
            metavar="CLOCK LAYOUT",
            help="a clock id (1-1 … 10-4, rebirth) unless --clock-file is given, then the layout",
        )
        parser.add_argument("--clock-file", metavar="FILE", help="a clock definition (JSON)")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
        parser.add_argument("--lang", choices=LANGUAGES, default="en", help="message language")

    def handle(self, *args: Any, **options: Any) -> None:
        words: list[str] = options["words"]
        clock_file: str | None = options["clock_file"]
        try:
            if clock_file is None:
                if len(words) < 2:
                    raise RulesError.from_wording(_CLOCK_AND_LAYOUT)
                clock_id, layout_words = words[0], words[1:]
            else:
                clock_id, layout_words = None, words
            clock = clock_from_argument(clock_id, clock_file)
            # An unquoted move-form layout arrives as several words: join them back.
            verdict = check_layout(clock, " ".join(layout_words), options["lang"])
        except RulesError as error:
            raise CommandError(error.in_language(options["lang"]), returncode=2) from None

        if options["json"]:
            self.stdout.write(json.dumps(verdict.to_json(), ensure_ascii=False))
        else:
            self.stdout.write(verdict.summary())
        if not verdict.passed:
            self.stdout.flush()
            sys.exit(1)
