"""Each decision rule of the simulated players has one home (docs/architecture.md, "Each
decision rule has one home"): a numba function of ``agents_fast`` that both engines call.

The table in the doc names each home; these tests hold the code to it: every home named
is a numba function of ``agents_fast``, no module of the reference engine defines a twin
again (the plain-Python functions the homes replaced are gone, and no module but
``agents_fast`` computes with the average card), and the one twin the doc names, the
words' spoken belief, says what the home computes.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import numba
import pytest

from rules.clock import Clock
from rules.seats import parse_colours
from solver.core import words
from solver.core.table import agents_fast
from solver.core.table.plans import baseline_plan

ROOT = Path(__file__).resolve().parents[4]
TABLE = ROOT / "solver" / "core" / "table"
# The plain-Python twins the numba homes replaced: none may come back beside them.
REPLACED = {
    "_candidates",  # -> _tier, _score, _better (through targets_table)
    "rank_candidates",
    "_order_penalty",  # -> _score
    "_misses_lone",  # -> _score
    "_still_reachable",  # -> _tier
    "belief",  # TableRules.belief -> _belief
    "hand_order",  # -> _sort_hand
    "colour_index",
    "_misread",  # -> draw_slip
}


def _homes() -> list[str]:
    """The function names of the doc's table, column "its one home"."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("**Each decision rule has one home.**")
    rows = [
        line
        for line in text[start:].split("\n\n", 2)[1].splitlines()
        if line.startswith("| ") and not line.startswith("| decision rule")
    ]
    return [name for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[2])]


def _defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


def test_the_table_names_a_numba_home_for_every_rule() -> None:
    homes = _homes()
    assert len(homes) >= 10  # the table was read: eight rules, some with two functions
    for name in homes:
        home = getattr(agents_fast, name)
        assert isinstance(home, numba.core.registry.CPUDispatcher), name
        assert home.py_func.__module__ == agents_fast.__name__, name


@pytest.mark.parametrize(
    "path", sorted(p for p in TABLE.glob("*.py") if p.name != "agents_fast.py"), ids=str
)
def test_no_reference_module_writes_a_rule_again(path: Path) -> None:
    defined = _defined(path)
    assert not defined & REPLACED
    # Nor under a home's own name (``_score``, ``score``, ``face_up``...).
    assert not defined & {name for home in _homes() for name in (home, home.lstrip("_"))}


def test_only_the_home_and_the_spoken_twin_compute_with_the_average_card() -> None:
    users = set()
    for path in (ROOT / "solver").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(
            isinstance(node, ast.Name)
            and node.id == "AVERAGE_CARD"
            and isinstance(node.ctx, ast.Load)
            for node in ast.walk(tree)
        ):
            users.add(path.relative_to(ROOT).as_posix())
    assert users == {"solver/core/table/agents_fast.py", "solver/core/words.py"}


@pytest.mark.parametrize("weight", [0.0, 0.3, 0.75, 1.0])
def test_the_words_read_a_hidden_card_as_the_belief_convention_does(weight: float) -> None:
    clock = Clock("2-1", 2, 1)
    plan = replace(baseline_plan(clock, parse_colours("SSMM/SMSM/MMSS"), 0), need_weight=weight)
    for missing in (-3.0, 0.0, 0.5, 1.0, 4.25, 7.0, 11.5, 12.0, 20.0):
        said = words._read_as(plan, missing)
        assert said == words.spoken_number(agents_fast._belief(missing, 0.0, weight))
