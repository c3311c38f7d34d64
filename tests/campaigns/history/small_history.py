"""A small valid history (one campaign, one session, one failed attempt at 1-1) for the
import tests to change one value of."""

from __future__ import annotations

import copy
from typing import Any

from campaigns.history import exports

EVENT: dict[str, Any] = {
    "event": "failed",
    "clock": "1-1",
    "players": 3,
    "session": 0,
    "layout": "",
    "opener": None,
    "duration_min": 12,
    "notes": "",
}


def small_history(**changes: Any) -> dict[str, Any]:
    """The history, a fresh copy, with ``changes`` to its top-level keys."""
    history = {
        "format": exports.FORMAT,
        "version": exports.VERSION,
        "name": "Imported table",
        "players": ["Ann", "Ben", "Cleo"],
        "transcriptions": [],
        "campaigns": [
            {
                "kind": "normal",
                "passed_at_start": [],
                "sessions": [{"date": "2026-11-30", "players": ["Ann", "Ben"], "notes": ""}],
                "history": [dict(EVENT)],
            }
        ],
    }
    history.update(changes)
    return copy.deepcopy(history)
