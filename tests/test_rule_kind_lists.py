"""A rule kind is listed in a few places besides its module (docs/architecture.md, "How to
add a rule kind"): this fails when a kind in ``rules/kinds/`` is missing from one of them,
or when a list names a kind that does not exist. The kinds are read from the folder, so a
new kind is checked without editing this test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from campaigns.definitions.editor import KIND_NAMES
from rules.kinds import RULE_KINDS
from solver.core.oracle.compiled import KNOWN_KINDS
from solver.core.table.table_rules import PLANNED_KINDS

ROOT = Path(__file__).resolve().parents[1]
NOT_KINDS = {"__init__", "base"}


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def kinds_in_folder() -> set[str]:
    """The ``kind`` of every rule module in rules/kinds/, read from its source."""
    found: set[str] = set()
    for path in sorted((ROOT / "rules" / "kinds").glob("*.py")):
        if path.stem in NOT_KINDS:
            continue
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "kind" for t in targets):
                    names |= _strings(node.value)
        assert len(names) == 1, f"{path.name} sets no single `kind`"
        found |= names
    return found


KINDS = sorted(kinds_in_folder())


def test_the_folder_holds_kinds() -> None:
    assert len(KINDS) >= 10


def test_every_kind_module_is_registered() -> None:
    assert set(RULE_KINDS) == set(KINDS)


def _test_list(name: str) -> set[str]:
    """The kinds named by a constant of tests/rules/test_rule_kinds.py: the strings of a set,
    or the "kind" of each rule of a list of rules."""
    tree = ast.parse((ROOT / "tests" / "rules" / "test_rule_kinds.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                value: ast.expr = node.value
                break
    else:
        raise AssertionError(f"{name} not found in tests/rules/test_rule_kinds.py")
    rules = [d for d in ast.walk(value) if isinstance(d, ast.Dict)]
    if not rules:
        return _strings(value)
    return {
        kind
        for d in rules
        for k, v in zip(d.keys, d.values, strict=True)
        if isinstance(k, ast.Constant) and k.value == "kind"
        for kind in _strings(v)
    }


def _game_md_kinds() -> set[str]:
    """The first column of the table under "Special rules (the rule kinds)"."""
    text = (ROOT / "docs" / "game.md").read_text(encoding="utf-8")
    section = text.split("## Special rules (the rule kinds)", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, re.M))


LISTS = {
    "campaigns/definitions/editor.py KIND_NAMES": lambda: set(KIND_NAMES),
    "docs/game.md, the rule kinds table": _game_md_kinds,
    "tests/rules/test_rule_kinds.py REQUIRED": lambda: _test_list("REQUIRED"),
    "tests/rules/test_rule_kinds.py SAMPLES": lambda: _test_list("SAMPLES"),
}


@pytest.mark.parametrize("where", sorted(LISTS))
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_in_each_list(kind: str, where: str) -> None:
    assert kind in LISTS[where](), f"rule kind {kind!r} is missing from {where}"


@pytest.mark.parametrize("where", sorted(LISTS))
def test_no_list_names_a_kind_that_does_not_exist(where: str) -> None:
    assert LISTS[where]() <= set(KINDS)


def test_the_solver_models_only_kinds_that_exist() -> None:
    """The solver's lists may lack a kind (it is refused, or played by the reference engine),
    but never name one that is gone."""
    assert set(KINDS) >= KNOWN_KINDS
    assert set(KINDS) >= PLANNED_KINDS
