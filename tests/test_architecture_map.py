"""docs/architecture.md is a map: short enough to read in one sitting, and true where it names
code. (Its import drawing is checked by test_imports.py, its rule-kind lists by
test_rule_kind_lists.py, its inline-language claim by test_inline_languages.py.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
MOST_LINES = 450
# Where the project's own code is; tests, migrations and the virtualenv are not "the code".
LEFT_OUT = {".venv", "tests", "migrations", "node_modules", "var"}


def production_files() -> list[Path]:
    return [
        path for path in ROOT.rglob("*.py") if not LEFT_OUT & set(path.relative_to(ROOT).parts[:-1])
    ]


def functions_with_complexity_noqa() -> set[str]:
    """Dotted names (module.function) of the functions whose ``def`` carries ``noqa: C901``."""
    found = set()
    for path in production_files():
        source = path.read_text(encoding="utf-8")
        if "noqa: C901" not in source:
            continue
        lines = source.splitlines()
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                header = lines[node.lineno - 1 : node.body[0].lineno - 1]
                if any("noqa: C901" in line for line in header):
                    found.add(f"{module}.{node.name}")
    return found


def documented_complexity_exceptions(text: str) -> set[str]:
    """The names in backticks of the doc's sentence "… carry a `noqa: C901` saying so, are …"."""
    sentence = re.search(r"carry a `noqa: C901`[^.]*?are(.*?)\.\n", text, re.S)
    assert sentence, "the lint guards no longer name the functions with a noqa: C901"
    return {name for name in re.findall(r"`([\w.]+)`", sentence[1]) if "." in name}


def test_the_map_fits_in_one_sitting() -> None:
    lines = DOC.read_text(encoding="utf-8").count("\n")
    assert lines <= MOST_LINES, f"docs/architecture.md has {lines} lines; detail goes elsewhere"


def test_the_functions_excused_from_the_complexity_limit_are_the_ones_the_map_names() -> None:
    documented = documented_complexity_exceptions(DOC.read_text(encoding="utf-8"))
    assert documented == functions_with_complexity_noqa()


def test_the_map_links_only_to_pages_that_exist() -> None:
    text = DOC.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([\w.-]+\.md)(?:#[\w-]+)?\)", text):
        assert (DOC.parent / target).is_file(), target
