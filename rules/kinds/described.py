"""``described {text, segment?}``: a rule Timekeeper does not know yet, kept in the table's
own words (1–200 characters, any language), at a segment or, without one, in the centre.

It is part of a definition like any other rule (stored, versioned, exported, drawn on the
face, counted in the rule limit) but it is never judged: ``validate`` lists it in
``unchecked`` with its text, the solver plans without it and says so. Its canonical form
(``normalised``) collapses whitespace, folds case and applies Unicode NFKC, so two tables
that typed the same words share a fingerprint; the group's own copy keeps the words as typed
(``as_shown``: whitespace collapsed, nothing folded).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from rules.i18n import say
from rules.kinds.base import Resolution, Rule, Segment, Text, register

_WORDING = {
    "en": "{text}",
    "nl": "{text}",
    "ja": "{text}",
}
_AT = {
    "en": "Segment {segment}: {text}",
    "nl": "Segment {segment}: {text}",
    "ja": "第{segment}区画：{text}",
}


def normalise_text(text: str) -> str:
    """The canonical form of a described rule's words: NFKC, case-folded, whitespace
    collapsed to single spaces and trimmed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@register
@dataclass(frozen=True, slots=True)
class Described(Rule):
    kind = "described"
    icon = "described"
    judged = False
    wording = _WORDING

    text: Text
    segment: Segment | None = None

    def normalised(self) -> Rule:
        return replace(self, text=normalise_text(self.text))

    def as_shown(self) -> Rule:
        # The capital letter the table typed is kept for its pages, hints and exports; only
        # the fingerprint compares folded words.
        return replace(self, text=" ".join(self.text.split()))

    def holds(self, resolution: Resolution) -> bool:
        """Never asked: ``validate`` does not judge a described rule. True so that code
        that checks every rule regardless never fails a layout on words it cannot read."""
        return True

    def explain(self, resolution: Resolution, lang: str) -> str:
        return self.describe(lang)

    def describe(self, lang: str = "en") -> str:
        text = " ".join(self.text.split())
        if self.segment is None:
            return text
        return say(_AT, lang, segment=self.segment, text=text)

    def label(self) -> str:
        return "?"
