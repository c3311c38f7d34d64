"""The one shape of a finished hint's result: what the solver writes into a hint's row and
what the pages, the API, the statistics, the recap and the demo read back.

It lives in ``rules/`` because this is the one package every side may import (the table in
tests/test_imports.py): the solver's core builds it (``solver.core.search`` may import
``rules`` only), the solver's Django side stores and words it, and ``campaigns`` (which
imports nothing from the solver) reads it for the statistics and writes it for the demo.
It is plain data, no Django: a ``TypedDict`` is the JSON object as stored, so mypy rejects
a key the type does not have wherever a reader names one.

- ``build`` is the one constructor: the solver's ``HintResult.to_json`` and the demo go
  through it, so every new result carries ``VERSION``.
- ``read`` is the one reader of a stored result: a result stored before there was a
  version (or before the rates with slips, the alternatives, the words in every language)
  comes back upgraded to the current shape, with the defaults the pages always assumed.
- ``lookup`` spells a database lookup into a stored result (``result__pass_rate``) from a
  ``Key``, which mypy checks; a test scans the code for lookups written by hand, which it
  cannot see, and checks their keys against the type.

No ``from __future__ import annotations`` here: the required keys are read at run time.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, cast, get_args

VERSION = 1


class PlanJson(TypedDict, total=False):
    """A plan as ``Plan.to_json`` writes it (parsed back by ``Plan.from_json``); the demo
    and results stored before plans were kept write ``{}``."""

    version: int
    targets: list[Any]
    need_weight: float
    order_weight: float
    open_bonus: float
    face_up_threshold: int
    opener: int | None
    owners: dict[str, list[int]]
    bands: dict[str, list[float]]
    band_weight: float
    lone: dict[str, Any]
    exact: bool


class AlternativeJson(TypedDict):
    """One of the plans a hint offers (``solver.core.search.hint_result.Alternative``)."""

    kinds: list[str]
    plan: PlanJson
    pass_rate: float | None
    interval: list[float]
    pass_rate_with_slips: float | None
    interval_with_slips: list[float] | None
    sentences: NotRequired[int]
    word_count: NotRequired[int]
    words: str
    words_all: dict[str, str]


class HintResultJson(TypedDict):
    """A finished hint's result. Rates are fractions (0.8125), intervals ``[low, high]``."""

    version: int
    plan: PlanJson
    pass_rate: float
    interval: list[float]
    baseline_rate: float
    odds: float | None  # perfect-information odds; None when they could not be computed
    games: int  # fresh deals behind pass_rate and baseline_rate
    words: str  # the plan's words in the asker's language
    slip_rate: float
    pass_rate_with_slips: float
    interval_with_slips: list[float]
    alternatives: list[AlternativeJson]  # empty for a best-so-far result
    words_all: NotRequired[dict[str, str]]  # the plan's words in every language
    partial: NotRequired[bool]  # a best-so-far result (rate measured on search deals)
    ignored_rules: NotRequired[list[str]]  # the rules the plan does not know, worded
    odds_upper_bound: NotRequired[bool]  # with such a rule the odds can only be lower


KEYS = frozenset(HintResultJson.__annotations__)
Key = Literal[
    "version", "plan", "pass_rate", "interval", "baseline_rate", "odds", "games", "words",
    "slip_rate", "pass_rate_with_slips", "interval_with_slips", "alternatives", "words_all",
    "partial", "ignored_rules", "odds_upper_bound",
]  # fmt: skip
assert frozenset(get_args(Key)) == KEYS, "Key names every key of HintResultJson"


def lookup(key: Key, field: str = "result") -> str:
    """The ORM path to ``key`` of a stored result: ``KT(lookup("pass_rate"))``."""
    return f"{field}__{key}"


def rounded(interval: Sequence[float]) -> list[float]:
    return [round(float(interval[0]), 4), round(float(interval[1]), 4)]


def build(
    *,
    plan: PlanJson,
    pass_rate: float,
    interval: Sequence[float],
    baseline_rate: float,
    odds: float | None,
    games: int,
    words: str,
    slip_rate: float = 0.0,
    pass_rate_with_slips: float | None = None,
    interval_with_slips: Sequence[float] | None = None,
    alternatives: Sequence[AlternativeJson] = (),
) -> HintResultJson:
    """A result in the current shape, rates rounded to 4 places as stored; the rate and
    interval with slips default to the clean ones (no slips measured)."""
    with_slips = pass_rate if pass_rate_with_slips is None else pass_rate_with_slips
    return {
        "version": VERSION,
        "plan": plan,
        "pass_rate": round(pass_rate, 4),
        "interval": rounded(interval),
        "baseline_rate": round(baseline_rate, 4),
        "odds": None if odds is None else round(odds, 4),
        "games": games,
        "words": words,
        "slip_rate": slip_rate,
        "pass_rate_with_slips": round(with_slips, 4),
        "interval_with_slips": rounded(interval_with_slips or interval),
        "alternatives": list(alternatives),
    }


def _rate(value: object, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return float(value)


def _interval(value: object, default: list[float]) -> list[float]:
    if isinstance(value, list | tuple) and len(value) == 2:
        return [_rate(value[0]), _rate(value[1])]
    return default


def _alternative(data: Mapping[str, Any]) -> AlternativeJson:
    return {
        **cast(AlternativeJson, data),
        "kinds": list(data.get("kinds", [])),
        "plan": cast(PlanJson, data.get("plan") or {}),
        "words": str(data.get("words", "")),
        "words_all": dict(data.get("words_all") or {}),
    }


def read(stored: Mapping[str, Any] | None) -> HintResultJson:
    """A stored result in the current shape. A result without ``version`` (stored before
    this type, or by an older demo) is upgraded: the rates with slips are the clean ones,
    no alternatives, no words when none were kept. ``None`` or ``{}`` (no result yet)
    reads as an empty result with no rate. Keys this version does not know are kept."""
    data = dict(stored or {})
    if data.get("version") == VERSION:
        return cast(HintResultJson, data)
    pass_rate = _rate(data.get("pass_rate"))
    interval = _interval(data.get("interval"), [0.0, 0.0])
    upgraded: dict[str, Any] = {
        **data,
        "version": VERSION,
        "plan": data.get("plan") or {},
        "pass_rate": pass_rate,
        "interval": interval,
        "baseline_rate": _rate(data.get("baseline_rate")),
        "odds": data.get("odds") if isinstance(data.get("odds"), int | float) else None,
        "games": int(data.get("games") or 0),
        "words": str(data.get("words", "")),
        "slip_rate": _rate(data.get("slip_rate")),
        "pass_rate_with_slips": _rate(data.get("pass_rate_with_slips"), pass_rate),
        "interval_with_slips": _interval(data.get("interval_with_slips"), interval),
        "alternatives": [_alternative(a) for a in data.get("alternatives") or []],
    }
    return cast(HintResultJson, upgraded)
