"""A plan said aloud, in English, Dutch and Japanese, the way a player would put it.

Only things a table may say in the discussion phase appear here: targets, who covers which
segment, how to read a face-down card, when to play face up, who opens. The wording is
short on purpose — a group must remember it once the cards are picked up.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.clock import Clock
from rules.i18n import LANGUAGES, join_numbers, join_words
from rules.seats import Seats

from .plans import Plan, reading_order, rule_params

_T: dict[str, dict[str, str]] = {
    "seat": {"en": "Seat {n}", "nl": "Stoel {n}", "ja": "席{n}"},
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
    "owner": {
        "en": "{who}, you hold {holding}: segment {s} is yours ({need}); nobody else plays there.",
        "nl": "{who}, jij hebt {holding}: segment {s} is van jou ({need}); verder speelt "
        "niemand daar.",
        "ja": "{who}は{holding}を持っているので、区画{s}を担当（{need}）。他の人は置きません。",
    },
    "owner_plain": {
        "en": "{who} covers segment {s}; nobody else plays there.",
        "nl": "{who} neemt segment {s}; verder speelt niemand daar.",
        "ja": "区画{s}は{who}が担当。他の人は置きません。",
    },
    "suns": {"en": "{n} Suns", "nl": "{n} zonnen", "ja": "太陽{n}枚"},
    "sun": {"en": "one Sun", "nl": "één zon", "ja": "太陽1枚"},
    "moons": {"en": "{n} Moons", "nl": "{n} manen", "ja": "月{n}枚"},
    "moon": {"en": "one Moon", "nl": "één maan", "ja": "月1枚"},
    "exactly": {"en": "exactly {what}", "nl": "precies {what}", "ja": "ちょうど{what}"},
    "belief": {
        "en": "A face-down card counts as about {pct}% of what its segment still needed, "
        "plus the rest of an average card.",
        "nl": "Een dichte kaart telt als ongeveer {pct}% van wat het segment nog nodig had, "
        "plus de rest van een gemiddelde kaart.",
        "ja": "伏せたカードは、その区画にまだ必要だった数の約{pct}%と、"
        "平均的なカードの残りとして数えます。",
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
    "face_up": {
        "en": "We may play {n} face up: play a card face up when its value is {k} or more away "
        "from what we would read into it.",
        "nl": "We mogen er {n} open spelen: speel een kaart open als de waarde {k} of meer "
        "afwijkt van wat we erin zouden lezen.",
        "ja": "表向きは{n}枚まで。読み取られる値と{k}以上ずれるカードを表向きに置きます。",
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
    "band_up_many": {
        "en": "On segments {s}, play cards of {lo} or more when you can.",
        "nl": "Op de segmenten {s} leg je waar het kan kaarten van {lo} of hoger.",
        "ja": "区画{s}には、なるべく{lo}以上のカードを。",
    },
    "opener": {
        "en": "{who} opens.",
        "nl": "{who} begint.",
        "ja": "{who}から始めます。",
    },
}


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


def plan_words(
    plan: Plan,
    clock: Clock,
    seats: Seats,
    face_up: int,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> str:
    """What the table says aloud for ``plan``, in ``lang`` ("en", "nl" or "ja")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    order = reading_order(clock)
    targets = [plan.targets[s - 1] for s in order]
    sentences: list[str] = []
    if clock.start != 1:
        sentences.append(say("reading_from", lang, s=clock.start))
    sentences.append(_aim(targets, lang))

    colour_rules = {int(p["segment"]): p for p in rule_params(clock) if p.get("kind") == "colours"}
    for segment, owners in sorted(plan.owners.items()):
        who = join_words([seat_name(o - 1, lang, names) for o in owners], lang)
        rule = colour_rules.get(segment)
        if rule is not None and len(owners) == 1:
            seat = seats.seats[owners[0] - 1]
            held = _colours_phrase(seat.suns if rule["sun"] else 0,
                                   seat.moons if rule["moon"] else 0, lang)  # fmt: skip
            need = say("exactly", lang, what=_colours_phrase(rule["sun"], rule["moon"], lang))
            sentences.append(say("owner", lang, who=who, holding=held, s=segment, need=need))
        else:
            sentences.append(say("owner_plain", lang, who=who, s=segment))
    # Every other special rule in the rule kind's own words (so new kinds need nothing here);
    # a colour rule with an owner was said in the owner's sentence already.
    for special in clock.rules:
        params = special.to_json()
        if params.get("kind") == "colours" and int(params["segment"]) in plan.owners:
            continue
        sentences.append(special.describe(lang))
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
        sentences.append(say(key, lang, s=where, lo=lo, hi=hi))

    sentences.append(say("belief", lang, pct=int(round(plan.need_weight * 100))))
    sentences.append(say("order_strong" if plan.order_weight >= 0.75 else "order_soft", lang))
    if plan.open_bonus >= 1.5:
        sentences.append(say("open", lang))
    if face_up > 0:
        sentences.append(say("face_up", lang, n=face_up, k=spoken_number(plan.face_up_threshold)))
    sentences.append(say("opener", lang, who=seat_name(plan.opener - 1, lang, names)))
    return ("" if lang == "ja" else " ").join(sentences)


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
