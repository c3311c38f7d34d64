"""Resolution: does a layout pass a clock? ``validate`` says which rules break, and why.

Choices documented for the API and the CLI:
- One violation per broken rule. ``empty_segment``, ``decreasing`` and ``over_cap`` name the
  first segment concerned in reading order (from the start segment); their message names
  every segment concerned.
- ``decreasing`` compares the non-empty segments only: an empty segment is already
  ``empty_segment``, and calling its 0 "decreasing" as well would only repeat it.
- Placement rules (e.g. ``first_cards``) are checked when the layout knows its play order
  (move form); otherwise they are listed in ``unchecked`` and do not make the verdict fail.
- A ``described`` rule (the table's own words for a rule Timekeeper does not know) is never
  judged: it is listed in ``unchecked`` with its text ("check yourselves"), and
  ``special_rules_known`` stays True: the table told us every rule of its clock.
- For a clock not transcribed yet, its known rules and the three base rules are checked,
  ``special_rules_known`` is False and a note says so.
"""

from __future__ import annotations

from rules.clock import Clock
from rules.errors import RulesError
from rules.i18n import check_lang, join_numbers, say
from rules.kinds import Resolution
from rules.layout import TWELVE_CARDS, Layout
from rules.verdict import Verdict, Violation

__all__ = ["Verdict", "Violation", "passes", "reading_order", "validate"]

_CHECK_YOURSELVES = {
    "en": "Timekeeper does not know this rule; check it yourselves: {rule}",
    "nl": "Timekeeper kent deze regel niet; controleer hem zelf: {rule}",
    "ja": "Timekeeperはこのルールを知りません。自分たちで確認してください：{rule}",
}
_EMPTY = {
    "en": "Segment {segments} has no card; every segment needs at least one.",
    "nl": "Bij segment {segments} ligt geen kaart; elk segment heeft er minstens één nodig.",
    "ja": "第{segments}区画にカードがありません。すべての区画に少なくとも1枚必要です。",
}
_EMPTY_MANY = {
    "en": "Segments {segments} have no card; every segment needs at least one.",
    "nl": "Bij de segmenten {segments} ligt geen kaart; elk segment heeft er minstens één nodig.",
    "ja": "第{segments}区画にカードがありません。すべての区画に少なくとも1枚必要です。",
}
_DECREASING = {
    "en": "Segment {segment} is worth {value}, less than the {previous} of segment {before}: "
    "from the start segment, values may only stay equal or rise.",
    "nl": "Segment {segment} is {value} waard, minder dan de {previous} van segment {before}: "
    "vanaf het startsegment mogen de waardes alleen gelijk blijven of stijgen.",
    "ja": "第{segment}区画の値{value}は、第{before}区画の値{previous}より小さくなっています。"
    "開始区画から値は同じか大きくならなければなりません。",
}
_OVER_CAP = {
    "en": "Segment {segments} is worth more than {cap} ({values}); no segment may exceed {cap}.",
    "nl": "Segment {segments} is meer dan {cap} waard ({values}); geen segment mag boven {cap} "
    "uitkomen.",
    "ja": "第{segments}区画の値が{cap}を超えています（{values}）。"
    "どの区画も{cap}を超えてはいけません。",
}
_OVER_CAP_MANY = {
    "en": "Segments {segments} are worth more than {cap} ({values}); no segment may exceed {cap}.",
    "nl": "De segmenten {segments} zijn meer dan {cap} waard ({values}); geen segment mag boven "
    "{cap} uitkomen.",
    "ja": "第{segments}区画の値が{cap}を超えています（{values}）。"
    "どの区画も{cap}を超えてはいけません。",
}
_NO_ORDER = {
    "en": "{rule} (The order of play is unknown: give the layout in move form to check it.)",
    "nl": "{rule} (De speelvolgorde is onbekend: geef de kaarten in zetvorm om dit te "
    "controleren.)",
    "ja": "{rule}（配置の順番が不明です。確認するには手順形式で入力してください。）",
}
_UNKNOWN_RULES = {
    "en": "The special rules of clock {clock} are not transcribed yet, so they are unknown: "
    "only the three rules of every clock were checked.",
    "nl": "De bijzondere regels van klok {clock} zijn nog niet overgenomen en dus onbekend: "
    "alleen de drie regels van elke klok zijn gecontroleerd.",
    "ja": "時計盤{clock}の特別ルールはまだ入力されていないため不明です。"
    "すべての時計盤に共通する3つのルールだけを確認しました。",
}


def reading_order(start: int) -> tuple[int, ...]:
    """Segment numbers read clockwise from ``start``: 3 → (3, 4, 5, 6, 1, 2)."""
    return tuple((start - 1 + offset) % 6 + 1 for offset in range(6))


def passes(clock: Clock, layout: Layout) -> bool:
    """True when ``layout`` passes ``clock``: the fast path for simulations (no wording).

    Placement rules are checked only if ``layout.moves`` is known, as in ``validate``.
    """
    sums = layout.sums
    start = clock.start - 1
    values = sums[start:] + sums[:start]
    if not all(layout.segments) or any(b < a for a, b in zip(values, values[1:], strict=False)):
        return False
    if clock.cap is not None and values[-1] > clock.cap:  # rising, so the last is the largest
        return False
    if not clock.rules:
        return True
    resolution = Resolution(layout, clock.start, values)
    return all(
        rule.holds(resolution)
        for rule in clock.rules
        if layout.moves is not None or not rule.restricts_placement
    )


def validate(clock: Clock, layout: Layout, lang: str = "en") -> Verdict:
    """The verdict on a complete layout (12 cards) for ``clock``, worded in ``lang``.

    Raises RulesError for an incomplete layout or an unknown language.
    """
    check_lang(lang)
    if not layout.complete:
        raise RulesError.from_wording(TWELVE_CARDS, "layout", count=len(layout.cards))
    order = reading_order(clock.start)
    sums = layout.sums
    values = tuple(sums[segment - 1] for segment in order)
    violations: list[Violation] = []

    empty = [segment for segment in order if not layout.segments[segment - 1]]
    if empty:
        wording = _EMPTY if len(empty) == 1 else _EMPTY_MANY
        message = say(wording, lang, segments=join_numbers(empty, lang))
        violations.append(Violation("empty_segment", empty[0], message))

    previous: int | None = None  # the last non-empty segment read
    for segment in order:
        if not layout.segments[segment - 1]:
            continue
        if previous is not None and sums[segment - 1] < sums[previous - 1]:
            message = say(
                _DECREASING,
                lang,
                segment=segment,
                value=sums[segment - 1],
                previous=sums[previous - 1],
                before=previous,
            )
            violations.append(Violation("decreasing", segment, message))
            break
        previous = segment

    if clock.cap is not None:
        over = [segment for segment in order if sums[segment - 1] > clock.cap]
        if over:
            wording = _OVER_CAP if len(over) == 1 else _OVER_CAP_MANY
            message = say(
                wording,
                lang,
                segments=join_numbers(over, lang),
                cap=clock.cap,
                values=", ".join(str(sums[segment - 1]) for segment in over),
            )
            violations.append(Violation("over_cap", over[0], message))

    unchecked: list[Violation] = []
    resolution = Resolution(layout, clock.start, values)
    for rule in clock.rules:
        if not rule.judged:
            message = say(_CHECK_YOURSELVES, lang, rule=rule.describe(lang))
            unchecked.append(
                Violation(rule.kind, rule.first_segment(), message, rule.describe(lang))
            )
            continue
        if rule.restricts_placement and layout.moves is None:
            message = say(_NO_ORDER, lang, rule=rule.describe(lang))
            unchecked.append(Violation(rule.kind, rule.first_segment(), message))
            continue
        violation = rule.check(resolution, lang)
        if violation is not None:
            violations.append(violation)

    notes = () if clock.transcribed else (say(_UNKNOWN_RULES, lang, clock=clock.name),)
    return Verdict(
        passed=not violations,
        values=values,
        violations=tuple(violations),
        unchecked=tuple(unchecked),
        special_rules_known=clock.transcribed,
        lang=lang,
        notes=notes,
    )
