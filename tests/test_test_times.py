"""scripts/test_times.py: where the suite's time goes, read from pytest's --durations."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DURATIONS = """\
============================= slowest durations =============================
30.00s setup    tests/e2e/test_a_browser.py::test_one
10.00s call     tests/e2e/test_a_browser.py::test_one
10.00s call     tests/e2e/test_a_browser.py::test_two[phone]
 8.00s call     tests/rules/test_b.py::test_three
 1.50s teardown tests/rules/test_b.py::test_three
(2 durations < 0.005s hidden.)
"""


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("test_times", ROOT / "scripts/test_times.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


test_times = _load()


def test_it_adds_each_tests_phases_and_keeps_the_files_order() -> None:
    per_test, order = test_times.read(DURATIONS.splitlines())
    assert per_test[("tests/e2e/test_a_browser.py", "test_one")] == 40.0
    assert per_test[("tests/rules/test_b.py", "test_three")] == 9.5
    assert order == ["tests/e2e/test_a_browser.py", "tests/rules/test_b.py"]


def test_whole_files_wait_for_the_longest_where_single_tests_spread() -> None:
    assert test_times.makespan([50.0, 9.5], 2) == 50.0
    assert test_times.makespan([40.0, 10.0, 9.5], 2) == 40.0
    assert test_times.makespan([3.0, 3.0, 2.0, 2.0], 2) == 5.0


def test_it_prints_files_tests_and_both_ways_of_sharing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d.txt").write_text(DURATIONS)
    assert test_times.main([str(tmp_path / "d.txt")]) == 0
    out = capsys.readouterr().out
    assert "60 s in 3 tests of 2 files" in out and "loadfile): 50 s" in out
    assert "(worksteal)       : 40 s" in out


def test_a_missing_or_empty_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert test_times.main([str(tmp_path / "none.txt")]) == 2
    (tmp_path / "empty.txt").write_text("no durations here\n")
    assert test_times.main([str(tmp_path / "empty.txt")]) == 2
    assert "no --durations lines" in capsys.readouterr().err
