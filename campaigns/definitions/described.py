"""Rules tables typed in their own words (kind ``described``): which ones the groups that
share with the community use, for the staff to learn which kinds to add next; and, once staff
marked some words as now expressible as a known kind, the structured rule a group's editor
offers in their place (never swapped without the group)."""

from __future__ import annotations

from dataclasses import dataclass, field

from campaigns.models import ClockTranscription, DescribedRuleKind
from rules.clock import Clock
from rules.errors import RulesError
from rules.kinds import Rule, rule_from_json
from rules.kinds.described import normalise_text


@dataclass
class InUse:
    """Some words used as a described rule of one clock: how many sharing groups use them
    (in their latest version), and one of those transcriptions to look at."""

    text: str  # normalised
    clock_id: str
    groups: int = 0
    example: int | None = None  # a ClockTranscription id
    typed: str = ""  # the words as one group typed them
    expressible_as: str = ""  # the kind staff marked, if any
    group_ids: set[int] = field(default_factory=set, repr=False)


def in_use() -> list[InUse]:
    """Every described rule in the latest definitions of the groups that share with the
    community, most used first."""
    found: dict[tuple[str, str], InUse] = {}
    rows = ClockTranscription.objects.filter(latest=True, group__share_with_community=True).only(
        "id", "group_id", "clock_id", "definition"
    )
    for row in rows.iterator():
        for raw in row.definition.get("rules", []):
            if not isinstance(raw, dict) or raw.get("kind") != "described":
                continue
            typed = str(raw.get("text", ""))
            key = (normalise_text(typed), row.clock_id)
            item = found.setdefault(key, InUse(key[0], row.clock_id, typed=typed, example=row.pk))
            item.group_ids.add(row.group_id)
    marked = dict(
        DescribedRuleKind.objects.filter(text__in={text for text, _ in found}).values_list(
            "text", "rule__kind"
        )
    )
    for item in found.values():
        item.groups = len(item.group_ids)
        item.expressible_as = str(marked.get(item.text) or "")
    return sorted(found.values(), key=lambda item: (-item.groups, item.clock_id, item.text))


@dataclass(frozen=True)
class Offer:
    """In the editor: the draft's rule at ``index`` (in the table's words) may become
    ``replacement``, a rule Timekeeper checks."""

    index: int
    words: str  # the described rule, as the table typed it
    replacement: Rule
    replacement_words: str  # the replacement in the reader's language


def offers(draft: Clock | None, lang: str) -> list[Offer]:
    """The structured rules staff offer for the described rules of ``draft``."""
    if draft is None:
        return []
    described = {
        index: normalise_text(rule.to_json()["text"])
        for index, rule in enumerate(draft.rules)
        if rule.kind == "described"
    }
    if not described:
        return []
    marked = dict(
        DescribedRuleKind.objects.filter(text__in=set(described.values())).values_list(
            "text", "rule"
        )
    )
    found = []
    for index, text in described.items():  # in the draft's order
        if text not in marked:
            continue
        try:
            replacement = rule_from_json(marked[text])
        except RulesError:  # a staff entry that no longer makes a rule: offer nothing
            continue
        words = draft.rules[index].describe(lang)
        found.append(Offer(index, words, replacement, replacement.describe(lang)))
    return found


def replaced(rules: list[dict[str, object]], index: int) -> list[dict[str, object]]:
    """``rules`` with the described rule at ``index`` replaced by the rule staff marked for
    its words; unchanged when there is none (a stale tap)."""
    if not 0 <= index < len(rules) or rules[index].get("kind") != "described":
        return rules
    text = normalise_text(str(rules[index].get("text", "")))
    mark = DescribedRuleKind.objects.filter(text=text).first()
    if mark is None:
        return rules
    return [*rules[:index], dict(mark.rule), *rules[index + 1 :]]
