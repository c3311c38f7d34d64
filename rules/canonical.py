"""One canonical form per clock definition, so tables that typed the same rules can find
each other.

Two groups transcribing a clock from their boxes type its rules in whatever order they read
them, may list a forbidden value's alternatives differently, and may leave defaults out.
The canonical form fills the defaults in (start 1, cap 24, chapter and number from the id),
normalises each rule's parameters (``Rule.normalised``), drops a rule typed twice and sorts
the rules. Equal definitions then give equal JSON and an equal ``fingerprint``; any real
difference (a hand, the 24 limit, one parameter of one rule) gives another fingerprint.

The campaigns app stores the fingerprint with every transcription and counts the groups
behind each one; the clock faces highlight ``differences`` between two definitions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from rules.clock import Clock
from rules.kinds import Rule

FINGERPRINT_LENGTH = 12  # hex digits: short enough to read out, and unique within a clock


def _rule_key(rule: Rule) -> str:
    return json.dumps(rule.to_json(), sort_keys=True, separators=(",", ":"))


def canonical(clock: Clock) -> Clock:
    """``clock`` in canonical form: each rule normalised, duplicates dropped, rules sorted
    (by kind, then parameters), marked transcribed (a definition someone typed is what they
    read in their box). ``canonical(canonical(c)) == canonical(c)``."""
    rules = {_rule_key(rule.normalised()): rule.normalised() for rule in clock.rules}
    return replace(clock, rules=tuple(rules[key] for key in sorted(rules)), transcribed=True)


def as_typed(clock: Clock) -> Clock:
    """The canonical form with each rule as its group typed it (``Rule.as_shown``): the same
    rules in the same order, but a rule in the table's own words keeps its capital letters.
    What a group's version stores and shows; ``canonical(as_typed(c)) == canonical(c)``, so
    its fingerprint is the canonical one."""
    typed: dict[str, Rule] = {}
    for rule in clock.rules:
        typed.setdefault(_rule_key(rule.normalised()), rule)
    ordered = canonical(clock).rules
    return replace(canonical(clock), rules=tuple(typed[_rule_key(r)].as_shown() for r in ordered))


def canonical_json(clock: Clock) -> dict[str, Any]:
    """The canonical definition as the public clock JSON object, every key present."""
    return canonical(clock).to_json()


def canonical_text(clock: Clock) -> str:
    """The canonical JSON as compact text with sorted keys: the bytes the fingerprint hashes."""
    return json.dumps(canonical_json(clock), sort_keys=True, separators=(",", ":"))


def fingerprint(clock: Clock) -> str:
    """A short name for the canonical definition: the first hex digits of its SHA-256."""
    digest = hashlib.sha256(canonical_text(clock).encode("utf-8")).hexdigest()
    return digest[:FINGERPRINT_LENGTH]


@dataclass(frozen=True)
class Differences:
    """How a definition differs from another (``theirs`` against ``ours``): the rules only
    theirs has (drawn highlighted on their face), the rules only ours has (listed, as they
    cannot be drawn on their face), and whether the hand or the 24 limit differ."""

    added: tuple[Rule, ...] = ()
    missing: tuple[Rule, ...] = ()
    start: bool = False
    cap: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.missing or self.start or self.cap)

    def highlights(self, rule: Rule) -> bool:
        """True for a rule of ``theirs`` that ``ours`` does not have (compared normalised)."""
        return rule.normalised() in self.added


def differences(theirs: Clock, ours: Clock | None) -> Differences:
    """What sets ``theirs`` apart from ``ours``; against no definition at all, nothing is
    highlighted (every rule would be)."""
    if ours is None:
        return Differences()
    mine, other = canonical(ours), canonical(theirs)
    return Differences(
        added=tuple(rule for rule in other.rules if rule not in mine.rules),
        missing=tuple(rule for rule in mine.rules if rule not in other.rules),
        start=mine.start != other.start,
        cap=mine.cap != other.cap,
    )
