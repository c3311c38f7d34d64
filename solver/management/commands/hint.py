"""``python manage.py hint CLOCK --colours C [--face-up N] [--seed S] [--json] [--clock-file FILE]
[--lang en|nl|ja] [--effort X] [--base-rules] [--names "Ann,Bea,Cas"] [--slips P]``

Prints the recommended plan as said aloud (three lines) and its fine print, its simulated
pass rate with a 95% interval — clean and with a decision slipping with chance P (default
0.05) — the other plans offered, the baseline plan's rate and the perfect-information odds
(docs/api.md, "Command line"). The same core call as the Celery task
(``solver.core.search.search.recommend``), from the same start: the clock's own prior where the
prefill has stored it (``solver.clock_priors``), else the table size's. Bad input: one line
on stderr, exit 2, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from rules.clock import Clock
from rules.errors import RulesError
from rules.i18n import LANGUAGES
from solver import clock_priors
from solver.core.search.genes import Genes
from solver.core.search.search import SLIP_RATE, recommend
from solver.core.table.simulate import table_from_arguments
from solver.core.words import plan_speech
from solver.errors import HintError
from solver.hint_inputs import parse_names
from solver.management import add_slips_argument, add_table_arguments, slip_rate_argument
from solver.results import with_ignored_rules


class Command(BaseCommand):
    help = "Recommend a silent-play plan for a clock and the seats' colours."

    def add_arguments(self, parser: CommandParser) -> None:
        add_table_arguments(parser)
        parser.add_argument(
            "--face-up", type=int, default=None, help="face-up cards allowed (default: players)"
        )
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        parser.add_argument(
            "--effort", type=float, default=1.0, help="search effort: 1 takes a few seconds"
        )
        parser.add_argument(
            "--base-rules",
            action="store_true",
            help="for an untranscribed clock: use the base rules only",
        )
        parser.add_argument(
            "--names",
            help="the players' names in seat (play) order, separated by commas: Ann,Bea,Cas",
        )
        add_slips_argument(parser, SLIP_RATE)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of words")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clock, seats, face_up = table_from_arguments(
                options["clock"],
                options["clock_file"],
                options["colours"],
                options["face_up"],
                options["base_rules"],
            )
            if not 0 < options["effort"] <= 100:
                raise ValueError("--effort must be above 0 and at most 100.")
            names: tuple[str, ...] = ()
            if options["names"] is not None:
                with translation.override(options["lang"]):
                    names = parse_names(options["names"].split(","), seats.players)
            slip_rate = slip_rate_argument(options["slips"])
            hint = recommend(
                clock.known_rules(),
                seats,
                face_up,
                seed=options["seed"],
                effort=options["effort"],
                names=names or None,
                slip_rate=slip_rate,
                prior=_stored_prior(clock, options["base_rules"], seats.players),
            )
        except RulesError as error:
            raise CommandError(error.in_language(options["lang"]), returncode=2) from None
        except HintError as error:
            raise CommandError(f"--names: {error.message}", returncode=2) from None
        except ValueError as error:
            raise CommandError(str(error), returncode=2) from None

        result = with_ignored_rules(hint.to_json(options["lang"]), clock, options["lang"])
        speech = plan_speech(hint.plan, clock, seats, face_up, options["lang"], names or None)
        data: dict[str, Any] = {**result, **speech.to_json()}
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        low, high = data["interval"]
        for line in speech.lines:
            self.stdout.write(line)
        self.stdout.write("")
        for detail in speech.details:
            self.stdout.write(f"- {detail}")
        self.stdout.write("")
        slow, shigh = data["interval_with_slips"]
        with translation.override(options["lang"]):
            self.stdout.write(
                _(
                    "Pass rate %(rate)s (95%% %(low)s–%(high)s, %(games)s simulated games) if "
                    "everyone plays it as said; %(with_slips)s (95%% %(slow)s–%(shigh)s) with a "
                    "slip at %(slip_rate)s of the decisions; baseline plan %(baseline)s; odds "
                    "with every card visible %(odds)s."
                )
                % {
                    "rate": f"{data['pass_rate']:.3f}",
                    "low": f"{low:.3f}",
                    "high": f"{high:.3f}",
                    "games": data["games"],
                    "with_slips": f"{data['pass_rate_with_slips']:.3f}",
                    "slow": f"{slow:.3f}",
                    "shigh": f"{shigh:.3f}",
                    "slip_rate": f"{data['slip_rate']:g}",
                    "baseline": f"{data['baseline_rate']:.3f}",
                    "odds": _("unknown") if data["odds"] is None else f"{data['odds']:.3f}",
                }
            )
            for text in data["ignored_rules"]:
                self.stdout.write(
                    _("An upper bound: the plan and the odds leave out the rule %(rule)s.")
                    % {"rule": repr(text)}
                )
        self.stdout.write(f"Plan: {json.dumps(data['plan'])}")
        for other in data["alternatives"]:
            self.stdout.write(
                f"{' / '.join(other['kinds'])}: clean {other['pass_rate']:.3f}, with slips "
                f"{other['pass_rate_with_slips']:.3f}, {other['sentences']} sentences: "
                f"{json.dumps(other['plan'])}"
            )


def _stored_prior(clock: Clock, base_rules: bool, players: int) -> Genes | None:
    """The clock's own prior as a job would start from it (``clock_priors.for_hint``); None
    where none is stored, or where this database has no table for it yet (the command then
    plans as on a clock the prefill has not reached)."""
    try:
        return clock_priors.genes_of(clock_priors.for_hint(clock, base_rules, players))
    except DatabaseError:
        return None
