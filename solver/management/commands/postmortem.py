"""``python manage.py postmortem CLOCK LAYOUT [--clock-file FILE] [--players N] [--json]
[--lang en|nl|ja]``

Was it winnable? Could the 12 cards of LAYOUT have passed the clock, if everyone had seen
every card; and one arrangement that would have passed (``solver.core.oracle.postmortem``).
``--json`` prints ``{"winnable", "witness", "placement_checked", "special_rules_known",
"unchecked"}``.
A layout in segment form is judged by the layout rules only; in move form by the placement
rules too, and with ``--players`` the order also says who held which card.

Exit status: 0 winnable, 1 not winnable, 2 bad input (one line on stderr, never a traceback)
— among it a layout without all 12 cards. The clock and layout are read exactly as
``check_layout`` reads them, whose command line this one mirrors.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.errors import RulesError
from rules.i18n import LANGUAGES
from rules.inputs import clock_from_argument
from solver.core.oracle.postmortem import postmortem_of_text

_CLOCK_AND_LAYOUT = {
    "en": "Give a CLOCK and a LAYOUT (quote the layout).",
    "nl": "Geef een CLOCK en een LAYOUT (zet de kaartverdeling tussen aanhalingstekens).",
    "ja": "CLOCKとLAYOUTを指定してください（配置は引用符で囲みます）。",
}
_PLAYERS = {
    "en": "--players is the table size: 2, 3 or 4.",
    "nl": "--players is het aantal spelers: 2, 3 of 4.",
    "ja": "--playersはプレイ人数（2、3、4）です。",
}
_LANG = {
    "en": "--lang is one of en, nl, ja.",
    "nl": "--lang is en, nl of ja.",
    "ja": "--langはen、nl、jaのいずれかです。",
}


class Command(BaseCommand):
    help = (
        "Was it winnable? Whether the 12 cards of a layout could have passed the clock, with "
        "one arrangement that passes: exit 0 winnable, 1 not, 2 bad input. LAYOUT is in "
        "segment form ('S3 | M5 | S2 M3 | ...', layout rules only) or move form "
        "('S3@1 M5@2 ...', placement rules too); quote it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "words",
            nargs="+",
            metavar="CLOCK LAYOUT",
            help="a clock id (1-1 … 10-4, rebirth) unless --clock-file is given, then the layout",
        )
        parser.add_argument("--clock-file", metavar="FILE", help="a clock definition (JSON)")
        parser.add_argument(
            "--players",
            metavar="N",
            help="the table size (2-4): with a layout in move form, the seats follow from "
            "the order",
        )
        parser.add_argument("--json", action="store_true", help="print the answer as JSON")
        # Checked here rather than with argparse's choices: a bad value is one line.
        parser.add_argument("--lang", default="en", help="message language: en, nl or ja")

    def handle(self, *args: Any, **options: Any) -> None:
        words: list[str] = options["words"]
        clock_file: str | None = options["clock_file"]
        lang = options["lang"] if options["lang"] in LANGUAGES else "en"
        try:
            if options["lang"] not in LANGUAGES:
                raise RulesError.from_wording(_LANG, "lang")
            players = _players(options["players"])
            if clock_file is None:
                if len(words) < 2:
                    raise RulesError.from_wording(_CLOCK_AND_LAYOUT)
                clock_id, layout_words = words[0], words[1:]
            else:
                clock_id, layout_words = None, words
            clock = clock_from_argument(clock_id, clock_file)
            # An unquoted move-form layout arrives as several words: join them back.
            answer = postmortem_of_text(clock, " ".join(layout_words), players)
        except RulesError as error:
            raise CommandError(error.in_language(lang), returncode=2) from None

        if options["json"]:
            self.stdout.write(json.dumps(answer.to_json(), ensure_ascii=False))
        else:
            self.stdout.write(answer.summary(lang))
        if not answer.winnable:
            self.stdout.flush()
            sys.exit(1)


def _players(value: str | None) -> int | None:
    if value is None:
        return None
    if value.strip() not in ("2", "3", "4"):
        raise RulesError.from_wording(_PLAYERS, "players")
    return int(value)
