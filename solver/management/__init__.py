"""What the solver's commands (``hint``, ``simulate``, ``odds``) share."""

from __future__ import annotations

from django.core.management.base import CommandParser


def add_table_arguments(parser: CommandParser) -> None:
    """The clock (an id or ``--clock-file``) and the seats' colours, which every solver
    command needs, read with ``rules.inputs.clock_from_argument`` and ``parse_colours``."""
    parser.add_argument("clock", nargs="?", help="a clock id (1-1 … 10-4, rebirth)")
    parser.add_argument("--clock-file", metavar="FILE", help="a clock definition (JSON)")
    parser.add_argument("--colours", required=True, help="the seats' colours, e.g. SSMM/MMSS/SMSM")


def slip_rate_argument(text: str) -> float:
    """``--slips P``: a number from 0 to 0.5; anything else is the command's one-line error."""
    from solver.core.table.simulate import check_slip_rate

    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--slips must be a number from 0 to 0.5, not {text!r}.") from None
    try:
        return check_slip_rate(value)
    except ValueError:
        raise ValueError(f"--slips must be from 0 to 0.5, not {text}.") from None


def add_slips_argument(parser: CommandParser, default: float) -> None:
    parser.add_argument(
        "--slips",
        default=str(default),
        metavar="P",
        help=f"the chance that a decision slips, 0 to 0.5 (default {default:g}): half misread "
        "a face-down card by 2, half play a random move",
    )
