"""The one hint-result type (``rules.hint_result``): what the solver writes, how an old
stored result reads, and that no reader reaches for a key the type does not have where mypy
cannot see it (ORM lookups, templates, reads of the untyped ``hint.result``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import hint_result
from rules.hint_result import KEYS, VERSION, HintResultJson

ROOT = Path(__file__).resolve().parents[2]
# Lookups Django puts after a JSON field itself, not keys of the stored object.
ORM_OPERATORS = {"isnull", "has_key", "has_keys", "has_any_keys", "contains", "contained_by"}
PATTERNS = (
    # ORM lookups written by hand: filter(result__pass_rate__gte=…), KT("result__odds")
    re.compile(r"""\bresult__(\w+)"""),
    # reads of the raw stored object: hint.result.get("x"), (hint.result or {}).get("x"),
    # hint.result["x"], and in templates hint.result.x
    re.compile(r"""\.result(?:\s+or\s+\{\}\))?\.get\(\s*["'](\w+)["']"""),
    re.compile(r"""\.result\[\s*["'](\w+)["']"""),
    re.compile(r"""\bhint\.result\.(\w+)"""),
)


def keys_read(text: str) -> set[str]:
    """The result keys a source text reaches for by name, outside the type's view."""
    found = set()
    for pattern in PATTERNS:
        for match in pattern.finditer(text):
            key = match.group(1)
            if pattern is PATTERNS[0]:
                key = key.split("__")[0]
            found.add(key)
    return found - ORM_OPERATORS


def project_sources() -> list[Path]:
    skip = {".venv", "tests", "migrations", "__pycache__", "var", "node_modules"}
    files = [*ROOT.rglob("*.py"), *ROOT.rglob("*.html")]
    return [p for p in files if not skip & set(p.relative_to(ROOT).parts)]


def test_every_key_read_by_name_is_a_key_of_the_type() -> None:
    unknown = {
        f"{path.relative_to(ROOT)}: {key}"
        for path in project_sources()
        for key in keys_read(path.read_text(encoding="utf-8"))
        if key not in KEYS
    }
    assert not unknown, f"keys the hint-result type does not have: {sorted(unknown)}"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('KT("result__pass_rat")', "pass_rat"),
        ("hints.filter(result__rate__gte=0.5)", "rate"),
        ('(hint.result or {}).get("rate")', "rate"),
        ('hint.result["rates"]', "rates"),
        ("{{ hint.result.game }}", "game"),
    ],
)
def test_the_scan_sees_a_misspelt_key(text: str, key: str) -> None:
    assert keys_read(text) == {key}
    assert key not in KEYS


def test_the_scan_leaves_django_lookups_on_the_field_alone() -> None:
    assert keys_read("Q(result__isnull=False)") == set()
    assert keys_read("filter(result__pass_rate__gte=0.5)") == {"pass_rate"}


def test_lookup_spells_the_path_of_a_key() -> None:
    assert hint_result.lookup("pass_rate") == "result__pass_rate"


def test_build_writes_every_required_key_and_the_version() -> None:
    built = hint_result.build(
        plan={},
        pass_rate=0.612345,
        interval=(0.6, 0.62),
        baseline_rate=0.3,
        odds=None,
        games=1000,
        words="",
    )
    assert built["version"] == VERSION
    assert set(built) == set(HintResultJson.__required_keys__)
    assert built["pass_rate"] == 0.6123
    # no slips measured: the rate with slips is the clean one
    assert built["pass_rate_with_slips"] == 0.6123
    assert built["interval_with_slips"] == [0.6, 0.62]


def test_a_result_stored_before_the_version_reads_upgraded() -> None:
    old = {
        "plan": {"targets": [7.0]},
        "pass_rate": 0.5,
        "interval": [0.47, 0.53],
        "baseline_rate": 0.3,
        "odds": None,
        "games": 1000,
        "words": "Play low.",
        "partial": False,
        "something_older": 1,
    }
    read = hint_result.read(old)
    assert read["version"] == VERSION
    assert read["slip_rate"] == 0.0
    assert read["pass_rate_with_slips"] == 0.5
    assert read["interval_with_slips"] == [0.47, 0.53]
    assert read["alternatives"] == []
    assert read["plan"] == {"targets": [7.0]}
    assert read.get("partial") is False
    assert dict(read)["something_older"] == 1  # kept, not dropped
    assert set(HintResultJson.__required_keys__) <= set(read)


def test_an_old_alternative_gets_its_words_and_kinds() -> None:
    read = hint_result.read({"pass_rate": 0.4, "alternatives": [{"pass_rate": 0.4}]})
    (alternative,) = read["alternatives"]
    assert alternative["kinds"] == [] and alternative["words"] == ""
    assert alternative["words_all"] == {} and alternative["plan"] == {}


def test_a_current_result_reads_as_stored() -> None:
    built = hint_result.build(
        plan={}, pass_rate=0.5, interval=(0.4, 0.6), baseline_rate=0.2, odds=0.9, games=10,
        words="x", slip_rate=0.05, pass_rate_with_slips=0.45,
    )  # fmt: skip
    assert hint_result.read(built) == built


def test_no_result_reads_empty() -> None:
    assert hint_result.read(None)["pass_rate"] == 0.0
    assert hint_result.read({})["alternatives"] == []
