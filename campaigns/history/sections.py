"""Extra sections of an exported history, kept by other apps.

A group's history holds things campaigns does not own: the solver's hints (with their
results and pass curves, which the calibration and the table's slip rate are read from).
Campaigns may not import the solver (docs/architecture.md), so the solver registers its
section here when Django loads (``solver.apps``), as it registers its "was it winnable?"
judge (``campaigns.winnable``). A section is a top-level key of the JSON history, written
by ``export``, checked by ``check`` before anything is written (a refusal raises
``CampaignError``, field ``history``) and restored by ``write`` in the transaction that
shows the imported group to its owner: all or nothing, with the rest of the history.

Rows of a section point at the history by position, never by database id: a campaign is
its index in ``campaigns``, an attempt the index of its event in that campaign's
``history`` (``Positions`` on the way out, ``Restored`` on the way in).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from campaigns.models import Attempt, Campaign, Group


@dataclass
class Positions:
    """Where the exported history put each campaign and attempt of the group."""

    campaigns: dict[int, int] = field(default_factory=dict)  # campaign id -> index
    attempts: dict[int, tuple[int, int]] = field(default_factory=dict)  # id -> (campaign, event)


@dataclass
class Restored:
    """What an import made of the history's campaigns and attempts, by position."""

    campaigns: list[Campaign] = field(default_factory=list)
    attempts: dict[tuple[int, int], Attempt] = field(default_factory=dict)


# The group and where its rows are -> the section's JSON.
Export = Callable[[Group, Positions], Any]
# The section as uploaded, and the rest of the history as ``check_history`` validated it ->
# the section checked (CampaignError, field "history", when it is not valid).
Check = Callable[[Any, dict[str, Any]], Any]
# The new group, its owner, the checked section and the rows made of the history.
Write = Callable[[Group, User, Any, Restored], None]


@dataclass(frozen=True)
class Section:
    name: str
    export: Export
    check: Check
    write: Write


_sections: dict[str, Section] = {}


def register_section(name: str, export: Export, check: Check, write: Write) -> None:
    """Add (or replace) the section ``name`` (the solver calls this once, on start)."""
    _sections[name] = Section(name, export, check, write)


def sections() -> list[Section]:
    """The registered sections, in the order they were registered."""
    return list(_sections.values())
