"""The clock face as an accessible inline SVG, for the campaign pages and the hints.

Six ring segments numbered 1–6 clockwise from one o'clock; the clock hand points at the
start segment; each special rule is a badge (its short label) with its wording in a
``<title>``; optionally a layout's cards and sums and target values per segment. Scales to
any width (viewBox only, no pixel size); all text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from rules.canonical import Differences
from rules.cards import Colour
from rules.clock import Clock
from rules.i18n import check_lang, say
from rules.layout import SEGMENTS, Layout

OUTER, INNER = 100.0, 34.0
_SUN_INK, _MOON_INK = "#a34f00", "#24408e"
_DIFFERS_INK = "#c2185b"  # what sets a definition apart from the group's own
_FILLS = ("#f6f0e4", "#ece3d0")

_WORDS = {
    "clock": {"en": "Clock {name}", "nl": "Klok {name}", "ja": "時計盤{name}"},
    "segment": {"en": "Segment {n}", "nl": "Segment {n}", "ja": "第{n}区画"},
    "start": {
        "en": "The clock hand points to segment {n}: values are read from there.",
        "nl": "De klokwijzer wijst naar segment {n}: de waardes worden vanaf daar gelezen.",
        "ja": "時計の針は第{n}区画を指しています。値はそこから読みます。",
    },
    "cards": {"en": "cards {cards}", "nl": "kaarten {cards}", "ja": "カード {cards}"},
    "no_cards": {"en": "no card", "nl": "geen kaart", "ja": "カードなし"},
    "value": {"en": "value {value}", "nl": "waarde {value}", "ja": "値 {value}"},
    "target": {"en": "target {target}", "nl": "doel {target}", "ja": "目標 {target}"},
    "no_cap": {
        "en": "Values may exceed 24 on this clock.",
        "nl": "Waardes mogen op deze klok boven de 24 uitkomen.",
        "ja": "この時計盤では値が24を超えてもかまいません。",
    },
    "cap": {
        "en": "No segment may exceed {cap}.",
        "nl": "Geen segment mag boven {cap} uitkomen.",
        "ja": "どの区画も{cap}を超えてはいけません。",
    },
    "unknown": {
        "en": "The special rules of this clock are not transcribed yet.",
        "nl": "De bijzondere regels van deze klok zijn nog niet overgenomen.",
        "ja": "この時計盤の特別ルールはまだ入力されていません。",
    },
    "rules": {"en": "Rules: {rules}", "nl": "Regels: {rules}", "ja": "ルール: {rules}"},
}


def _point(radius: float, degrees: float) -> tuple[float, float]:
    """Clockwise from twelve o'clock, SVG y pointing down."""
    radians = math.radians(degrees)
    return radius * math.sin(radians), -radius * math.cos(radians)


def _xy(radius: float, degrees: float) -> str:
    x, y = _point(radius, degrees)
    return f'x="{x:.1f}" y="{y:.1f}"'


def _sector(segment: int) -> str:
    a0, a1 = (segment - 1) * 60.0, segment * 60.0
    (x0, y0), (x1, y1) = _point(OUTER, a0), _point(OUTER, a1)
    (x2, y2), (x3, y3) = _point(INNER, a1), _point(INNER, a0)
    return (
        f"M{x0:.1f},{y0:.1f} A{OUTER:.0f},{OUTER:.0f} 0 0 1 {x1:.1f},{y1:.1f} "
        f"L{x2:.1f},{y2:.1f} A{INNER:.0f},{INNER:.0f} 0 0 0 {x3:.1f},{y3:.1f} Z"
    )


def _text(attrs: str, content: str, size: float, extra: str = "") -> str:
    return (
        f'<text {attrs} font-size="{size}" text-anchor="middle" dominant-baseline="central"'
        f"{extra}>{escape(content)}</text>"
    )


# A rule symbol: its label, its sentence, its kind, and whether it is highlighted.
_Badge = tuple[str, str, str, bool]


def _badge(
    x: float, y: float, radius: float, label: str, title: str, kind: str, differs: bool = False
) -> str:
    size = 7.0 if len(label) <= 3 else max(3.5, 7.0 * 3 / len(label))
    ink, width, css = (_DIFFERS_INK, 2.5, "rule differs") if differs else ("#5b4a2f", 1, "rule")
    return (
        f'<g class="{css}" data-kind="{escape(kind)}"><title>{escape(title)}</title>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="#fffdf8" stroke="{ink}" '
        f'stroke-width="{width}"/>'
        + _text(f'x="{x:.1f}" y="{y:.1f}"', label, size, ' font-weight="600" fill="#3b2f1c"')
        + "</g>"
    )


def _targets_by_segment(
    targets: Mapping[int, float] | Sequence[float] | None,
) -> dict[int, float]:
    if targets is None:
        return {}
    if isinstance(targets, Mapping):
        return {int(segment): value for segment, value in targets.items()}
    return dict(zip(SEGMENTS, targets, strict=False))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def clock_svg(
    clock: Clock,
    layout: Layout | None = None,
    lang: str = "en",
    targets: Mapping[int, float] | Sequence[float] | None = None,
    differences: Differences | None = None,
) -> str:
    """An ``<svg>`` element (string) showing ``clock``; with ``layout`` its cards (Sun and
    Moon inks, face-up cards bold) and sums; with ``targets`` (segment → value, or six
    values in segment order) the agreed targets; with ``differences`` (this clock against
    another definition) the rules, hand and limit that differ drawn in a contrasting ink
    with class ``differs``. Text in ``lang``."""
    check_lang(lang)
    differs = differences or Differences()
    by_segment: dict[int | None, list[_Badge]] = {}
    for rule in clock.rules:
        for segment, label in rule.anchors():
            badge = (label, rule.describe(lang), rule.kind, differs.highlights(rule))
            by_segment.setdefault(segment, []).append(badge)
    target_values = _targets_by_segment(targets)

    summary = [say(_WORDS["start"], lang, n=clock.start)]
    if clock.cap is None:
        summary.append(say(_WORDS["no_cap"], lang))
    else:
        summary.append(say(_WORDS["cap"], lang, cap=clock.cap))
    summary.extend(rule.describe(lang) for rule in clock.rules)
    if not clock.transcribed:
        summary.append(say(_WORDS["unknown"], lang))

    title = say(_WORDS["clock"], lang, name=clock.name)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-120 -120 240 240" role="img" '
        f'class="clock-face" font-family="system-ui, sans-serif" data-clock="{escape(clock.id)}">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(' '.join(summary))}</desc>",
    ]
    for segment in SEGMENTS:
        parts.append(_segment(clock, segment, layout, lang, by_segment, target_values))
    # The start segment's outline last, so its neighbours' strokes do not cover it.
    outline = (
        (_DIFFERS_INK, "start-outline differs") if differs.start else ("#5b4a2f", "start-outline")
    )
    parts.append(
        f'<path d="{_sector(clock.start)}" fill="none" stroke="{outline[0]}" stroke-width="3" '
        f'class="{outline[1]}"/>'
    )
    parts.append(_centre(clock, lang, by_segment.get(None, []), differs.cap))
    parts.append("</svg>")
    return "".join(parts)


def _segment(
    clock: Clock,
    segment: int,
    layout: Layout | None,
    lang: str,
    by_segment: Mapping[int | None, list[_Badge]],
    targets: Mapping[int, float],
) -> str:
    middle = (segment - 1) * 60.0 + 30.0
    is_start = segment == clock.start
    badges = by_segment.get(segment, [])
    about = [say(_WORDS["segment"], lang, n=segment)]
    if layout is not None:
        group = layout.segments[segment - 1]
        cards = " ".join(str(card) for card in group)
        about.append(
            say(_WORDS["cards"], lang, cards=cards) if group else say(_WORDS["no_cards"], lang)
        )
        about.append(say(_WORDS["value"], lang, value=layout.sums[segment - 1]))
    if segment in targets:
        about.append(say(_WORDS["target"], lang, target=_number(targets[segment])))
    if badges:
        about.append(say(_WORDS["rules"], lang, rules=" ".join(badge[1] for badge in badges)))

    out = [
        f'<g class="segment{" start" if is_start else ""}" data-segment="{segment}">',
        f"<title>{escape('; '.join(about))}</title>",
        f'<path d="{_sector(segment)}" fill="{_FILLS[segment % 2]}" stroke="#5b4a2f" '
        'stroke-width="1"/>',
        _text(_xy(88, middle), str(segment), 10, ' font-weight="700" fill="#5b4a2f"'),
        "</g>",
    ]
    # Rule symbols sit on the rim of their segment, as printed on the clocks.
    spread = 15.0
    for index, (label, title, kind, highlighted) in enumerate(badges):
        angle = middle + (index - (len(badges) - 1) / 2) * spread
        x, y = _point(110, angle)
        out.append(_badge(x, y, 8, label, title, kind, highlighted))
    lines = _lines(layout, segment, targets)
    if lines:
        # Stacked vertically around one anchor, so side segments read as well as top ones.
        x, y = _point(60, middle)
        top = y - (len(lines) - 1) * 3.6
        for row, line in enumerate(lines):
            out.append(
                f'<text x="{x:.1f}" y="{top + row * 7.2:.1f}" text-anchor="middle" '
                f'dominant-baseline="central" {line}</text>'
            )
    return "".join(out)


def _lines(layout: Layout | None, segment: int, targets: Mapping[int, float]) -> list[str]:
    """The text lines of a segment (attributes after ``<text ...`` and content): its cards,
    three a line, Sun and Moon in their inks and face-up cards bold and underlined; its
    sum; its target."""
    lines = []
    if layout is not None:
        group = layout.segments[segment - 1]
        for start in range(0, len(group), 3):
            spans = []
            for card in group[start : start + 3]:
                ink = _SUN_INK if card.colour is Colour.SUN else _MOON_INK
                face_up = card in layout.face_up
                weight = ' font-weight="700" text-decoration="underline"' if face_up else ""
                spans.append(f'<tspan fill="{ink}"{weight}>{escape(str(card))}</tspan>')
            lines.append(f'font-size="6">{" ".join(spans)}')
        lines.append(f'font-size="7" font-weight="700" class="sum">Σ{layout.sums[segment - 1]}')
    if segment in targets:
        lines.append(f'font-size="6" fill="#5b4a2f" class="target">→{_number(targets[segment])}')
    return lines


def _centre(clock: Clock, lang: str, badges: list[_Badge], cap_differs: bool = False) -> str:
    angle = (clock.start - 1) * 60.0 + 30.0
    tip = _point(INNER - 1, angle)
    base = _point(INNER - 9, angle)
    left, right = _point(INNER - 11, angle - 9), _point(INNER - 11, angle + 9)
    out = [
        f'<circle cx="0" cy="0" r="{INNER:.0f}" fill="#fffdf8" stroke="#5b4a2f" stroke-width="1"/>',
        '<g class="hand"><title>'
        + escape(say(_WORDS["start"], lang, n=clock.start))
        + "</title>"
        + f'<line x1="0" y1="0" x2="{base[0]:.1f}" y2="{base[1]:.1f}" stroke="#5b4a2f" '
        'stroke-width="2.5" stroke-linecap="round"/>'
        + f'<polygon points="{tip[0]:.1f},{tip[1]:.1f} {left[0]:.1f},{left[1]:.1f} '
        f'{right[0]:.1f},{right[1]:.1f}" fill="#5b4a2f"/>'
        + '<circle cx="0" cy="0" r="3" fill="#5b4a2f"/></g>',
    ]
    extra: list[_Badge] = list(badges)
    if clock.cap is None:
        extra.append(("∞", say(_WORDS["no_cap"], lang), "no_cap", cap_differs))
    if not clock.transcribed:
        extra.append(("?", say(_WORDS["unknown"], lang), "unknown", False))
    # Centre symbols on a small arc facing away from the hand, so neither hides the other.
    shown = extra[:5]
    for index, (label, title, kind, highlighted) in enumerate(shown):
        x, y = _point(19, angle + 180 + (index - (len(shown) - 1) / 2) * 40)
        out.append(_badge(x, y, 6.5, label, title, kind, highlighted))
    return "".join(out)
