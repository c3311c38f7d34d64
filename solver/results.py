"""What a hint's row keeps as its result, and how a reused result speaks its new asker's
language. The pages and the API read this object back; its keys are a public contract,
typed once in ``rules.hint_result`` (``HintResultJson``, read back through ``read``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rules import hint_result
from rules.clock import Clock
from rules.hint_result import AlternativeJson, HintResultJson
from solver.core.search.search import HintResult


def result_json(result: HintResult, lang: str) -> HintResultJson:
    """The ``hint --json`` object in the asker's language, the words in every language
    (``words_all``), and whether the plan is a best-so-far (``partial``)."""
    data = result.to_json(lang)
    data["words_all"] = dict(result.words)
    data["partial"] = result.partial
    return data


def with_ignored_rules(data: HintResultJson, clock: Clock, lang: str) -> HintResultJson:
    """``data`` (a result planned with ``clock.known_rules()``) with ``ignored_rules``, the
    words of the rules the plan does not know, and ``odds_upper_bound``: with such a rule
    the true odds can only be lower than those measured without it."""
    ignored = list(clock.described_texts(lang))
    return {**data, "ignored_rules": ignored, "odds_upper_bound": bool(ignored)}


def in_language(stored: Mapping[str, Any] | None, lang: str) -> HintResultJson:
    """A stored result with its ``words`` in ``lang`` (a result reused for another asker),
    its alternatives' too."""
    result = hint_result.read(stored)
    words = result.get("words_all", {})
    alternatives: list[AlternativeJson] = [
        {**other, "words": other["words_all"].get(lang, other["words"])}
        for other in result["alternatives"]
    ]
    return {
        **result,
        "words": words.get(lang, result["words"]),
        "alternatives": alternatives,
    }


def offered(stored: Mapping[str, Any] | None) -> list[AlternativeJson]:
    """The plans a finished hint offers, recommended first: its ``alternatives``, or the one
    plan of a best-so-far result (or of a result stored before there were alternatives)."""
    result = hint_result.read(stored)
    if result["alternatives"]:
        return list(result["alternatives"])
    return [
        {
            "kinds": ["recommended"],
            "plan": result["plan"],
            "pass_rate": result["pass_rate"],
            "interval": result["interval"],
            "pass_rate_with_slips": result["pass_rate_with_slips"],
            "interval_with_slips": result["interval_with_slips"],
            "words": result["words"],
            "words_all": result.get("words_all", {}),
        }
    ]


def pick(result: Mapping[str, Any] | None, index: object) -> tuple[int, AlternativeJson]:
    """The offered plan at ``index`` (a query or form value); the recommended one (0) for
    anything that is not an index of an offered plan."""
    plans = offered(result)
    try:
        number = int(str(index))
    except ValueError:
        number = 0
    if not 0 <= number < len(plans):
        number = 0
    return number, plans[number]


def kind_label(kind: str) -> str:
    """A plan's role as the result page's tab names it."""
    labels = {
        "recommended": _("Recommended"),
        "simplest": _("Simplest"),
        "bold": _("Bold"),
    }
    return labels.get(kind, kind)


def kind_help(kind: str) -> str:
    helps = {
        "recommended": _("best when someone slips now and then"),
        "simplest": _("easiest to remember"),
        "bold": _("best if nobody slips"),
    }
    return helps.get(kind, "")


def _shown(rate: object) -> float:
    """A rate as the page shows it (a whole percentage): claims are judged on that."""
    return round(float(rate) * 100) if isinstance(rate, int | float) else -1.0


def claims(plans: Sequence[Mapping[str, Any]], slips: bool) -> list[str]:
    """What each offered plan's tab may say of it, joined in the reader's language: a role's
    claim only where the plan's own figures on the page show it ("best when someone slips
    now and then" once stood on a plan showing 81% with slips next to another's 82%).

    - recommended: "best when someone slips" if rates with slips are shown and none is
      higher; simplest: "easiest to remember" if no plan says fewer sentences; bold: "best
      if nobody slips" if no plan passes more clean."""
    best_slips = max((_shown(p.get("pass_rate_with_slips")) for p in plans), default=-1)
    best_clean = max((_shown(p.get("pass_rate")) for p in plans), default=-1)
    fewest = min((p.get("sentences") or 0 for p in plans), default=0)
    holds = {
        "recommended": lambda p: slips and _shown(p.get("pass_rate_with_slips")) >= best_slips,
        "simplest": lambda p: (p.get("sentences") or 0) <= fewest,
        "bold": lambda p: _shown(p.get("pass_rate")) >= best_clean,
    }
    # Japanese lists take "、", not an ASCII "; ".
    separator = pgettext("between the claims of one plan", "; ")
    return [
        separator.join(
            kind_help(kind) for kind in p.get("kinds", []) if kind in holds and holds[kind](p)
        )
        for p in plans
    ]


def moves_per_slip(slip_rate: float) -> int:
    """0.05 → 20: "a slip every twenty moves"."""
    return round(1 / slip_rate) if slip_rate > 0 else 0
