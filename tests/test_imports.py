"""Guards on how the project's modules import each other.

- ``rules/`` and ``solver/core/`` are plain Python: neither their source nor the modules they
  load at run time bring in Django, so the Django apps can call them and never the reverse.
- No two of the project's modules import each other, directly or through others. An import
  inside a function counts: it hides a cycle from Python's loader, not from the reader.
- Each package imports only the packages ``ALLOWED`` names, the directions drawn in
  docs/architecture.md ("Packages and the direction of imports"); the drawing is checked
  against the table, so the two cannot drift apart.

The graph is read from the source with ``ast`` (tests and migrations left out), so it sees
every import, also those a run would only reach on some path.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ("rules", "solver/core")  # packages that must not import Django
DOC = ROOT / "docs" / "architecture.md"

# Each layer and the layers of ours it may import. The solver's core counts apart from the
# Django side of the solver, and each of its rooms counts apart: ``solver.core`` itself is
# what stands above the rooms (the warm-up, the version).
ROOMS = ("solver.core.oracle", "solver.core.table", "solver.core.search", "solver.core.words")
ALLOWED: dict[str, set[str]] = {
    "accounts": {"config"},
    "ops": {"config", "campaigns"},
    "campaigns": {"config", "rules"},
    "solver": {"config", "campaigns", "ops", "solver.core", *ROOMS, "rules"},
    "solver.core": {"solver.core.oracle", "solver.core.table", "rules"},
    "solver.core.search": {"solver.core.oracle", "solver.core.table", "solver.core.words", "rules"},
    "solver.core.words": {"solver.core.table", "rules"},
    "solver.core.table": {"rules"},
    "solver.core.oracle": {"rules"},
    "bench": {"config", "campaigns", "ops", "solver", "solver.core", *ROOMS, "rules"},
    "config": {"rules"},
    "rules": set(),
}


def project_packages(root: Path) -> list[str]:
    """The top-level packages of the project: folders with an ``__init__.py``."""
    return sorted(
        path.parent.name
        for path in root.glob("*/__init__.py")
        if path.parent.name not in ("tests", ".venv", "var")
    )


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module under ``package`` (a path like "solver/core"), by dotted name."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if "migrations" in parts or "__pycache__" in parts:
            continue
        name = ".".join(parts).removesuffix(".__init__")
        modules[name] = path
    return modules


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that runs (at import time or later), skipping the blocks
    under ``if TYPE_CHECKING:``, which only the type checker reads."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imported_names(name: str, path: Path) -> set[str]:
    """The dotted names a module imports, relative imports resolved. ``from a import b``
    gives "a.b" as well as "a": b may be a submodule or a name defined in a."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            anchor = ".".join(parts[: len(parts) - node.level + 1])
            base = f"{anchor}.{base}" if base else anchor
        found.add(base)
        found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module → the project modules it imports (the most specific one each import names)."""
    files: dict[str, Path] = {}
    for package in project_packages(root):
        files.update(module_files(root, package))
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets = set()
        for imported in imported_names(name, path):
            if imported in files:
                targets.add(imported)
        # "from solver import services" names both "solver" and "solver.services": the
        # submodule is what is meant, the package only when nothing more specific is.
        graph[name] = {
            t for t in targets if t != name and not any(o.startswith(t + ".") for o in targets)
        }
    return graph


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Top-level package → the other top-level packages its modules import."""
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        package = module.partition(".")[0]
        others = {target.partition(".")[0] for target in targets} - {package}
        packages.setdefault(package, set()).update(others)
    return packages


def layer(module: str) -> str:
    """The layer of a module: its top-level package; in the solver's core, its room."""
    if not module.startswith("solver.core"):
        return module.partition(".")[0]
    return next((room for room in ROOMS if f"{module}.".startswith(f"{room}.")), "solver.core")


def direction_violations(graph: dict[str, set[str]], allowed: dict[str, set[str]]) -> list[str]:
    """ "module imports target" for every import across layers that ``allowed`` does not
    list (a layer missing from ``allowed`` may import nothing of ours)."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if layer(target) != layer(module) and layer(target) not in allowed.get(layer(module), set())
    )


def documented_directions(text: str) -> dict[str, set[str]]:
    """The arrows of the doc's drawing, "a, b ──> c (why), d": a and b may import c and d;
    "──> nothing of ours": nothing. Notes in parentheses are read past."""
    drawn: dict[str, set[str]] = {}
    for line in text.splitlines():
        if "──>" not in line:
            continue
        left, right = (re.sub(r"\([^)]*\)", "", side) for side in line.split("──>"))
        targets = {t.strip() for t in right.split(",") if t.strip()} - {"nothing of ours"}
        for source in (s.strip() for s in left.split(",")):
            drawn.setdefault(source, set()).update(targets)
    return drawn


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as one
    cycle through them that a reader can follow: a → b → … → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_a_cycle_through(component, graph) for component in sorted(components)]


def _a_cycle_through(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """The shortest path from the component's first module back to itself."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"no cycle in component {component}")


def django_imports(root: Path, package: str) -> list[str]:
    """ "module imports django.x" for every import of Django in the package's source."""
    found = []
    for name, path in module_files(root, package).items():
        names = {n for n in imported_names(name, path) if n == "django" or n.startswith("django.")}
        # "from django.conf import settings" also names django.conf.settings: say it once.
        for imported in sorted(n for n in names if n.rpartition(".")[0] not in names):
            found.append(f"{name} imports {imported}")
    return found


# --- The guards ------------------------------------------------------------------------------


def test_the_project_modules_import_each_other_without_a_cycle() -> None:
    found = cycles(import_graph(ROOT))
    assert not found, "import cycles:\n" + "\n".join(" → ".join(cycle) for cycle in found)


def test_the_project_packages_import_each_other_without_a_cycle() -> None:
    """One level up: an app that imports another must not be imported by it (``config``
    wires the apps by dotted strings, in settings and URLs, and imports none of them)."""
    found = cycles(package_graph(import_graph(ROOT)))
    assert not found, "import cycles:\n" + "\n".join(" → ".join(cycle) for cycle in found)


def test_every_package_imports_only_in_the_documented_directions() -> None:
    graph = import_graph(ROOT)
    unknown = sorted({layer(module) for module in graph} - set(ALLOWED))
    assert not unknown, f"packages missing from ALLOWED (and from the doc): {unknown}"
    found = direction_violations(graph, ALLOWED)
    assert not found, "imports against the documented directions:\n" + "\n".join(found)


def test_the_doc_draws_the_directions_this_test_enforces() -> None:
    drawn = documented_directions(DOC.read_text(encoding="utf-8"))
    assert {layer: drawn.get(layer, set()) for layer in ALLOWED} == ALLOWED
    assert set(drawn) <= set(ALLOWED)


@pytest.mark.parametrize("package", PURE)
def test_the_source_of_a_pure_package_imports_nothing_from_django(package: str) -> None:
    assert django_imports(ROOT, package) == []


@pytest.mark.parametrize("package", PURE)
def test_loading_every_module_of_a_pure_package_loads_no_django(package: str) -> None:
    """What the source check cannot see: Django pulled in through a third-party import."""
    modules = sorted(module_files(ROOT, package))
    assert len(modules) > 5, modules  # the glob found the package …
    assert "rules.kinds.strictly_rising" in module_files(ROOT, "rules")  # … and subpackages
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaks = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(leaks)\n"
        "sys.exit(1 if leaks else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- The guards can fail ---------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "jobs/__init__.py": "",
            "jobs/asking.py": "def send():\n    from jobs.tasks import run\n",
            "jobs/tasks.py": "from jobs import running\n",
            "jobs/running.py": "from .asking import send\n",
            "jobs/migrations/__init__.py": "",
            "jobs/migrations/0001.py": "import jobs.tasks\n",
            "other/__init__.py": "",
            "other/fine.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from jobs.tasks import run\n",
            "tests/__init__.py": "",
            "tests/test_x.py": "import other.fine\n",
        },
    )
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["jobs.asking", "jobs.tasks", "jobs.running", "jobs.asking"]]
    assert "jobs.migrations.0001" not in graph
    assert graph["other.fine"] == set()  # a type-only import is no cycle
    assert cycles(package_graph(graph)) == []


def test_two_packages_that_import_each_other_are_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "config/__init__.py": "",
            "config/celery.py": "def start():\n    from ops.heartbeat import beat\n",
            "ops/__init__.py": "",
            "ops/heartbeat.py": "",
            "ops/views.py": "from config.celery import app\n",
        },
    )
    graph = import_graph(tmp_path)
    assert cycles(graph) == []  # no module is its own importer …
    assert cycles(package_graph(graph)) == [["config", "ops", "config"]]  # … but the apps are


def test_a_lazy_django_import_in_a_pure_package_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pure/__init__.py": "",
            "pure/a.py": "import numpy\n\ndef f():\n    from django.conf import settings\n",
        },
    )
    assert django_imports(tmp_path, "pure") == ["pure.a imports django.conf"]


def test_an_import_against_the_directions_is_found() -> None:
    graph = {"rules.clock": {"config.errors"}, "config.api": {"rules.errors"}, "ops.x": set()}
    assert direction_violations(graph, ALLOWED) == ["rules.clock imports config.errors"]


def test_the_doc_reader_reads_sources_targets_and_notes() -> None:
    text = "a, b ──> c   (why, and how)\nc ──> d (one; two), e\ne ──> nothing of ours\n"
    assert documented_directions(text) == {"a": {"c"}, "b": {"c"}, "c": {"d", "e"}, "e": set()}
