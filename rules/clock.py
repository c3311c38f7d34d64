"""A clock as data, and its public JSON definition (docs/api.md, "Clock definition").

``{"id": "1-1", "chapter": 1, "number": 1, "start": 1, "cap": null, "rules": [...]}`` plus
``"transcribed": false`` for a clock whose special rules are not known yet (omitted when
true). The Rebirth clock has ``"id": "rebirth"`` and ``chapter``/``number`` null.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rules import jsontext
from rules.errors import Phrase, RulesError
from rules.i18n import say
from rules.kinds import Rule, rule_from_json
from rules.layout import SEGMENTS, check_segment

REBIRTH = "rebirth"
CAP = 24
MAX_CLOCK_JSON_CHARS = 100_000  # a clock definition is a few hundred characters
# No printed clock has more than a handful of special rules; every rule costs the solver
# time in every simulated game, so a definition (a transcription, or a hint's own) has 40 at most.
MAX_RULES = 40
_ID_RE = re.compile(r"(10|[1-9])-([1-4])")
_KEYS = ("id", "chapter", "number", "start", "cap", "rules", "transcribed")


@dataclass(frozen=True, slots=True)
class Clock:
    """One clock (test). ``start`` is the segment the clock hand points to (1 without a
    hand); ``cap`` the highest allowed segment value (24) or None where the limit is lifted;
    ``rules`` its special rules, at segments or in the centre; ``transcribed`` False while
    its special rules are unknown (``rules`` then holds those known, often none).
    Always valid: construction raises RulesError like ``from_json``.
    """

    id: str
    chapter: int | None
    number: int | None
    start: int = 1
    cap: int | None = CAP
    rules: tuple[Rule, ...] = ()
    transcribed: bool = True

    def __post_init__(self) -> None:
        if self.id == REBIRTH:
            if self.chapter is not None or self.number is not None:
                raise RulesError.from_wording(_REBIRTH_NUMBERED, "chapter")
        else:
            match = _ID_RE.fullmatch(self.id) if isinstance(self.id, str) else None
            if match is None:
                raise RulesError.from_wording(_NOT_AN_ID, "id", id=self.id)
            if (self.chapter, self.number) != (int(match[1]), int(match[2])):
                raise RulesError.from_wording(
                    _ID_DISAGREES, "chapter", id=self.id, chapter=match[1], number=match[2]
                )
        check_segment(self.start, "start")
        if self.cap is not None and (
            isinstance(self.cap, bool) or not isinstance(self.cap, int) or self.cap < 1
        ):
            raise RulesError.from_wording(_CAP, "cap", cap=self.cap)
        if not isinstance(self.transcribed, bool):
            raise RulesError.from_wording(_TRANSCRIBED, "transcribed")
        if not all(isinstance(rule, Rule) for rule in self.rules):
            raise RulesError.from_wording(_RULE_OBJECTS, "rules")
        _check_card_bounds(self.rules)

    @property
    def name(self) -> str:
        """'1-1' style label, or 'Rebirth'."""
        return "Rebirth" if self.id == REBIRTH else self.id

    def base_rules_only(self) -> Clock:
        """This clock with no special rules, marked transcribed (start segment and cap kept):
        how the solver plays an untranscribed clock when asked to use the base rules only."""
        return replace(self, rules=(), transcribed=True)

    def known_rules(self) -> Clock:
        """This clock without the rules Timekeeper cannot judge (``described``: the table's
        own words): what the solver plans with. Callers say which rules were left out
        (``described_texts``) and that their odds are an upper bound."""
        judged = tuple(rule for rule in self.rules if rule.judged)
        return self if len(judged) == len(self.rules) else replace(self, rules=judged)

    def described_texts(self, lang: str = "en") -> tuple[str, ...]:
        """The words of the rules Timekeeper cannot judge, as the table typed them."""
        return tuple(rule.describe(lang) for rule in self.rules if not rule.judged)

    @classmethod
    def from_json(cls, data: object) -> Clock:
        """Build from the public JSON object; RulesError (with ``field``) for any breach of the
        schema: missing or unknown keys, wrong types, unknown rule kinds, bad parameters."""
        if not isinstance(data, Mapping):
            raise RulesError.from_wording(_NOT_AN_OBJECT)
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise RulesError.from_wording(
                _UNKNOWN_KEY, unknown[0], key=unknown[0], keys=", ".join(_KEYS)
            )
        for key in ("id", "rules"):
            if key not in data:
                raise RulesError.from_wording(_MISSING_KEY, key, key=key)
        clock_id = data["id"]
        if not isinstance(clock_id, str):
            raise RulesError.from_wording(_ID_TYPE, "id")
        match = _ID_RE.fullmatch(clock_id)
        # chapter/number may be left out: they follow from the id.
        chapter = data.get("chapter", int(match[1]) if match else None)
        number = data.get("number", int(match[2]) if match else None)
        for key, value in (("chapter", chapter), ("number", number)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError.from_wording(_WHOLE_NUMBER, key, key=key)
        raw_rules = data["rules"]
        if not isinstance(raw_rules, list):
            raise RulesError.from_wording(_RULES_LIST, "rules")
        if len(raw_rules) > MAX_RULES:
            raise RulesError.from_wording(_TOO_MANY_RULES, "rules", n=MAX_RULES)
        rules = []
        for index, raw in enumerate(raw_rules):
            try:
                rules.append(rule_from_json(raw))
            except RulesError as error:
                raise error.within(f"rules[{index}]") from None
        return cls(
            id=clock_id,
            chapter=chapter,
            number=number,
            start=data.get("start", 1),
            cap=data.get("cap", CAP),
            rules=tuple(rules),
            transcribed=data.get("transcribed", True),
        )

    def to_json(self) -> dict[str, Any]:
        """The public JSON object; ``Clock.from_json(clock.to_json()) == clock``."""
        data: dict[str, Any] = {
            "id": self.id,
            "chapter": self.chapter,
            "number": self.number,
            "start": self.start,
            "cap": self.cap,
            "rules": [rule.to_json() for rule in self.rules],
        }
        if not self.transcribed:
            data["transcribed"] = False
        return data

    def describe(self, lang: str = "en") -> list[str]:
        """Each special rule in a sentence (no base rules)."""
        return [rule.describe(lang) for rule in self.rules]

    def summary(self, lang: str = "en") -> str:
        """One line for lists: the lifted cap, the special rules, and whether they are
        known, e.g. "No 24 limit. Segment 6 must hold exactly 3 cards." """
        parts = [] if self.cap is not None else [say(_NO_CAP, lang)]
        parts.extend(self.describe(lang))
        if not self.transcribed:
            parts.append(say(_UNKNOWN, lang))
        return " ".join(parts) if parts else say(_NONE, lang)


_NO_CAP = {"en": "No 24 limit.", "nl": "Geen limiet van 24.", "ja": "24の上限なし。"}
_UNKNOWN = {
    "en": "Special rules not transcribed yet.",
    "nl": "Bijzondere regels nog niet overgenomen.",
    "ja": "特別ルールは未入力。",
}
_NONE = {"en": "No special rules.", "nl": "Geen bijzondere regels.", "ja": "特別ルールなし。"}

_REBIRTH_NUMBERED = {
    "en": "The Rebirth clock has no chapter and number.",
    "nl": "De Rebirth-klok heeft geen hoofdstuk en nummer.",
    "ja": "リバースの時計盤には章と番号がありません。",
}
_NOT_AN_ID = {
    "en": "{id!r} is not a clock id: use chapter-clock like 1-1 … 10-4, or rebirth.",
    "nl": "{id!r} is geen klok-id: gebruik hoofdstuk-klok zoals 1-1 … 10-4, of rebirth.",
    "ja": "{id!r}は時計盤のIDではありません。1-1〜10-4のように「章-番号」と書くか、"
    "rebirthと書いてください。",
}
_ID_DISAGREES = {
    "en": "Clock {id} is chapter {chapter}, clock {number}: "
    "'chapter' and 'number' must agree with the id.",
    "nl": "Klok {id} is hoofdstuk {chapter}, klok {number}: "
    "'chapter' en 'number' moeten met de id overeenkomen.",
    "ja": "時計盤{id}は第{chapter}章の{number}番です。「chapter」と「number」は"
    "IDと一致しなければなりません。",
}
_CAP = {
    "en": "'cap' is 24 or null (no limit), not {cap!r}.",
    "nl": "'cap' is 24 of null (geen limiet), niet {cap!r}.",
    "ja": "「cap」は24かnull（上限なし）です（{cap!r}ではありません）。",
}
_TRANSCRIBED = {
    "en": "'transcribed' is true or false.",
    "nl": "'transcribed' is true of false.",
    "ja": "「transcribed」はtrueかfalseです。",
}
_RULE_OBJECTS = {
    "en": "'rules' holds rule objects.",
    "nl": "'rules' bevat regelobjecten.",
    "ja": "「rules」にはルールのオブジェクトが入ります。",
}
_NOT_AN_OBJECT = {
    "en": "A clock definition is a JSON object.",
    "nl": "Een klokdefinitie is een JSON-object.",
    "ja": "時計盤の定義はJSONオブジェクトです。",
}
_UNKNOWN_KEY = {
    "en": "A clock definition has no key {key!r}; its keys are: {keys}.",
    "nl": "Een klokdefinitie heeft geen sleutel {key!r}; de sleutels zijn: {keys}.",
    "ja": "時計盤の定義にキー「{key}」はありません。キーは{keys}です。",
}
_MISSING_KEY = {
    "en": "A clock definition needs {key!r}.",
    "nl": "Een klokdefinitie heeft {key!r} nodig.",
    "ja": "時計盤の定義には「{key}」が必要です。",
}
_ID_TYPE = {
    "en": "'id' is a string like \"1-1\".",
    "nl": "'id' is een tekst zoals \"1-1\".",
    "ja": '「id」は"1-1"のような文字列です。',
}
_WHOLE_NUMBER = {
    "en": "{key!r} is a whole number.",
    "nl": "{key!r} is een geheel getal.",
    "ja": "「{key}」は整数です。",
}
_RULES_LIST = {
    "en": "'rules' is a list of rule objects.",
    "nl": "'rules' is een lijst van regelobjecten.",
    "ja": "「rules」はルールのオブジェクトのリストです。",
}
_TOO_MANY_RULES = {
    "en": "A clock has at most {n} special rules.",
    "nl": "Een klok heeft hoogstens {n} speciale regels.",
    "ja": "時計盤の特殊ルールは{n}個までです。",
}
_CONTRADICT = {
    "en": "The rules of segment {segment} contradict each other: no number of cards "
    "keeps them all.",
    "nl": "De regels van segment {segment} spreken elkaar tegen: geen enkel aantal kaarten "
    "voldoet aan allemaal.",
    "ja": "第{segment}区画のルールが互いに矛盾しています。すべてを満たすカードの枚数がありません。",
}
_TOO_MANY_CARDS = {
    "en": "The rules ask for more than the 12 cards in play.",
    "nl": "De regels vragen om meer dan de 12 kaarten in het spel.",
    "ja": "ルールが、使われる12枚より多くのカードを必要としています。",
}
_JSON_TOO_LONG = {
    "en": "The clock definition is far too long to be a clock.",
    "nl": "De klokdefinitie is veel te lang voor een klok.",
    "ja": "時計盤の定義としては長すぎます。",
}
_NOT_JSON = {
    "en": "The clock definition is not valid JSON: {msg} (line {line}, column {column}).",
    "nl": "De klokdefinitie is geen geldige JSON: {msg} (regel {line}, kolom {column}).",
    "ja": "時計盤の定義が正しいJSONではありません：{msg}（{line}行目、{column}列目）。",
}
_FILE_TOO_LARGE = {
    "en": "{path} is far too large to be a clock definition.",
    "nl": "{path} is veel te groot voor een klokdefinitie.",
    "ja": "{path}は時計盤の定義としては大きすぎます。",
}
_UNREADABLE = {
    "en": "Cannot read the clock file {path}: {reason}.",
    "nl": "Kan het klokbestand {path} niet lezen: {reason}.",
    "ja": "時計盤のファイル{path}を読めません：{reason}。",
}
_NOT_UTF8 = Phrase(
    en="not readable as UTF-8 text",
    nl="niet leesbaar als UTF-8-tekst",
    ja="UTF-8のテキストとして読めません",
)


def _check_card_bounds(rules: tuple[Rule, ...]) -> None:
    """Reject rules that no layout could keep together, e.g. exactly 1 and at least 3 cards
    at one segment, or more than 12 cards required in total. Kinds report their bounds
    through ``Rule.card_bounds`` so this stays independent of the kinds."""
    bounds = dict.fromkeys(SEGMENTS, (1, 12))  # every segment needs a card
    for rule in rules:
        for segment, (low, high) in rule.card_bounds().items():
            old_low, old_high = bounds[segment]
            new = (max(old_low, low), min(old_high, high))
            if new[0] > new[1]:
                raise RulesError.from_wording(_CONTRADICT, "rules", segment=segment)
            bounds[segment] = new
    if sum(low for low, _ in bounds.values()) > 12:
        raise RulesError.from_wording(_TOO_MANY_CARDS, "rules")


def clock_from_json_text(text: str) -> Clock:
    """Parse a clock definition from JSON text (a file or an upload): RulesError when it is
    not JSON, too long, or breaks the schema."""
    if len(text) > MAX_CLOCK_JSON_CHARS:
        raise RulesError.from_wording(_JSON_TOO_LONG, "clock")
    try:
        data = jsontext.loads(text)
    except json.JSONDecodeError as error:
        raise RulesError.from_wording(
            _NOT_JSON, "clock", msg=error.msg, line=error.lineno, column=error.colno
        ) from None
    except (jsontext.TooDeep, jsontext.BadText) as error:
        raise RulesError.from_wording(_NOT_JSON, "clock", msg=error, line=1, column=1) from None
    return Clock.from_json(data)


def load_clock(path: str | Path) -> Clock:
    """Read a clock definition file; RulesError when missing, unreadable or invalid."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_CLOCK_JSON_CHARS * 4:
            raise RulesError.from_wording(_FILE_TOO_LARGE, "clock_file", path=path)
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or _NOT_UTF8
        raise RulesError.from_wording(_UNREADABLE, "clock_file", path=path, reason=reason) from None
    return clock_from_json_text(text)


def dumps_clock(clock: Clock) -> str:
    """The definition as pretty JSON text, one rule per line, ending with a newline."""
    data = clock.to_json()
    rules = data.pop("rules")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    if not rules:
        return f'{head}, "rules": []}}\n'
    lines = ",\n".join(f"  {json.dumps(rule, ensure_ascii=False)}" for rule in rules)
    return f'{head}, "rules": [\n{lines}\n]}}\n'
