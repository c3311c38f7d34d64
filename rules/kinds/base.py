"""The shape every rule kind shares, and the registry that finds kinds by name.

A kind is a frozen dataclass whose fields are its JSON parameters, typed with the aliases
below (``Segment``, ``Count``...) so that missing, extra and out-of-range parameters are
caught here, once, for every kind. A kind adds its own cross-parameter checks in
``check_params`` and its wording; see ``rules/kinds/__init__.py`` for how to add one.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin, get_type_hints

from rules.errors import Phrase, RulesError
from rules.i18n import Wording, cards, say
from rules.layout import Layout, Move, check_segment
from rules.verdict import Violation


@dataclass(frozen=True, slots=True)
class Bounds:
    """Metadata for an int parameter: its allowed range and what it is called in messages."""

    low: int
    high: int
    noun: str


Segment = Annotated[int, Bounds(1, 6, "segment")]
Count = Annotated[int, Bounds(0, 12, "number of cards")]
Value = Annotated[int, Bounds(1, 12, "card value")]
Total = Annotated[int, Bounds(0, 144, "segment value")]  # 12 cards of 12 at most
ColourLetter = Literal["S", "M"]


@dataclass(frozen=True, slots=True)
class Length:
    """Metadata for a str parameter: how many characters it may have (after trimming)."""

    low: int
    high: int


Text = Annotated[str, Length(1, 200)]


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a rule sees at resolution. ``values`` are the sums read from the start segment;
    ``layout.sums`` the same sums in segment order."""

    layout: Layout
    start: int
    values: tuple[int, ...]


RULE_KINDS: dict[str, type[Rule]] = {}


def register[R: type[Rule]](cls: R) -> R:
    """Class decorator: make a kind known by its ``kind`` name (must be unique)."""
    if not getattr(cls, "kind", ""):
        raise TypeError(f"{cls.__name__} needs a 'kind' name.")
    if cls.kind in RULE_KINDS and RULE_KINDS[cls.kind] is not cls:
        raise TypeError(f"Rule kind {cls.kind!r} is registered twice.")
    RULE_KINDS[cls.kind] = cls
    return cls


class RuleClass:
    """The class attributes every kind sets. Declared outside the dataclass so they are not
    dataclass fields: ``Rule.__dataclass_fields__`` holds exactly a kind's parameters."""

    kind: ClassVar[str] = ""
    icon: ClassVar[str] = "rule"  # id of the SVG symbol; the label goes inside it
    restricts_placement: ClassVar[bool] = False  # needs the play order to be checked
    judged: ClassVar[bool] = True  # False: Timekeeper cannot check it (``described``)
    wording: ClassVar[Wording]  # describe(): the rule as the Rules Sheet would say it
    broken: ClassVar[Wording]  # explain(): how the rule is broken (kinds that word it so)


@dataclass(frozen=True)
class Rule(RuleClass):
    """A special rule printed on a clock: at a segment, or in the centre (no segment).

    Subclasses set the class attributes and implement ``holds``, ``explain`` and the wording;
    placement kinds set ``restricts_placement`` and implement ``check_move``.
    """

    def __post_init__(self) -> None:
        for name, hint in _hints(type(self)).items():
            _check_value(name, hint, getattr(self, name))
        self.check_params()

    # --- parameters -------------------------------------------------------------------

    def check_params(self) -> None:
        """Raise RulesError when parameters contradict each other (override as needed)."""

    @classmethod
    def parameters(cls) -> dict[str, str]:
        """The JSON parameters of the kind and what each takes, for editors and help texts:
        ``{"segment": "segment 1–6", "count": "number of cards 0–12"}``."""
        return {name: _describe_type(hint) for name, hint in _hints(cls).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rule:
        """Build from the clock JSON object (``kind`` included or not); RulesError on missing,
        extra, mistyped or contradictory parameters."""
        hints = _hints(cls)
        given = {key: value for key, value in data.items() if key != "kind"}
        extra = sorted(set(given) - set(hints))
        if extra:
            raise RulesError.from_wording(
                _NO_PARAMETER, extra[0], kind=cls.kind, name=extra[0], names=_param_list(hints)
            )
        required = {f.name for f in fields(cls) if f.name in hints and not _optional(hints[f.name])}
        missing = sorted(required - set(given))
        if missing:
            raise RulesError.from_wording(
                _NEEDS_PARAMETER,
                missing[0],
                kind=cls.kind,
                name=missing[0],
                names=_param_list(hints),
            )
        values = {key: tuple(v) if isinstance(v, list) else v for key, v in given.items()}
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """The clock JSON object: ``{"kind": ..., parameters...}``; unset options left out."""
        data: dict[str, Any] = {"kind": self.kind}
        for name in _hints(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    def normalised(self) -> Rule:
        """The same rule with its parameters in one canonical order, so that two rules that
        mean the same compare (and serialise) equal; ``rules.canonical`` relies on it. Kinds
        whose list parameters are sets (order carries no meaning) override this; a kind
        whose list order matters (the first and second card) keeps the default."""
        return self

    def as_shown(self) -> Rule:
        """The rule as a group's own pages show it: normalised, except for words a person
        typed, which keep their letters as typed (``rules.canonical.as_typed``)."""
        return self.normalised()

    # --- where it applies -----------------------------------------------------------

    # Plain methods, not properties: a kind's fields are often named ``segment`` or
    # ``segments``, and dataclasses would take an inherited attribute of that name as a default.
    def segments_concerned(self) -> tuple[int, ...]:
        """The segments the rule concerns, in order; empty for a centre rule."""
        segment = getattr(self, "segment", None)
        if isinstance(segment, int):
            return (segment,)
        segments = getattr(self, "segments", None)
        return segments if isinstance(segments, tuple) else ()

    def first_segment(self) -> int | None:
        """The first segment concerned (what a Violation names), None for a centre rule."""
        segments = self.segments_concerned()
        return segments[0] if segments else None

    def card_bounds(self) -> dict[int, tuple[int, int]]:
        """Bounds (low, high) the rule puts on the number of cards per segment, so a clock
        can reject rules that contradict each other. Default: none."""
        return {}

    # --- checks ---------------------------------------------------------------------

    def holds(self, resolution: Resolution) -> bool:
        """True when the rule is kept. Placement kinds may assume ``layout.moves`` is set."""
        raise NotImplementedError

    def explain(self, resolution: Resolution, lang: str) -> str:
        """The sentence saying how the rule is broken (called only when it does not hold)."""
        raise NotImplementedError

    def check(
        self, board: Resolution | Layout, lang: str = "en", start: int = 1
    ) -> Violation | None:
        """None when the rule holds, else the Violation with its sentence in ``lang``.
        ``board`` is a Resolution, or a Layout read from segment ``start``."""
        resolution = as_resolution(board, start)
        if self.holds(resolution):
            return None
        return Violation(self.kind, self.first_segment(), self.explain(resolution, lang))

    def check_move(
        self, moves_so_far: tuple[Move, ...], proposed: Move, lang: str = "en"
    ) -> str | None:
        """For placement kinds: None when ``proposed`` may follow ``moves_so_far``, else why
        not. Other kinds accept every move. Called by the referee for every move: keep it
        cheap."""
        return None

    # --- wording --------------------------------------------------------------------

    def describe(self, lang: str = "en") -> str:
        """The rule in a sentence, in ``lang``."""
        return say(self.wording, lang, **self.wording_values(lang))

    def wording_values(self, lang: str) -> dict[str, object]:
        """Values for the wording templates (default: the parameters)."""
        return {name: getattr(self, name) for name in _hints(type(self))}

    def label(self) -> str:
        """A few characters drawn inside the rule's icon on the clock face."""
        return self.kind

    def anchors(self) -> tuple[tuple[int | None, str], ...]:
        """Where the SVG draws the icon(s): (segment or None for the centre, label)."""
        return ((self.first_segment(), self.label()),)


# --- parameter typing ---------------------------------------------------------------------


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The parameter fields of a kind with their annotated types (ClassVars excluded),
    resolved once per class: every rule construction reads them."""
    hints = _HINTS.get(cls)
    if hints is None:
        resolved = get_type_hints(cls, include_extras=True)
        hints = _HINTS[cls] = {f.name: resolved[f.name] for f in fields(cls)}
    return hints


def as_resolution(board: Resolution | Layout, start: int = 1) -> Resolution:
    """``board`` itself, or the Resolution of a Layout read from segment ``start``."""
    if isinstance(board, Resolution):
        return board
    sums = board.sums
    return Resolution(board, start, sums[start - 1 :] + sums[: start - 1])


def _describe_type(hint: Any) -> str:
    optional = _optional(hint)
    if optional:
        (hint,) = (arg for arg in get_args(hint) if arg is not type(None))
    origin = get_origin(hint)
    if origin is Annotated and isinstance(get_args(hint)[1], Length):
        length = get_args(hint)[1]
        text = f"text of {length.low}–{length.high} characters"
    elif origin is Annotated:
        bounds = get_args(hint)[1]
        text = f"{bounds.noun} {bounds.low}–{bounds.high}"
    elif origin is Literal:
        text = " or ".join(f'"{arg}"' for arg in get_args(hint))
    elif origin is tuple:
        text = f"list of {_describe_type(get_args(hint)[0])}"
    else:
        text = str(hint)
    return f"{text} (optional)" if optional else text


def _optional(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _param_list(hints: Mapping[str, Any]) -> str | Phrase:
    return ", ".join(hints) or Phrase(en="none", nl="geen", ja="なし")


def _check_value(name: str, hint: Any, value: Any) -> None:
    if _optional(hint):
        if value is None:
            return
        (hint,) = (arg for arg in get_args(hint) if arg is not type(None))
    origin = get_origin(hint)
    if origin is Annotated and isinstance(get_args(hint)[1], Length):
        _check_text(name, get_args(hint)[1], value)
    elif origin is Annotated:
        base, bounds = get_args(hint)
        _check_int(name, bounds, value)
    elif origin is Literal:
        if value not in get_args(hint):
            choices = Phrase(
                en=" or ".join(repr(arg) for arg in get_args(hint)),
                nl=" of ".join(repr(arg) for arg in get_args(hint)),
                ja="か".join(f"「{arg}」" for arg in get_args(hint)),
            )
            raise RulesError.from_wording(_CHOICE, name, name=name, choices=choices, value=value)
    elif origin is tuple:
        if not isinstance(value, tuple):
            raise RulesError.from_wording(_LIST, name, name=name, value=value)
        item_hint = get_args(hint)[0]
        for item in value:
            _check_value(name, item_hint, item)
    else:  # a kind used a type this module does not know: a programming error
        raise TypeError(f"Unsupported parameter type for {name!r}: {hint!r}")


def _check_int(name: str, bounds: Bounds, value: Any) -> None:
    if bounds.noun == "segment":
        check_segment(value, name)
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError.from_wording(
            _WHOLE, name, name=name, noun=_NOUNS[bounds.noun], value=value
        )
    if not bounds.low <= value <= bounds.high:
        raise RulesError.from_wording(
            _RANGE,
            name,
            name=name,
            noun=_NOUNS[bounds.noun],
            low=bounds.low,
            high=bounds.high,
            value=value,
        )


def _check_text(name: str, length: Length, value: Any) -> None:
    if not isinstance(value, str):
        raise RulesError.from_wording(_TEXT, name, name=name, value=value)
    count = len(value.strip())
    if not length.low <= count <= length.high:
        raise RulesError.from_wording(
            _TEXT_LENGTH, name, name=name, low=length.low, high=length.high, count=count
        )


def rule_from_json(data: object) -> Rule:
    """Build any registered kind from its JSON object; RulesError for an unknown kind."""
    if not isinstance(data, Mapping):
        raise RulesError.from_wording(_NOT_A_RULE, None, data=data)
    kind = data.get("kind")
    cls = RULE_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(RULE_KINDS))
        raise RulesError.from_wording(_UNKNOWN_KIND, "kind", kind=kind, known=known)
    return cls.from_json(data)


_NO_PARAMETER = {
    "en": "The rule {kind!r} has no parameter {name!r}; its parameters are: {names}.",
    "nl": "De regel {kind!r} heeft geen parameter {name!r}; de parameters zijn: {names}.",
    "ja": "ルール「{kind}」にパラメータ「{name}」はありません。パラメータは{names}です。",
}
_NEEDS_PARAMETER = {
    "en": "The rule {kind!r} needs the parameter {name!r}; its parameters are: {names}.",
    "nl": "De regel {kind!r} heeft de parameter {name!r} nodig; de parameters zijn: {names}.",
    "ja": "ルール「{kind}」にはパラメータ「{name}」が必要です。パラメータは{names}です。",
}
_CHOICE = {
    "en": "The parameter {name!r} must be {choices}, not {value!r}.",
    "nl": "De parameter {name!r} moet {choices} zijn, niet {value!r}.",
    "ja": "パラメータ「{name}」は{choices}でなければなりません（{value!r}ではありません）。",
}
_LIST = {
    "en": "The parameter {name!r} must be a list, not {value!r}.",
    "nl": "De parameter {name!r} moet een lijst zijn, niet {value!r}.",
    "ja": "パラメータ「{name}」はリストでなければなりません（{value!r}ではありません）。",
}
_WHOLE = {
    "en": "The parameter {name!r} ({noun}) must be a whole number, not {value!r}.",
    "nl": "De parameter {name!r} ({noun}) moet een geheel getal zijn, niet {value!r}.",
    "ja": "パラメータ「{name}」（{noun}）は整数でなければなりません（{value!r}ではありません）。",
}
_RANGE = {
    "en": "The parameter {name!r} ({noun}) must be from {low} to {high}, not {value}.",
    "nl": "De parameter {name!r} ({noun}) moet van {low} tot en met {high} zijn, niet {value}.",
    "ja": "パラメータ「{name}」（{noun}）は{low}から{high}まででなければなりません"
    "（{value}ではありません）。",
}
_TEXT = {
    "en": "The parameter {name!r} must be text, not {value!r}.",
    "nl": "De parameter {name!r} moet tekst zijn, niet {value!r}.",
    "ja": "パラメータ「{name}」は文字列でなければなりません（{value!r}ではありません）。",
}
_TEXT_LENGTH = {
    "en": "The parameter {name!r} must have {low} to {high} characters, not {count}.",
    "nl": "De parameter {name!r} moet {low} tot en met {high} tekens hebben, niet {count}.",
    "ja": "パラメータ「{name}」は{low}から{high}文字まででなければなりません（{count}文字です）。",
}
_NOT_A_RULE = {
    "en": "A rule is a JSON object with a 'kind', not {data!r}.",
    "nl": "Een regel is een JSON-object met een 'kind', niet {data!r}.",
    "ja": "ルールは「kind」を持つJSONオブジェクトです（{data!r}ではありません）。",
}
_UNKNOWN_KIND = {
    "en": "Unknown rule kind {kind!r}; known kinds: {known}.",
    "nl": "Onbekende regelsoort {kind!r}; bekende soorten: {known}.",
    "ja": "不明なルールの種類{kind!r}です。使える種類：{known}。",
}
# The nouns of Bounds in every language (Bounds.noun is the English one).
_NOUNS = {
    "segment": Phrase(en="segment", nl="segment", ja="区画"),
    "number of cards": Phrase(en="number of cards", nl="aantal kaarten", ja="カードの枚数"),
    "card value": Phrase(en="card value", nl="kaartwaarde", ja="カードの数字"),
    "segment value": Phrase(en="segment value", nl="segmentwaarde", ja="区画の値"),
}


# Shared by the kinds that count the cards at a segment.
NEEDS_A_CARD = {
    "en": "Every segment needs a card, so 'count' is from 1 to 12.",
    "nl": "Elk segment heeft een kaart nodig, dus 'count' is van 1 tot en met 12.",
    "ja": "どの区画にもカードが必要なので、「count」は1から12までです。",
}


@dataclass(frozen=True, slots=True)
class CardsAtSegment(Rule):
    """The parameters, checks and wording shared by the kinds that count the cards at one
    segment (``card_count``, ``min_cards``, ``max_cards``). A subclass is registered by
    itself and sets ``kind``, ``wording``, ``broken`` (its failure sentence, filled with
    ``actual`` as well), ``card_bounds``, ``holds`` and ``label``."""

    icon = "cards"

    segment: Segment
    count: Count

    def check_params(self) -> None:
        if self.count < 1:
            raise RulesError.from_wording(NEEDS_A_CARD, "count")

    def held(self, resolution: Resolution) -> int:
        """How many cards the segment holds."""
        return len(resolution.layout.segments[self.segment - 1])

    def wording_values(self, lang: str) -> dict[str, object]:
        return {"segment": self.segment, "cards": cards(self.count, lang)}

    def explain(self, resolution: Resolution, lang: str) -> str:
        return say(self.broken, lang, actual=self.held(resolution), **self.wording_values(lang))
