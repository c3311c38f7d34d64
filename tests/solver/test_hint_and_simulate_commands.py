"""``manage.py hint`` and ``manage.py simulate``: output shape and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError

import solver.core.search.search
import solver.management.commands.hint as hint_command
from rules.catalogue import get_clock
from solver import clock_priors
from solver.core.search.clock_prior import genes_to_json
from solver.core.search.genes import Genes
from solver.models import ClockPrior

COLOURS = "SSMM/SMSM/MMSS"
# The hint command reads a clock's stored prior, as a job does.
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    # The commands' own behaviour is under test here, not the search's quality or the odds
    # (tested by their owners): keep each call to a fraction of a second.
    real = solver.core.search.search.recommend

    def quick(*args: object, **kwargs: object) -> solver.core.search.search.HintResult:
        kwargs["effort"] = 0.05
        kwargs["compute_odds"] = False
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("solver.management.commands.hint.recommend", quick)


@pytest.fixture
def priors_given(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The ``prior`` each call of the command's search was given."""
    given: list[object] = []
    quick: Any = hint_command.recommend  # the quick search of ``_quick``

    def recording(*args: Any, **kwargs: Any) -> solver.core.search.search.HintResult:
        given.append(kwargs.get("prior"))
        return quick(*args, **kwargs)

    monkeypatch.setattr("solver.management.commands.hint.recommend", recording)
    return given


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_hint_json_has_the_public_keys() -> None:
    data = json.loads(_run("hint", "1-1", "--colours", COLOURS, "--json"))
    assert set(data) == {
        "version", "plan", "pass_rate", "interval", "baseline_rate", "odds", "games", "words",
        "lines", "details", "slip_rate", "pass_rate_with_slips", "interval_with_slips",
        "alternatives", "ignored_rules", "odds_upper_bound",
    }  # fmt: skip
    assert (data["ignored_rules"], data["odds_upper_bound"]) == ([], False)
    assert len(data["lines"]) == 3 and data["words"] == " ".join(data["lines"])
    # Segment 1's Sun: seat 1 alone covers it, or whoever holds a Sun (genes.Genes.owned).
    assert data["plan"].get("owners") in (None, {"1": [1]})
    assert data["words"].startswith("Aim for about")
    assert data["slip_rate"] == 0.05  # the default
    low, high = data["interval_with_slips"]
    assert low <= data["pass_rate_with_slips"] <= high
    kinds = [kind for other in data["alternatives"] for kind in other["kinds"]]
    # Each role once at most; "simplest" only where a plan is simpler aloud.
    assert len(kinds) == len(set(kinds)) and {"bold", "recommended"} <= set(kinds)
    assert data["alternatives"][0]["plan"] == data["plan"]
    assert set(data["alternatives"][0]) == {
        "kinds", "plan", "pass_rate", "interval", "pass_rate_with_slips", "interval_with_slips",
        "sentences", "word_count", "words", "words_all",
    }  # fmt: skip


def test_hint_starts_from_the_clock_prior_the_prefill_stored(priors_given: list[object]) -> None:
    _run("hint", "1-1", "--colours", COLOURS, "--json")
    assert priors_given == [None]  # none stored yet: the table size's prior
    genes = Genes((4.0, 9.0), (18.0, 24.0), 3, 0.8, 0.4, 3.0, 2.5, 2)
    solved = clock_priors.planned(get_clock("1-1"), False)
    ClockPrior.objects.create(
        key=clock_priors.prior_key(solved, 3),
        engine_version=0,
        search_version=0,
        clock_id="1-1",
        players=3,
        genes=genes_to_json(genes),
        complete=True,
    )
    _run("hint", "1-1", "--colours", COLOURS, "--json")
    _run("hint", "1-1", "--colours", "SSM/MMS/SMM/SSM", "--json")  # stored for 3 players only
    _run("hint", "1-2", "--colours", COLOURS, "--base-rules", "--json")  # no rules: no prior
    assert priors_given[1:] == [genes, None, None]


def test_hint_without_a_prior_table_plans_from_the_table_size_prior(
    priors_given: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unmigrated(*args: object) -> None:
        raise OperationalError("no such table: solver_clockprior")

    monkeypatch.setattr(clock_priors, "for_hint", unmigrated)
    data = json.loads(_run("hint", "1-1", "--colours", COLOURS, "--json"))
    assert priors_given == [None] and data["plan"]["version"] == 1


def test_hint_takes_a_slip_rate() -> None:
    clean = json.loads(_run("hint", "1-1", "--colours", COLOURS, "--json", "--slips", "0"))
    assert clean["slip_rate"] == 0
    assert clean["pass_rate_with_slips"] == clean["pass_rate"]
    clumsy = json.loads(_run("hint", "1-1", "--colours", COLOURS, "--json", "--slips", "0.5"))
    assert clumsy["slip_rate"] == 0.5
    assert clumsy["pass_rate_with_slips"] < clumsy["pass_rate"]


def test_hint_speaks_dutch_and_says_the_rates_in_text() -> None:
    text = _run("hint", "1-1", "--colours", COLOURS, "--lang", "nl")
    assert text.startswith("Mik op")
    assert "Slaagkans" in text and "Pass rate" not in text


@pytest.mark.slow  # three searches
def test_hint_is_deterministic_under_a_seed() -> None:
    args = ("hint", "1-1", "--colours", COLOURS, "--json", "--seed", "3")
    assert _run(*args) == _run(*args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9-9", "--colours", COLOURS], "Unknown clock"),
        (["2-1", "--colours", COLOURS], "not transcribed"),
        (["1-1", "--colours", "SSMM/SMSM/MMS"], "seat 3 holds 3"),
        (["1-1", "--colours", COLOURS, "--face-up", "7"], "--face-up must be 0..6"),
        (["1-1", "--colours", COLOURS, "--face-up", "-1"], "--face-up must be 0..6"),
        (["--colours", COLOURS], "Give a clock id"),
        (["1-1", "--colours", COLOURS, "--slips", "0.51"], "--slips must be from 0 to 0.5"),
        (["1-1", "--colours", COLOURS, "--slips", "-0.1"], "--slips must be from 0 to 0.5"),
        (["1-1", "--colours", COLOURS, "--slips", "nan"], "--slips must be from 0 to 0.5"),
        (["1-1", "--colours", COLOURS, "--slips", "often"], "--slips must be a number"),
    ],
)
def test_hint_refuses_bad_input_with_exit_2(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message) as caught:
        _run("hint", *args)
    assert caught.value.returncode == 2


def test_hint_plays_an_untranscribed_clock_under_base_rules_on_request() -> None:
    data = json.loads(_run("hint", "2-1", "--colours", COLOURS, "--base-rules", "--json"))
    assert data["pass_rate"] > 0


def test_simulate_plays_the_plan_that_hint_printed(tmp_path: Path) -> None:
    hint = _run("hint", "1-1", "--colours", COLOURS, "--json")
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(json.loads(hint)["plan"]))
    args = ("simulate", "1-1", "--colours", COLOURS, "--plan", str(plan_file))
    data = json.loads(_run(*args, "--games", "500", "--json"))
    assert set(data) == {"pass_rate", "interval", "games", "slip_rate"}
    assert (data["games"], data["slip_rate"]) == (500, 0.0)
    assert data["interval"][0] <= data["pass_rate"] <= data["interval"][1]
    clumsy = json.loads(_run(*args, "--games", "4000", "--json", "--slips", "0.5"))
    careful = json.loads(_run(*args, "--games", "4000", "--json"))
    assert clumsy["slip_rate"] == 0.5
    assert clumsy["pass_rate"] < careful["pass_rate"]


@pytest.mark.parametrize(
    ("plan", "extra", "message"),
    [
        ('{"targets": [1, 2]}', [], "plan.targets: expected a list of 6"),
        ("{not json", [], "not valid JSON"),
        ('{"targets": [1, 2, 3, 4, 5, 6], "opener": 4}', [], "seat 4 does not exist"),
        ('{"targets": [1, 2, 3, 4, 5, 6]}', ["--games", "0"], "--games must be"),
        ('{"targets": [1, 2, 3, 4, 5, 6]}', ["--face-up", "9"], "--face-up must be"),
        ('{"targets": [1, 2, 3, 4, 5, 6]}', ["--slips", "0.6"], "--slips must be from 0 to 0.5"),
        ('{"targets": [1, 2, 3, 4, 5, 6]}', ["--slips", "x"], "--slips must be a number"),
    ],
)
def test_simulate_refuses_bad_input_with_exit_2(
    tmp_path: Path, plan: str, extra: list[str], message: str
) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(plan)
    with pytest.raises(CommandError, match=message) as caught:
        _run("simulate", "1-1", "--colours", COLOURS, "--plan", str(plan_file), *extra)
    assert caught.value.returncode == 2


def test_simulate_names_a_missing_plan_file() -> None:
    with pytest.raises(CommandError, match="Cannot read the plan file") as caught:
        _run("simulate", "1-1", "--colours", COLOURS, "--plan", "/no/such/plan.json")
    assert caught.value.returncode == 2


@pytest.mark.slow  # two Django processes
def test_bad_input_is_one_stderr_line_and_exit_2_without_a_traceback(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text('{"targets": "high"}')
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", "1-1", "--colours", COLOURS,
         "--plan", str(plan_file)],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "plan.targets" in done.stderr
    assert "Traceback" not in done.stderr
    plan_file.write_text('{"targets": [1, 2, 3, 4, 5, 6]}')
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", "1-1", "--colours", COLOURS,
         "--plan", str(plan_file), "--slips", "0.7"],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "--slips must be from 0 to 0.5, not 0.7" in done.stderr
    assert "Traceback" not in done.stderr


def test_hint_names_a_described_rule_it_leaves_out(tmp_path: Path) -> None:
    clock = tmp_path / "clock.json"
    words = "Nearest to ten wins"
    clock.write_text(json.dumps({"id": "4-2", "rules": [{"kind": "described", "text": words}]}))
    data = json.loads(_run("hint", "--clock-file", str(clock), "--colours", COLOURS, "--json"))
    assert (data["ignored_rules"], data["odds_upper_bound"]) == ([words], True)
    assert any(words in line for line in data["lines"])
