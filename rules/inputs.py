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

_BOTH_CLOCKS = {
    "en": "Give either a clock id or --clock-file, not both.",
    "nl": "Geef een klok-id of --clock-file, niet allebei.",
    "ja": "時計盤のIDか--clock-fileのどちらか一方を指定してください。",
}
_NO_CLOCK = {
    "en": "Give a clock id (like 1-1) or --clock-file.",
    "nl": "Geef een klok-id (zoals 1-1) of --clock-file.",
    "ja": "時計盤のID（1-1など）か--clock-fileを指定してください。",
}
_CLOCK_VALUE = {
    "en": "'clock' is a clock id like \"1-1\" or a clock definition object.",
    "nl": "'clock' is een klok-id zoals \"1-1\" of een klokdefinitie-object.",
    "ja": '「clock」は"1-1"のような時計盤のIDか、時計盤の定義オブジェクトです。',
}
_LAYOUT_TEXT = {
    "en": "'layout' is text, like S3 | M5 | ...",
    "nl": "'layout' is tekst, zoals S3 | M5 | ...",
    "ja": "「layout」はS3 | M5 | ...のようなテキストです。",
}


def clock_from_argument(clock: str | None, clock_file: str | Path | None = None) -> Clock:
    """The clock named on a command line: a catalogue id, or a definition file
    (``--clock-file``), exactly one of the two."""
    if clock_file is not None:
        if clock is not None:
            raise RulesError.from_wording(_BOTH_CLOCKS, "clock")
        return load_clock(clock_file)
    if clock is None:
        raise RulesError.from_wording(_NO_CLOCK, "clock")
    return get_clock(clock)


def clock_from_value(value: object) -> Clock:
    """The clock in an API payload: a catalogue id string, or a definition object."""
    if isinstance(value, str):
        return get_clock(value)
    if isinstance(value, Mapping):
        return Clock.from_json(value)
    raise RulesError.from_wording(_CLOCK_VALUE, "clock")


def check_layout(clock: Clock, layout_text: object, lang: str = "en") -> Verdict:
    """Parse ``layout_text`` (either public form) and validate it: what ``check_layout``
    and ``POST /api/layouts/check/`` answer."""
    if not isinstance(layout_text, str):
        raise RulesError.from_wording(_LAYOUT_TEXT, "layout")
    return validate(clock, parse_layout(layout_text), lang)
