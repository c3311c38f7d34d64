"""The management commands ``check_layout`` and ``clocks``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.catalogue import get_clock
from rules.clock import dumps_clock

ROOT = Path(__file__).resolve().parents[2]
PASSING = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7"
FAILING = "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M11"


def run(*args: str) -> tuple[int, str]:
    """Call the command in-process: (exit status, stdout)."""
    out = StringIO()
    try:
        call_command("check_layout", *args, stdout=out)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_a_passing_layout_exits_0() -> None:
    status, out = run("1-2", PASSING)
    assert status == 0
    assert out.startswith("Passed.\nValues: 3, 5, 5, 9, 14, 21")
    assert "not transcribed yet" in out


def test_a_failing_layout_exits_1_and_says_why() -> None:
    status, out = run("4-1", FAILING)
    assert status == 1
    assert "Segment 6 is worth more than 24 (25)" in out


def test_json_output_has_the_public_shape() -> None:
    status, out = run("4-1", FAILING, "--json")
    assert status == 1
    result = json.loads(out)
    assert set(result) == {"passed", "values", "violations", "unchecked", "special_rules_known"}
    assert result["values"] == [3, 5, 5, 9, 14, 25]
    assert result["violations"] == [
        {
            "rule": "over_cap",
            "segment": 6,
            "message": "Segment 6 is worth more than 24 (25); no segment may exceed 24.",
        }
    ]


def test_the_language_can_be_chosen() -> None:
    _, out = run("4-1", FAILING, "--json", "--lang", "nl")
    assert json.loads(out)["violations"][0]["message"].startswith("Segment 6 is meer dan 24")


def test_an_unquoted_move_form_layout_is_joined_back() -> None:
    words = [
        "S3@1",
        "S5@2",
        "M5@3",
        "S9@4",
        "S2@5",
        "M12@5",
        "S1@6",
        "S7@6",
        "M1@6",
        "M2@6",
        "M3@6",
        "M7@6",
    ]
    assert run("1-2", *words)[0] == 0


def test_a_clock_file_stands_for_the_clock(tmp_path: Path) -> None:
    path = tmp_path / "clock.json"
    path.write_text(dumps_clock(get_clock("1-1")), encoding="utf-8")
    status, out = run("--clock-file", str(path), PASSING, "--json")
    assert status == 1
    assert [v["rule"] for v in json.loads(out)["violations"]] == ["card_count"]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("1-1",), "Give a CLOCK and a LAYOUT"),
        (("12-1", PASSING), "Unknown clock '12-1'"),
        (("1-1", PASSING.replace("S3", "S13")), "'S13' is not a card"),
        (("1-1", PASSING.replace("S3", "X3")), "'X3' is not a card"),
        (("1-1", PASSING.replace("S5", "S3")), "S3 appears twice"),
        (("1-1", PASSING.replace(" M7", "")), "exactly 12 cards"),
        (("1-1", PASSING.replace(" | S9", " S9")), "six groups"),
        (("1-1", "S3@7"), "Segment 7 does not exist"),
        (("1-1", "S" * 2001), "characters long"),
    ],
)
def test_bad_input_exits_2_with_a_reason(args: tuple[str, ...], reason: str) -> None:
    with pytest.raises(CommandError, match=reason) as error:
        call_command("check_layout", *args, stdout=StringIO())
    assert error.value.returncode == 2


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{oops", "not valid JSON"),
        ('{"id": "1-1", "rules": [{"kind": "mystery"}]}', "Unknown rule kind 'mystery'"),
        ('{"id": "1-1", "rules": [{"kind": "card_count", "segment": 6}]}', "needs the parameter"),
        (
            '{"id": "1-1", "rules": [{"kind": "value_range", "segment": 1, "min": 9, "max": 2}]}',
            "cannot be greater",
        ),
    ],
)
def test_a_bad_clock_file_exits_2_with_the_reason(
    tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "clock.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=reason) as error:
        call_command("check_layout", "--clock-file", str(path), PASSING, stdout=StringIO())
    assert error.value.returncode == 2


@pytest.mark.parametrize(
    ("lang", "args", "reason"),
    [
        ("nl", ("1-1", PASSING.replace("S3", "S13")), "'S13' is geen kaart"),
        ("ja", ("1-1", PASSING.replace("S3", "S13")), "'S13'はカードではありません"),
        ("nl", ("12-1", PASSING), "Onbekende klok '12-1'"),
        ("ja", ("1-1",), "CLOCKとLAYOUTを指定してください"),
    ],
)
def test_bad_input_is_worded_in_the_language_asked(
    lang: str, args: tuple[str, ...], reason: str
) -> None:
    with pytest.raises(CommandError, match=reason) as error:
        call_command("check_layout", "--lang", lang, *args, stdout=StringIO())
    assert error.value.returncode == 2


def test_from_the_shell_bad_input_is_one_line_on_stderr_without_traceback() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    command = [sys.executable, "manage.py", "check_layout"]
    bad = subprocess.run(
        [*command, "1-1", "S13 | | | | |"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "CommandError: 'S13' is not a card: values go from 1 to 12."
    ]
    assert "Traceback" not in bad.stderr
    # Exit statuses 0 and 1 go through the same sys.exit path, tested in-process above.


def test_clocks_lists_the_catalogue() -> None:
    out = StringIO()
    call_command("clocks", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["id", "chapter", "clock", "transcribed", "rules"]
    assert len(lines) == 42
    assert lines[1].split()[:4] == ["1-1", "1", "1", "yes"]
    assert "Segment 6 must hold exactly 3 cards." in lines[1]
    assert lines[2].split()[:4] == ["1-2", "1", "2", "no"] and "No 24 limit." in lines[2]
    assert lines[-1].split()[:4] == ["rebirth", "-", "-", "no"]
    assert lines[-1].endswith("Special rules not transcribed yet.")


def test_clocks_speaks_the_language_asked() -> None:
    out = StringIO()
    call_command("clocks", "--lang", "nl", stdout=out)
    first = out.getvalue().splitlines()[1]
    assert first.endswith(
        "Geen limiet van 24. Segment 1 moet precies 1 zonkaart en geen maankaart hebben. "
        "Segment 6 moet precies 3 kaarten hebben."
    )


def test_clocks_as_json_are_the_definitions() -> None:
    out = StringIO()
    call_command("clocks", "--json", stdout=out)
    clocks = json.loads(out.getvalue())
    assert len(clocks) == 41 and clocks[0] == get_clock("1-1").to_json()
