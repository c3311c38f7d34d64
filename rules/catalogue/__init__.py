"""The 40 clocks and the Rebirth clock, one JSON definition file each in this folder.

Chapter 1 clock 1 is transcribed as the rules describe it; chapter 1 clocks 2–3 are known to
lift the 24 cap; every other clock is marked ``"transcribed": false`` until a group
transcribes it from its box (the campaign app's clock editor saves its own copies; these
files are the shipped defaults).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rules.clock import REBIRTH, Clock, load_clock
from rules.errors import RulesError
from rules.game import CHAPTERS, CLOCKS_PER_CHAPTER

FOLDER = Path(__file__).resolve().parent
CLOCK_IDS: tuple[str, ...] = (
    *(f"{chapter}-{number}" for chapter in CHAPTERS for number in range(1, CLOCKS_PER_CHAPTER + 1)),
    REBIRTH,
)


@cache
def _catalogue() -> dict[str, Clock]:
    clocks = {}
    for clock_id in CLOCK_IDS:
        clock = load_clock(FOLDER / f"{clock_id}.json")
        if clock.id != clock_id:  # a file copied without editing its id
            raise RulesError.from_wording(_WRONG_FILE, "catalogue", file=clock_id, id=clock.id)
        clocks[clock_id] = clock
    return clocks


def load_catalogue() -> dict[str, Clock]:
    """All 41 clocks by id, in play order (1-1 … 10-4, rebirth). Read once per process; the
    dict is a fresh copy, the clocks are immutable."""
    return dict(_catalogue())


def get_clock(clock_id: str) -> Clock:
    """The catalogue clock with that id (case and spaces ignored); RulesError if unknown."""
    key = clock_id.strip().lower() if isinstance(clock_id, str) else clock_id
    clock = _catalogue().get(key)
    if clock is None:
        raise RulesError.from_wording(_UNKNOWN_CLOCK, "clock", id=clock_id)
    return clock


_WRONG_FILE = {
    "en": "{file}.json defines clock {id}.",
    "nl": "{file}.json definieert klok {id}.",
    "ja": "{file}.jsonは時計盤{id}を定義しています。",
}
_UNKNOWN_CLOCK = {
    "en": "Unknown clock {id!r}: clocks are 1-1 … 10-4 and rebirth.",
    "nl": "Onbekende klok {id!r}: de klokken zijn 1-1 … 10-4 en rebirth.",
    "ja": "不明な時計盤{id!r}です。時計盤は1-1〜10-4とrebirthです。",
}
