"""A plan said aloud, in English, Dutch and Japanese, the way a player would put it.

Only things a table may say in the discussion phase appear here: targets, who covers which
segment, how to read a face-down card, when to play face up, who opens. What the table says
aloud is at most three short lines (``plan_speech``): the targets; who opens, who alone
covers a segment and which card goes alone on a segment (``Plan.lone``); how many cards may
go face up, and when. A plan of the exactly-twelve convention (``Plan.exact``) says that
convention in three lines instead. Everything else (the clock's other rules, value bands,
how to read a face-down card, keeping the totals rising) is the fine print, said in plain
words behind "Why / details". Players are named when the table gives its names (plain
strings, in seat order), else called by their seat.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cards import Colour
from rules.clock import Clock
from rules.i18n import LANGUAGES, join_numbers, join_words
from rules.seats import Seats
from solver.core.table import exact
from solver.core.table.plans import (
    AVERAGE_CARD,
    SEGMENTS,
    Plan,
    equal_positions,
    reading_order,
    rule_params,
)

_T: dict[str, dict[str, str]] = {
    "seat": {"en": "Seat {n}", "nl": "Stoel {n}", "ja": "席{n}"},
    # Line 1: the targets.
    "aim": {
        "en": "Aim for about {values}.",
        "nl": "Mik op ongeveer {values}.",
        "ja": "目標はだいたい{values}。",
    },
    "aim_split": {
        "en": "Aim for about {low}, then {high}.",
        "nl": "Mik op ongeveer {low}, daarna {high}.",
        "ja": "目標はだいたい{low}、そのあと{high}。",
    },
    "reading_from": {
        "en": "We read from segment {s}, where the hand points.",
        "nl": "We lezen vanaf segment {s}, waar de wijzer staat.",
        "ja": "針が指す区画{s}から数えます。",
    },
    # Line 2: who opens, and who alone covers a segment.
    "opener": {
        "en": "{who} opens.",
        "nl": "{who} begint.",
        "ja": "{who}から始めます。",
    },
    "owner": {
        "en": "{who}, you hold {holding}: segment {s} is yours.",
        "nl": "{who}, jij hebt {holding}: segment {s} is van jou.",
        "ja": "{who}は{holding}を持っているので、区画{s}を担当。",
    },
    "owner_plain": {
        "en": "{who} covers segment {s}.",
        "nl": "{who} neemt segment {s}.",
        "ja": "区画{s}は{who}が担当。",
    },
    "owners_plain": {
        "en": "{who} cover segment {s}.",
        "nl": "{who} nemen segment {s}.",
        "ja": "区画{s}は{who}が担当。",
    },
    # Line 2 too: a segment that takes one card alone (plans.Plan.lone).
    "lone": {
        "en": "Segment {s} takes one card alone: {card} of {k} or more, from whoever holds one.",
        "nl": "Segment {s} krijgt maar één kaart: {card} van {k} of hoger, van wie er een heeft.",
        "ja": "区画{s}には1枚だけ：{k}以上の{card}を、持っている人が置きます。",
    },
    "a_card": {"en": "a card", "nl": "een kaart", "ja": "カード"},
    "a_sun": {"en": "a Sun", "nl": "een zon", "ja": "太陽"},
    "a_moon": {"en": "a Moon", "nl": "een maan", "ja": "月"},
    # After the lines: a rule in the table's own words that the plan does not know.
    "described": {
        "en": "This plan does not know the rule \u201c{text}\u201d: adjust it yourselves.",
        "nl": "Dit plan kent de regel \u201c{text}\u201d niet: pas het zelf aan.",
        "ja": "このプランはルール「{text}」を知りません。自分たちで調整してください。",
    },
    # Line 3: how many cards may go face up, and when.
    "face_up": {
        "en": "We may play {n} face up: any card {k} or more away from our guess.",
        "nl": "We mogen er {n} open spelen: elke kaart die {k} of meer van onze gok afwijkt.",
        "ja": "表向きは{n}枚まで。予想と{k}以上ずれるカードを表向きに置きます。",
    },
    # Line 3 too, on a clock with equal neighbours: their cards go face up first.
    "face_up_equal": {
        "en": "Cards on segments {s} go face up while we may, so they can be matched.",
        "nl": "Kaarten op de segmenten {s} gaan open zolang het mag, zodat ze gelijk te "
        "maken zijn.",
        "ja": "区画{s}のカードは、同じ値に合わせられるよう、できる限り表向きに置きます。",
    },
    "no_face_up": {
        "en": "No card goes face up.",
        "nl": "Geen enkele kaart gaat open.",
        "ja": "表向きに置くカードはありません。",
    },
    # The fine print ("Why / details"), in plain words.
    "only_owner_rule": {
        "en": "Segment {s} must hold {need}, so only {who} plays there.",
        "nl": "Segment {s} moet {need} hebben, dus alleen {who} speelt daar.",
        "ja": "区画{s}には{need}が必要なので、{who}だけが置きます。",
    },
    "only_owner": {
        "en": "Only {who} plays on segment {s}.",
        "nl": "Alleen {who} speelt op segment {s}.",
        "ja": "区画{s}には{who}だけが置きます。",
    },
    "suns": {"en": "{n} Suns", "nl": "{n} zonnen", "ja": "太陽{n}枚"},
    "sun": {"en": "one Sun", "nl": "één zon", "ja": "太陽1枚"},
    "moons": {"en": "{n} Moons", "nl": "{n} manen", "ja": "月{n}枚"},
    "moon": {"en": "one Moon", "nl": "één maan", "ja": "月1枚"},
    "exactly": {"en": "exactly {what}", "nl": "precies {what}", "ja": "ちょうど{what}"},
    "belief": {
        "en": "Reading a face-down card: think of what its segment still needed. Where 10 "
        "was missing, count it as about {ten}; where 2 was missing, as about {two}.",
        "nl": "Een dichte kaart lezen: denk aan wat het segment nog nodig had. Ontbrak er 10, "
        "tel hem dan als ongeveer {ten}; ontbrak er 2, als ongeveer {two}.",
        "ja": "伏せたカードの読み方：その区画にあといくつ必要だったかを考えます。"
        "あと10なら約{ten}、あと2なら約{two}と数えます。",
    },
    "face_up_why": {
        "en": "A card far from the guess would mislead everyone if played face down; face up, "
        "everyone sees its value.",
        "nl": "Een kaart die ver van de gok ligt, zou dicht gespeeld iedereen misleiden; open "
        "ziet iedereen de waarde.",
        "ja": "予想から大きく外れたカードを伏せて置くと皆を惑わせます。"
        "表向きなら全員が値を見られます。",
    },
    "order_strong": {
        "en": "Above all, keep the totals rising and under the limit: "
        "never push a segment past the next one.",
        "nl": "Vooral: houd de totalen stijgend en onder de grens; "
        "duw een segment nooit voorbij het volgende.",
        "ja": "何よりも合計が上がっていくように、上限を超えないように。"
        "次の区画を追い越させないこと。",
    },
    "order_soft": {
        "en": "Try to keep the totals rising as you go.",
        "nl": "Probeer de totalen onderweg stijgend te houden.",
        "ja": "置きながら合計が上がっていくように心がけます。",
    },
    "open": {
        "en": "Early on, put a card on every empty segment.",
        "nl": "Leg in het begin op elk leeg segment een kaart.",
        "ja": "序盤は空いている区画にまず1枚ずつ置きます。",
    },
    "band": {
        "en": "On segment {s}, play cards from {lo} to {hi} when you can.",
        "nl": "Op segment {s} leg je waar het kan kaarten van {lo} tot {hi}.",
        "ja": "区画{s}には、なるべく{lo}〜{hi}のカードを。",
    },
    "band_many": {
        "en": "On segments {s}, play cards from {lo} to {hi} when you can.",
        "nl": "Op de segmenten {s} leg je waar het kan kaarten van {lo} tot {hi}.",
        "ja": "区画{s}には、なるべく{lo}〜{hi}のカードを。",
    },
    "band_up": {
        "en": "On segment {s}, play cards of {lo} or more when you can.",
        "nl": "Op segment {s} leg je waar het kan kaarten van {lo} of hoger.",
        "ja": "区画{s}には、なるべく{lo}以上のカードを。",
    },
    "lone_cap": {
        "en": "Until segment {s} has its card, count it as {k}; before it, never push a "
        "segment past segment {s} or past the next one.",
        "nl": "Zolang segment {s} zijn kaart niet heeft, tel het als {k}; duw ervoor nooit "
        "een segment voorbij segment {s} of voorbij het volgende.",
        "ja": "区画{s}のカードが置かれるまでは{k}と数えます。その前の区画は、"
        "区画{s}も次の区画も決して超えないように。",
    },
    "band_up_many": {
        "en": "On segments {s}, play cards of {lo} or more when you can.",
        "nl": "Op de segmenten {s} leg je waar het kan kaarten van {lo} of hoger.",
        "ja": "区画{s}には、なるべく{lo}以上のカードを。",
    },
    # The exactly-twelve convention (plans.Plan.exact, exact.py), instead of the lines above.
    "exact_aim": {
        "en": "Segments {s} each end at exactly 12; segment {r} takes the rest.",
        "nl": "De segmenten {s} eindigen elk op precies 12; segment {r} krijgt de rest.",
        "ja": "区画{s}はそれぞれちょうど12に、区画{r}は残りを受け持ちます。",
    },
    "exact_lone": {
        "en": "{card} goes alone on segment {s}, at the first turn of whoever holds it.",
        "nl": "{card} gaat alleen op segment {s}, bij de eerste beurt van wie hem heeft.",
        "ja": "{card}は、持っている人が最初の手番で区画{s}に1枚だけ置きます。",
    },
    "the_sun_12": {"en": "The Sun 12", "nl": "De zon 12", "ja": "太陽の12"},
    "the_moon_12": {"en": "The Moon 12", "nl": "De maan 12", "ja": "月の12"},
    "a_12": {"en": "A 12 (the first one)", "nl": "Een 12 (de eerste)", "ja": "12（最初の1枚）"},
    "exact_open": {
        "en": "We may play {n} face up: open a segment face down only with your own cards "
        "that make it 12, otherwise face up.",
        "nl": "We mogen er {n} open spelen: open een segment alleen dicht met eigen kaarten "
        "die samen 12 maken, anders open.",
        "ja": "表向きは{n}枚まで。自分のカードでちょうど12にできる区画だけ伏せて始め、"
        "それ以外は表向きで始めます。",
    },
    "exact_open_down": {
        "en": "Open a segment only with your own cards that make it 12.",
        "nl": "Begin een segment alleen met eigen kaarten die samen 12 maken.",
        "ja": "自分のカードでちょうど12にできる区画だけ始めます。",
    },
    "exact_own": {
        "en": "A segment you open face down is yours: keep the cards it needs, and only you "
        "add to it.",
        "nl": "Een segment dat jij dicht opent, is van jou: houd de kaarten die het nodig "
        "heeft, en alleen jij legt erbij.",
        "ja": "伏せて始めた区画はあなたの担当。必要なカードは取っておき、ほかの人は置きません。",
    },
    "exact_finish": {
        "en": "A face-down card on a face-up segment makes it 12, or as close below 12 as you can.",
        "nl": "Een dichte kaart op een open segment maakt het 12, of zo dicht onder 12 als "
        "je kunt.",
        "ja": "表向きの区画に伏せて置くカードは、合計をちょうど12に、"
        "できなければ12未満でなるべく近くにします。",
    },
    "exact_face_up": {
        "en": "Face up, first open a segment with a 10 to 12, then add to a face-up segment, "
        "then open one with a 4 to 9.",
        "nl": "Open speel je eerst een 10 tot 12 op een leeg segment, dan bij op een open "
        "segment, dan een 4 tot 9 op een leeg segment.",
        "ja": "表向きは、まず10〜12で空いた区画を始め、次に表向きの区画に足し、"
        "次に4〜9で空いた区画を始めます。",
    },
    "exact_rest": {
        "en": "A card that fits nowhere else goes to segment {r}.",
        "nl": "Een kaart die nergens anders past, gaat naar segment {r}.",
        "ja": "どこにも合わないカードは区画{r}へ。",
    },
}


@dataclass(frozen=True)
class Speech:
    """A plan as the table says it: ``lines``, three short lines said aloud (the targets;
    who opens and who alone covers a segment; face-up cards) and one more for each rule the
    plan does not know (``described``: the table's own words), and ``details``, the
    fine print behind "Why / details", one plain sentence each."""

    lines: tuple[str, ...]
    details: tuple[str, ...]
    lang: str = "en"

    def said(self) -> str:
        """The lines as one text (what ``words`` holds)."""
        return _join(self.lines, self.lang)

    def to_json(self) -> dict[str, list[str]]:
        return {"lines": list(self.lines), "details": list(self.details)}


def say(key: str, lang: str, **values: object) -> str:
    return _T[key][lang].format(**values)


def seat_name(index: int, lang: str, names: Sequence[str] | None = None) -> str:
    """Seat ``index`` (0-based) as people call it."""
    if names is not None and index < len(names) and names[index]:
        return names[index]
    return say("seat", lang, n=index + 1)


def spoken_number(x: float) -> int:
    """A target or threshold as the table says it: the nearest whole number."""
    return int(round(x))


def plan_speech(  # noqa: C901 - one branch per line the table hears
    plan: Plan,
    clock: Clock,
    seats: Seats,
    face_up: int,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Speech:
    """What the table says aloud for ``plan`` (three lines) and its fine print, in ``lang``
    ("en", "nl" or "ja"); ``names`` are the players' names in seat order, or None."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    convention = exact.followed(clock, plan)
    if convention is not None:
        return _exact_speech(plan, clock, convention, face_up, lang, names)
    order = reading_order(clock)
    targets = [plan.targets[s - 1] for s in order]

    def who(seat_numbers: Sequence[int]) -> str:
        return join_words([seat_name(o - 1, lang, names) for o in seat_numbers], lang)

    first = [_aim(targets, lang)]
    if clock.start != 1:
        first.insert(0, say("reading_from", lang, s=clock.start))

    second = [say("opener", lang, who=seat_name(plan.opener - 1, lang, names))]
    details: list[str] = []
    colour_rules = {int(p["segment"]): p for p in rule_params(clock) if p.get("kind") == "colours"}
    for segment, owners in sorted(plan.owners.items()):
        rule = colour_rules.get(segment)
        if rule is not None and len(owners) == 1:
            seat = seats.seats[owners[0] - 1]
            held = _colours_phrase(seat.suns if rule["sun"] else 0,
                                   seat.moons if rule["moon"] else 0, lang)  # fmt: skip
            second.append(say("owner", lang, who=who(owners), holding=held, s=segment))
            need = say("exactly", lang, what=_colours_phrase(rule["sun"], rule["moon"], lang))
            details.append(say("only_owner_rule", lang, s=segment, need=need, who=who(owners)))
        else:
            key = "owner_plain" if len(owners) == 1 else "owners_plain"
            second.append(say(key, lang, who=who(owners), s=segment))
            details.append(say("only_owner", lang, who=who(owners), s=segment))

    for segment, floor in sorted(plan.lone.items()):
        card = _lone_card(colour_rules.get(segment), lang)
        second.append(say("lone", lang, s=segment, card=card, k=floor))
        if order.index(segment) > 0:
            details.append(say("lone_cap", lang, s=segment, k=floor))

    if face_up > 0:
        k = spoken_number(plan.face_up_threshold)
        third = say("face_up", lang, n=face_up, k=k)
        equal = _equal_segments(clock)
        if equal:  # agents: their cards go face up while the budget lasts
            third = _join([third, say("face_up_equal", lang, s=join_numbers(equal, lang))], lang)
    else:
        third = say("no_face_up", lang)

    # A colour rule with an owner was said with its owner already.
    unknown, rules = _rules_said(clock, lang, owned=plan.owners.keys())
    details += rules
    # One sentence per distinct band: "On segments 4, 5 and 6, play cards of 8 or more."
    by_band: dict[tuple[int, int], list[int]] = {}
    for segment in order:
        if segment in plan.bands:
            by_band.setdefault(plan.bands[segment], []).append(segment)
    for (lo, hi), segments in by_band.items():
        where = join_numbers(segments, lang)
        key = "band_up" if hi == 12 else "band"
        if len(segments) > 1:
            key += "_many"
        details.append(say(key, lang, s=where, lo=lo, hi=hi))
    details.append(say("belief", lang, ten=_read_as(plan, 10), two=_read_as(plan, 2)))
    details.append(say("order_strong" if plan.order_weight >= 0.75 else "order_soft", lang))
    if plan.open_bonus >= 1.5:
        details.append(say("open", lang))
    if face_up > 0:
        details.append(say("face_up_why", lang))
    lines = (_join(first, lang), _join(second, lang), third, *unknown)
    return Speech(lines, tuple(details), lang)


def _exact_speech(
    plan: Plan,
    clock: Clock,
    convention: exact.Convention,
    face_up: int,
    lang: str,
    names: Sequence[str] | None,
) -> Speech:
    """The exactly-twelve convention said aloud (``plan_speech`` for ``Plan.exact``)."""
    segments = join_numbers(list(convention.order[1:-1]), lang)
    first = [say("exact_aim", lang, s=segments, r=convention.rest)]
    if clock.start != 1:
        first.insert(0, say("reading_from", lang, s=clock.start))
    card = {None: "a_12", Colour.SUN: "the_sun_12", Colour.MOON: "the_moon_12"}
    second = [
        say("exact_lone", lang, card=say(card[convention.colour], lang), s=convention.lone),
        say("opener", lang, who=seat_name(plan.opener - 1, lang, names)),
    ]
    third = say("exact_open", lang, n=face_up) if face_up else say("exact_open_down", lang)
    unknown, details = _rules_said(clock, lang)
    details += [say("exact_own", lang), say("exact_finish", lang)]
    if face_up:
        details.append(say("exact_face_up", lang))
    details.append(say("exact_rest", lang, r=convention.rest))
    lines = (_join(first, lang), _join(second, lang), third, *unknown)
    return Speech(lines, tuple(details), lang)


def _rules_said(
    clock: Clock, lang: str, owned: Collection[int] = ()
) -> tuple[list[str], list[str]]:
    """The clock's special rules in each rule kind's own words (so new kinds need nothing
    here): those the table wrote in its own words, said aloud as the plan ignores them
    ("described"), and the others for the fine print, but for a colour rule on a segment
    in ``owned`` (said with its owner already)."""
    unknown: list[str] = []
    said: list[str] = []
    for special in clock.rules:
        params = special.to_json()
        if not special.judged:
            unknown.append(say("described", lang, text=special.describe(lang)))
        elif not (params.get("kind") == "colours" and int(params["segment"]) in owned):
            said.append(special.describe(lang))
    return unknown, said


def plan_words(
    plan: Plan,
    clock: Clock,
    seats: Seats,
    face_up: int,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> str:
    """What the table says aloud for ``plan``, in ``lang``: the three lines of
    ``plan_speech`` as one text."""
    return plan_speech(plan, clock, seats, face_up, lang, names).said()


def _read_as(plan: Plan, missing: float) -> int:
    """What the plan's convention reads into a face-down card where ``missing`` was still
    needed (``agents_fast._belief``), as the table says it."""
    need = min(max(missing, 1.0), 12.0)
    return spoken_number(plan.need_weight * need + (1.0 - plan.need_weight) * AVERAGE_CARD)


def _join(sentences: Sequence[str], lang: str) -> str:
    return ("" if lang == "ja" else " ").join(sentences)


def _equal_segments(clock: Clock) -> list[int]:
    """The segments an ``equal_neighbours`` rule names, in reading order."""
    named = {p for first in equal_positions(clock) for p in (first, (first + 1) % SEGMENTS)}
    order = reading_order(clock)
    return [order[p] for p in sorted(named)]


def _lone_card(rule: dict[str, Any] | None, lang: str) -> str:
    """ "a card", or "a Sun" / "a Moon" where a colour rule says which."""
    if rule is not None and rule.get("sun") == 1 and rule.get("moon") == 0:
        return say("a_sun", lang)
    if rule is not None and rule.get("moon") == 1 and rule.get("sun") == 0:
        return say("a_moon", lang)
    return say("a_card", lang)


def _colours_phrase(suns: int, moons: int, lang: str) -> str:
    parts = []
    if suns:
        parts.append(say("sun", lang) if suns == 1 else say("suns", lang, n=suns))
    if moons:
        parts.append(say("moon", lang) if moons == 1 else say("moons", lang, n=moons))
    return join_words(parts, lang)


def _aim(targets: list[float], lang: str) -> str:
    """ "Aim for about 5, 7, 9, then 17, 20 and 23": the "then" marks the largest jump when
    it stands out, because that is the shape people remember."""
    words = [str(spoken_number(t)) for t in targets]
    steps = [b - a for a, b in zip(targets, targets[1:], strict=False)]
    jump = max(range(len(steps)), key=lambda i: steps[i])
    others = sorted(steps[:jump] + steps[jump + 1 :])
    typical = others[len(others) // 2] if others else 0.0
    if steps[jump] >= 2 * max(typical, 1.0) and 0 < jump < len(targets) - 2:
        low = join_words(words[: jump + 1], lang) if lang == "ja" else ", ".join(words[: jump + 1])
        return say("aim_split", lang, low=low, high=join_words(words[jump + 1 :], lang))
    return say("aim", lang, values=join_words(words, lang))


def all_words(
    plan: Plan,
    clock: Clock,
    seats: Seats,
    face_up: int,
    names: Sequence[str] | None = None,
) -> dict[str, str]:
    return {lang: plan_words(plan, clock, seats, face_up, lang, names) for lang in LANGUAGES}
