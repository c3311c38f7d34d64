"""Rooms stay small: no module over MAX_MODULE_LINES in ``campaigns/`` or ``solver/`` and no
function over MAX_FUNCTION_LINES anywhere in the project's packages.

The exemptions, counted:

- the oracle's numba kernel (``compiled_kernel.py``), from both limits: one long loop each is
  how numba runs fast;
- the compiled players (``agents_fast.py``), from the module limit only: numba caches a
  kernel by its own file, so the game loop and every helper it calls (the exactly-twelve
  convention's one home among them) share one module; its functions keep the limit;
- ``models.py`` (one Django app, one models module).

Migrations are generated.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 120
PACKAGES = ("accounts", "campaigns", "config", "ops", "rules", "scripts", "solver")
SIZED = ("campaigns", "solver")  # the packages whose modules are held to MAX_MODULE_LINES
KERNELS = {"solver/core/oracle/compiled_kernel.py"}  # exempt from the function limit
EXEMPT_MODULES = KERNELS | {"solver/core/table/agents_fast.py", "campaigns/models.py"}


def _modules(packages: tuple[str, ...]) -> list[Path]:
    return sorted(
        path
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def _name(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


def long_modules(paths: list[Path], limit: int = MAX_MODULE_LINES, root: Path = ROOT) -> list[str]:
    """``name: lines`` for each module over ``limit`` lines."""
    out = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            out.append(f"{_name(path, root)}: {lines}")
    return out


def long_functions(
    paths: list[Path], limit: int = MAX_FUNCTION_LINES, root: Path = ROOT
) -> list[str]:
    """``name:line function: lines`` for each function (or method) over ``limit`` lines."""
    out = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append(f"{_name(path, root)}:{node.lineno} {node.name}: {lines}")
    return out


def test_no_module_in_campaigns_or_solver_is_over_the_limit() -> None:
    paths = [p for p in _modules(SIZED) if _name(p) not in EXEMPT_MODULES]
    assert paths, "no module found: the paths are wrong"
    assert long_modules(paths) == []


def test_no_function_is_over_the_limit() -> None:
    paths = [p for p in _modules(PACKAGES) if _name(p) not in KERNELS]
    assert long_functions(paths) == []


@pytest.mark.parametrize("name", sorted(EXEMPT_MODULES))
def test_every_exemption_names_a_module_that_exists(name: str) -> None:
    assert (ROOT / name).is_file()


def test_a_long_module_and_a_long_function_are_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    long = tmp_path / "long.py"
    long.write_text(f"def f() -> None:\n{body}\n")
    short = tmp_path / "short.py"
    short.write_text("def g() -> None:\n    pass\n")
    found = long_functions([long, short], root=tmp_path)
    assert found == [f"long.py:1 f: {MAX_FUNCTION_LINES + 1}"]
    found = long_modules([long, short], limit=MAX_FUNCTION_LINES, root=tmp_path)
    assert found == [f"long.py: {MAX_FUNCTION_LINES + 1}"]
