"""What the solver's commands (``hint``, ``simulate``, ``odds``) share."""

from __future__ import annotations

from django.core.management.base import CommandParser


def add_table_arguments(parser: CommandParser) -> None:
    """The clock (an id or ``--clock-file``) and the seats' colours, which every solver
    command needs, read with ``rules.inputs.clock_from_argument`` and ``parse_colours``."""
    parser.add_argument("clock", nargs="?", help="a clock id (1-1 … 10-4, rebirth)")
    parser.add_argument("--clock-file", metavar="FILE", help="a clock definition (JSON)")
    parser.add_argument("--colours", required=True, help="the seats' colours, e.g. SSMM/MMSS/SMSM")
