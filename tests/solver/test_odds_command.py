"""``python manage.py odds``: the answer, and one clear line for every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]


def _odds(*args: str) -> str:
    out = StringIO()
    call_command("odds", *args, stdout=out)
    return out.getvalue()


def test_json_gives_exact_odds_over_every_value_set() -> None:
    data = json.loads(_odds("1-1", "--colours", "SSMM+SM/SMMM+SS", "--json"))
    assert data == {
        "odds": 1.0,
        "exact": True,
        "deals": 853_776,
        "interval": [1.0, 1.0],
        "ignored_rules": [],
        "odds_upper_bound": False,
    }


def test_a_described_rule_makes_the_odds_an_upper_bound(tmp_path: Path) -> None:
    clock = tmp_path / "clock.json"
    words = "Nearest to ten wins"
    rules = [{"kind": "described", "text": words, "segment": 2}]
    clock.write_text(json.dumps({"id": "4-2", "rules": rules}))
    data = json.loads(_odds("--clock-file", str(clock), "--colours", "SSMM+SM/SMMM+SS", "--json"))
    assert data["exact"] is True
    assert (data["ignored_rules"], data["odds_upper_bound"]) == ([f"Segment 2: {words}"], True)


def test_samples_give_an_estimate_with_an_interval(tmp_path: Path) -> None:
    clock = tmp_path / "clock.json"
    clock.write_text(
        json.dumps(
            {
                "id": "2-1",
                "start": 1,
                "cap": 24,
                "rules": [
                    {"kind": "card_count", "segment": 6, "count": 1},
                ],
            }
        )  # fmt: skip
    )
    args = ["--clock-file", str(clock), "--colours", "SSM/MMS/SMS/MSM", "--json"]
    data = json.loads(_odds(*args, "--samples", "2000", "--seed", "4"))
    assert data["exact"] is False and data["deals"] == 2000
    low, high = data["interval"]
    assert low <= data["odds"] <= high and 0.1 < data["odds"] < 0.25


def test_the_text_answer_says_how_it_was_computed() -> None:
    assert "exact, over all 48,400 value sets" in _odds("1-1", "--colours", "SSSM/MMMM/MMMM")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1-1", "--colours", "SSM/MMS"], "seat"),
        (["1-1", "--colours", "SSXM/MMSS/SMSM"], "written with S"),
        (["11-1", "--colours", "SSMM/SMSM/MMSS"], "11-1"),
        (["2-1", "--colours", "SSMM/SMSM/MMSS"], "--base-rules"),
        (["1-1", "--colours", "SSMM/SMSM/MMSS", "--samples", "0"], "at least 1"),
    ],
)
def test_bad_input_is_refused_with_exit_code_two(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message) as error:
        _odds(*args)
    assert error.value.returncode == 2


def test_an_untranscribed_clock_has_base_rules_odds_on_request() -> None:
    data = json.loads(_odds("2-1", "--colours", "SSMM/SMSM/MMSS", "--base-rules", "--json"))
    assert data["exact"] is True and data["odds"] == 1.0


def test_a_bad_clock_file_is_one_line_on_stderr_and_exit_two(tmp_path: Path) -> None:
    clock = tmp_path / "clock.json"
    clock.write_text("{not json")
    result = subprocess.run(
        [sys.executable, "manage.py", "odds", "--clock-file", str(clock), "--colours",
         "SSMM/SMSM/MMSS"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_first_cards_clock_says_its_odds_are_sampled(tmp_path: Path) -> None:
    clock = tmp_path / "clock.json"
    clock.write_text(
        json.dumps(
            {
                "id": "2-1",
                "start": 1,
                "cap": 24,
                "rules": [
                    {"kind": "first_cards", "segments": [1, 2]},
                ],
            }
        )  # fmt: skip
    )
    text = _odds("--clock-file", str(clock), "--colours", "SSM/MMS/SMS/MSM")
    assert "estimated from 100,000 deals" in text and "so the odds are sampled" in text
