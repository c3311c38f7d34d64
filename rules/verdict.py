"""What the rules engine says about a layout: the Verdict and its Violations.

Kept apart from ``validate`` so the rule kinds can build Violations without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.i18n import say


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule (or, in ``Verdict.unchecked``, one rule that could not be checked).

    ``rule`` is ``empty_segment``, ``decreasing``, ``over_cap`` or a special rule's kind;
    ``segment`` the first segment concerned (None for rules of the whole clock);
    ``message`` a sentence for the players in the verdict's language;
    ``text`` the table's own words of a ``described`` rule (never judged), else None.
    """

    rule: str
    segment: int | None
    message: str
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rule": self.rule,
            "segment": self.segment,
            "message": self.message,
        }
        if self.text is not None:
            data["text"] = self.text
        return data


_PASSED = {"en": "Passed.", "nl": "Geslaagd.", "ja": "クリア。"}
_FAILED = {"en": "Failed.", "nl": "Niet geslaagd.", "ja": "失敗。"}
_VALUES = {"en": "Values: {values}", "nl": "Waardes: {values}", "ja": "区画の値: {values}"}
_UNCHECKED = {
    "en": "Not checked: {message}",
    "nl": "Niet gecontroleerd: {message}",
    "ja": "未確認: {message}",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of ``rules.validate.validate``.

    ``passed`` is True when no checked rule is broken. It is conclusive only when
    ``unchecked`` is empty and ``special_rules_known`` is True (see ``conclusive``).
    ``values`` are the six segment sums read clockwise from the start segment.
    ``notes`` are sentences for people (e.g. that the clock's special rules are unknown).
    """

    passed: bool
    values: tuple[int, ...]
    violations: tuple[Violation, ...]
    unchecked: tuple[Violation, ...] = ()
    special_rules_known: bool = True
    lang: str = "en"
    notes: tuple[str, ...] = field(default=())

    @property
    def conclusive(self) -> bool:
        """True when every rule of the clock is known and was checked."""
        return self.special_rules_known and not self.unchecked

    def to_json(self) -> dict[str, Any]:
        """The public object of ``check_layout --json`` and ``POST /api/layouts/check/``."""
        return {
            "passed": self.passed,
            "values": list(self.values),
            "violations": [violation.to_json() for violation in self.violations],
            "unchecked": [item.to_json() for item in self.unchecked],
            "special_rules_known": self.special_rules_known,
        }

    def summary(self) -> str:
        """Several lines for people: the outcome, the values, each violation and note."""
        lines = [say(_PASSED if self.passed else _FAILED, self.lang)]
        lines.append(say(_VALUES, self.lang, values=", ".join(map(str, self.values))))
        lines.extend(f"- {violation.message}" for violation in self.violations)
        lines.extend(say(_UNCHECKED, self.lang, message=item.message) for item in self.unchecked)
        lines.extend(self.notes)
        return "\n".join(lines)
