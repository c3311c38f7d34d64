"""Every RulesError the engine raises can be read in English, Dutch and Japanese."""

from __future__ import annotations

import ast
import importlib
import string
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules.cards import parse_card
from rules.catalogue import get_clock
from rules.clock import Clock, clock_from_json_text
from rules.errors import Phrase, RulesError
from rules.i18n import LANGUAGES, check_lang
from rules.kinds import rule_from_json
from rules.layout import parse_layout
from rules.seats import parse_colours

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"


@dataclass(frozen=True)
class RaiseSite:
    where: str  # path:line
    module: str
    wording: ast.expr
    params: tuple[str, ...]
    spread: bool  # called with **params


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _is_from_wording(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "from_wording"
        and isinstance(func.value, ast.Name)
        and func.value.id == "RulesError"
    )


def _scan() -> tuple[list[RaiseSite], list[str]]:
    """The from_wording calls in rules/, and the places that build a RulesError directly."""
    sites, direct = [], []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(node.func, ast.Name) and node.func.id == "RulesError":
                direct.append(where)
            elif _is_from_wording(node):
                sites.append(
                    RaiseSite(
                        where,
                        _module_name(path),
                        node.args[0],
                        tuple(k.arg for k in node.keywords if k.arg is not None),
                        any(k.arg is None for k in node.keywords),
                    )
                )
    return sites, direct


SITES, DIRECT = _scan()


def _wording(site: RaiseSite) -> object:
    if isinstance(site.wording, ast.Name):
        return getattr(importlib.import_module(site.module), site.wording.id)
    return ast.literal_eval(site.wording)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_raise_site_in_rules_is_worded() -> None:
    # Only RulesError itself (copying an error) may build one from a bare message.
    assert all(where.startswith("rules/errors.py") for where in DIRECT), DIRECT
    assert len(SITES) >= 80


@pytest.mark.parametrize("site", SITES, ids=[site.where for site in SITES])
def test_raise_site_wording_has_all_languages_and_formats(site: RaiseSite) -> None:
    assert not site.spread, "pass the parameters by name so they can be checked"
    wording = _wording(site)
    assert isinstance(wording, dict)
    assert set(wording) == set(LANGUAGES)
    for lang in LANGUAGES:
        template = wording[lang]
        assert isinstance(template, str) and template.strip()
        assert _fields(template) == set(site.params), (lang, template)
        text = template.format(**dict.fromkeys(site.params, 7))
        assert "{" not in text and "}" not in text
    assert wording["ja"] != wording["en"] and wording["nl"] != wording["en"]


def _error(call: object, *args: object) -> RulesError:
    with pytest.raises(RulesError) as info:
        call(*args)  # type: ignore[operator]
    return info.value


def test_card_error_in_three_languages() -> None:
    error = _error(parse_card, "S13")
    assert error.message == "'S13' is not a card: values go from 1 to 12."
    assert error.in_language("en") == error.message == str(error)
    assert error.in_language("nl") == "'S13' is geen kaart: de waarden lopen van 1 tot en met 12."
    assert error.in_language("ja") == "'S13'はカードではありません。数字は1から12までです。"
    assert error.field == "card"


def test_layout_error_in_three_languages() -> None:
    error = _error(parse_layout, "S1 | S2 | S3 | S4 | S5 | S6")
    assert error.message == "A layout has exactly 12 cards; this one has 6."
    nl = "Een kaartverdeling heeft precies 12 kaarten; deze heeft er 6."
    assert error.in_language("nl") == nl
    assert error.in_language("ja") == "配置のカードはちょうど12枚ですが、この配置には6枚あります。"
    bad_card = _error(parse_layout, "S1 | X2@3")
    assert bad_card.in_language("ja").startswith("配置は区画形式")


def test_colours_error_in_three_languages() -> None:
    error = _error(parse_colours, "SSMM+SM/SMM+SS")
    assert error.message.startswith("With 2 players each seat holds a set of 4 and a set of 2")
    assert "stoel 2 is 'SMM+SS'" in error.in_language("nl")
    assert "2番目の席は「SMM+SS」です" in error.in_language("ja")


def test_rule_parameter_error_keeps_its_wording_when_nested_in_a_clock() -> None:
    rule = {"kind": "value_range", "segment": 2, "min": 20, "max": 10}
    definition = {"id": "1-1", "rules": [rule]}
    error = _error(Clock.from_json, definition)
    assert error.field == "rules[0].min"
    assert error.message == "'min' (20) cannot be greater than 'max' (10)."
    assert error.in_language("nl") == "'min' (20) kan niet groter zijn dan 'max' (10)."
    assert error.in_language("ja") == "「min」（20）は「max」（10）より大きくできません。"


def test_worded_parameters_follow_the_language() -> None:
    choice = _error(rule_from_json, {"kind": "single_colour", "segment": 1, "colour": "X"})
    assert choice.message == "The parameter 'colour' must be 'S' or 'M', not 'X'."
    assert "'S' of 'M'" in choice.in_language("nl")
    assert "「S」か「M」" in choice.in_language("ja")
    count = _error(rule_from_json, {"kind": "card_count", "segment": 1, "count": 13})
    assert "(number of cards)" in count.message
    assert "(aantal kaarten)" in count.in_language("nl")
    assert "（カードの枚数）" in count.in_language("ja")


def test_catalogue_json_and_language_errors() -> None:
    unknown = _error(get_clock, "11-1")
    assert unknown.in_language("ja") == "不明な時計盤'11-1'です。時計盤は1-1〜10-4とrebirthです。"
    not_json = _error(clock_from_json_text, "{")
    assert not_json.in_language("nl").startswith("De klokdefinitie is geen geldige JSON:")
    language = _error(check_lang, "de")
    assert language.in_language("nl") == "Onbekende taal 'de': gebruik en, nl of ja."


def test_unknown_language_and_plain_errors_fall_back() -> None:
    error = _error(parse_card, "S0")
    assert error.in_language("de") == error.in_language(None) == error.message
    plain = RulesError("Al vertaald.", "new_rule")
    assert plain.in_language("ja") == plain.in_language("nl") == "Al vertaald."
    moved = error.with_field("layout")
    assert moved.field == "layout" and moved.in_language("nl") == error.in_language("nl")


def test_phrase_is_english_by_default() -> None:
    phrase = Phrase(en="none", nl="geen", ja="なし")
    assert str(phrase) == "none"
    error = RulesError.from_wording({"en": "{x}.", "nl": "{x}!", "ja": "{x}。"}, None, x=phrase)
    assert (error.message, error.in_language("nl"), error.in_language("ja")) == (
        "none.",
        "geen!",
        "なし。",
    )
