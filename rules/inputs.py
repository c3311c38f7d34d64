"""Turning what a user typed or uploaded into rules objects — one function per input, shared
by the management commands and the REST API so both accept and refuse exactly the same
things. Every refusal is a RulesError with a sentence (CLI: exit 2; API: 400)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rules.catalogue import get_clock
from rules.clock import Clock, load_clock
from rules.errors import RulesError
from rules.layout import parse_layout
from rules.validate import Verdict, validate


def clock_from_argument(clock: str | None, clock_file: str | Path | None = None) -> Clock:
    """The clock named on a command line: a catalogue id, or a definition file
    (``--clock-file``), exactly one of the two."""
    if clock_file is not None:
        if clock is not None:
            raise RulesError("Give either a clock id or --clock-file, not both.", "clock")
        return load_clock(clock_file)
    if clock is None:
        raise RulesError("Give a clock id (like 1-1) or --clock-file.", "clock")
    return get_clock(clock)


def clock_from_value(value: object) -> Clock:
    """The clock in an API payload: a catalogue id string, or a definition object."""
    if isinstance(value, str):
        return get_clock(value)
    if isinstance(value, Mapping):
        return Clock.from_json(value)
    raise RulesError("'clock' is a clock id like \"1-1\" or a clock definition object.", "clock")


def check_layout(clock: Clock, layout_text: object, lang: str = "en") -> Verdict:
    """Parse ``layout_text`` (either public form) and validate it: what ``check_layout``
    and ``POST /api/layouts/check/`` answer."""
    if not isinstance(layout_text, str):
        raise RulesError("'layout' is text, like S3 | M5 | ...", "layout")
    return validate(clock, parse_layout(layout_text), lang)
