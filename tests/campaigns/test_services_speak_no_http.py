"""Services speak the game, not HTTP: views and API functions turn their refusals into
responses (``config.refusals``, ``config.api``), so no services, state, community, imports
or exports module imports ``django.http``, ``django.shortcuts`` or ``rest_framework``, or
raises Http404 (a service says ``config.errors.NotVisible``). Every such module is found by
its name, so a new room's services are guarded without a list to keep."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("services", "state", "community", "imports", "exports", "errors")
HTTP = ("django.http", "django.shortcuts", "rest_framework")


def service_modules() -> list[str]:
    found = [
        path.relative_to(ROOT).as_posix()
        for package in ("campaigns", "solver")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and path.stem in NAMES
    ]
    return found


def _http_in(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return sorted(m for m in imported if m and m.startswith(HTTP)) + sorted({"Http404"} & names)


def test_the_guard_finds_the_services_of_every_room() -> None:
    modules = service_modules()
    for expected in (
        "campaigns/play/services.py",
        "campaigns/play/state.py",
        "campaigns/groups/services.py",
        "campaigns/definitions/community.py",
        "campaigns/history/imports.py",
        "campaigns/history/exports.py",
        "solver/services.py",
    ):
        assert expected in modules


@pytest.mark.parametrize("module", service_modules())
def test_a_service_module_speaks_no_http(module: str) -> None:
    assert _http_in(ROOT / module) == []


def test_the_guard_sees_an_http_import_and_a_raised_404(tmp_path: Path) -> None:
    module = tmp_path / "services.py"
    module.write_text("from django.http import Http404\n\ndef f():\n    raise Http404\n")
    assert _http_in(module) == ["django.http", "Http404"]
