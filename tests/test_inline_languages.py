"""The pure packages (``rules/``, ``solver/core/``) word what they say in inline
``{"en": …, "nl": …, "ja": …}`` dicts, since they load no Django and so no gettext catalogue
(docs/architecture.md, "Where a sentence goes"). Every such dict has every language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = {"en", "nl", "ja"}


def wordings(source: str) -> list[tuple[int, set[str]]]:
    """Each dict literal keyed by language codes (it has "en" and only language-like keys):
    its line and its keys."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Dict) or not node.keys:
            continue
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
        codes = {k for k in keys if isinstance(k, str) and len(k) == 2}
        if len(codes) == len(node.keys) and "en" in codes:
            found.append((node.lineno, codes))
    return found


@pytest.mark.parametrize("package", ["rules", "solver/core"])
def test_every_inline_wording_has_every_language(package: str) -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{line} has {sorted(keys)}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, keys in wordings(path.read_text(encoding="utf-8"))
        if keys != LANGUAGES
    ]
    assert missing == []


def test_the_check_sees_a_wording_without_japanese() -> None:
    source = 'A = {"en": "Sun", "nl": "Zon"}\nB = {"en": 1, "nl": 2, "ja": 3}\nC = {"x": 1}\n'
    assert wordings(source) == [(1, {"en", "nl"}), (2, {"en", "nl", "ja"})]
