"""make serve's daily backup (scripts/serve.py DailyBackup): when it is due, and that it runs
manage.py backup beside the app without waiting for it."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DAY = 24 * 3600


@pytest.fixture(scope="module")
def serve_script() -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("serve", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _backup_at(folder: Path, when: float) -> None:
    path = folder / "timekeeper-2026-12-01-200000.sqlite3"
    path.write_bytes(b"SQLite format 3\x00")
    os.utime(path, (when, when))


def test_a_backup_is_due_once_a_day_but_not_right_after_the_start(
    serve_script: ModuleType, tmp_path: Path
) -> None:
    now = 1_800_000_000.0
    daily = serve_script.DailyBackup(tmp_path, started=now - 60)
    assert not daily.due(now)  # the first minutes belong to the solver's warm-up
    daily.started = now - serve_script.FIRST_BACKUP_AFTER
    assert daily.due(now)  # none yet
    _backup_at(tmp_path, now - DAY + 3600)
    assert not daily.due(now)
    _backup_at(tmp_path, now - DAY)
    assert daily.due(now)


def test_a_due_backup_runs_manage_py_backup_without_waiting(
    serve_script: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[str]] = []

    class Running:
        def __init__(self, args: list[str], **kwargs: Any) -> None:
            started.append(args)

        def poll(self) -> None:
            return None  # still running

    monkeypatch.setattr(serve_script.subprocess, "Popen", Running)
    daily = serve_script.DailyBackup(tmp_path, started=0.0)
    daily.tick()
    assert started == [[serve_script.PYTHON, "manage.py", "backup"]]
    daily.looked = 0.0
    daily.tick()  # the first is still running: no second one
    assert len(started) == 1
