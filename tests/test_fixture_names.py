"""One meaning per fixture name across the suite.

A fixture name is defined once in tests/ (in the conftest.py of the folder whose tests use
it, or in the one test file that does) and by no plugin the suite loads, so ``table`` or
``played`` cannot mean one thing in one file and another thing in the next. A deliberate
override of a plugin's fixture is listed in OVERRIDES with its reason.
"""

from __future__ import annotations

import ast
import inspect
from collections import defaultdict
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# name -> why a second definition (in tests/ or by a plugin) is on purpose.
OVERRIDES: dict[str, str] = {}


def fixture_names(source: str) -> list[tuple[str, int]]:
    """The fixtures a module defines: (name, line), with ``@pytest.fixture(name=...)``
    giving the name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if ast.unparse(target) not in ("pytest.fixture", "fixture"):
                continue
            name = node.name
            for keyword in call.keywords if call else []:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    name = str(keyword.value.value)
            found.append((name, node.lineno))
    return found


def definitions_in_tests() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(TESTS.rglob("*.py")):
        for name, line in fixture_names(path.read_text(encoding="utf-8")):
            where[name].append(f"{path.relative_to(TESTS.parent)}:{line}")
    return where


def definitions_by_plugins(config: pytest.Config) -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for plugin in config.pluginmanager.get_plugins():
        try:
            file = inspect.getsourcefile(plugin)
        except TypeError:  # a plugin object, not a module
            continue
        if file is None or Path(file).resolve().is_relative_to(TESTS):
            continue
        # A plugin package defines its fixtures in modules of its own (pytest-django's in
        # fixtures.py, imported by plugin.py): read the package's modules beside the plugin.
        package = Path(file).parent
        modules = sorted(package.glob("*.py")) if (package / "__init__.py").exists() else []
        for module in modules or [Path(file)]:
            for name, line in fixture_names(module.read_text(encoding="utf-8")):
                where[name].append(f"{package.name}/{module.name}:{line}")
    return where


def test_the_finder_sees_plain_named_and_called_fixtures() -> None:
    source = (
        "import pytest\n"
        "@pytest.fixture\ndef table(): ...\n"
        "@pytest.fixture(scope='module')\ndef played(): ...\n"
        "@pytest.fixture(name='group')\ndef _group(): ...\n"
        "def helper(): ...\n"
    )
    assert [name for name, _line in fixture_names(source)] == ["table", "played", "group"]


def test_a_fixture_name_is_defined_once_in_tests() -> None:
    twice = {
        name: places
        for name, places in definitions_in_tests().items()
        if len(places) > 1 and name not in OVERRIDES
    }
    assert twice == {}, (
        "one fixture name, several definitions: give each its own name (what it is), or put "
        "the one definition in the conftest.py of the folder whose tests share it"
    )


def test_no_fixture_in_tests_shadows_a_plugins_fixture(pytestconfig: pytest.Config) -> None:
    plugins = definitions_by_plugins(pytestconfig)
    assert "db" in plugins and "settings" in plugins  # pytest-django's, so the search works
    shadowed = {
        name: places + plugins[name]
        for name, places in definitions_in_tests().items()
        if name in plugins and name not in OVERRIDES
    }
    assert shadowed == {}, "a fixture in tests/ redefines a plugin's fixture of that name"


def test_every_listed_override_still_overrides(pytestconfig: pytest.Config) -> None:
    ours, plugins = definitions_in_tests(), definitions_by_plugins(pytestconfig)
    stale = [name for name in OVERRIDES if len(ours.get(name, [])) + len(plugins[name]) < 2]
    assert stale == [], "an override listed in OVERRIDES no longer overrides anything"
