"""``python manage.py postmortem``: the answer and its exit status, the witness that
``check_layout`` accepts, and one line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
# Fails 1-1 (two cards at segment 1, then values drop), but its cards can pass.
LOST = "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"
# Twelve Moons: 1-1 wants one Sun alone at segment 1, so no arrangement passes.
HOPELESS = "M1 M2 | M3 | M4 | M5 M6 | M7 M8 | M9 M10 M11 M12"


def run(command: str, *args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command(command, *args, stdout=out)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_winnable_cards_exit_0_with_a_witness_that_check_layout_accepts() -> None:
    status, out = run("postmortem", "1-1", LOST, "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {
        "winnable",
        "witness",
        "placement_checked",
        "special_rules_known",
        "unchecked",
    }
    assert data["winnable"] is True and data["placement_checked"] is False
    assert "|" in data["witness"]
    checked, verdict = run("check_layout", "1-1", data["witness"], "--json")
    assert checked == 0 and json.loads(verdict)["passed"] is True
    # The played layout itself fails: the witness is another arrangement of its cards.
    assert run("check_layout", "1-1", LOST)[0] == 1
    assert sorted(data["witness"].replace("|", " ").split()) == sorted(
        LOST.replace("|", " ").split()
    )


def test_hopeless_cards_exit_1_without_a_witness() -> None:
    status, out = run("postmortem", "1-1", HOPELESS, "--json")
    assert status == 1
    assert json.loads(out) == {
        "winnable": False,
        "witness": None,
        "placement_checked": False,
        "special_rules_known": True,
        "unchecked": [],
    }
    status, text = run("postmortem", "1-1", HOPELESS, "--lang", "nl")
    assert status == 1 and "Niet winbaar" in text


def test_the_segment_form_says_placement_rules_were_not_judged() -> None:
    status, out = run("postmortem", "1-1", LOST)
    assert status == 0
    assert out.startswith("Winnable")
    assert "Only the layout rules were judged" in out


def test_the_move_form_judges_placement_rules_and_an_unquoted_one_is_joined(
    tmp_path: Path,
) -> None:
    clock = tmp_path / "clock.json"
    clock.write_text(
        json.dumps(
            {
                "id": "3-1",
                "start": 1,
                "cap": 24,
                "rules": [
                    {"kind": "first_cards", "segments": [1, 1]},
                    {"kind": "card_count", "segment": 1, "count": 1},
                ],
            }
        )
    )
    # Unquoted, as a shell would pass it: one word per move.
    moves = "S1@1 S2@2 S3@3 S4@4 S5@5 S6@6 M1@2 M2@3 M3@4 M4@5 M5@6 M6@6".split()  # noqa: SIM905
    status, out = run("postmortem", "--clock-file", str(clock), *moves, "--json")
    assert status == 1
    assert json.loads(out)["placement_checked"] is True
    segments = "S1 | S2 M1 | S3 M2 | S4 M3 | S5 M4 | S6 M5 M6"
    status, out = run("postmortem", "--clock-file", str(clock), segments, "--json")
    assert status == 0 and json.loads(out)["placement_checked"] is False


def test_with_players_the_witness_is_in_move_form_and_passes_check_layout() -> None:
    played = "S3@1 M5@1 S2@2 M3@3 M9@4 S1@4 S6@5 S8@5 M2@5 M12@6 S9@6 M1@6"
    status, out = run("postmortem", "1-1", played, "--players", "3", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["placement_checked"] is True and "@" in data["witness"]
    assert run("check_layout", "1-1", data["witness"])[0] == 0


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (
            ("1-1", "S3 | M5 | S2 M3 | M9 S1 | S6 S8 M2 | M12 S9"),
            "exactly 12 cards; this one has 11",
        ),
        (("1-1", "S3@1 M5@2"), "exactly 12 cards; this one has 2"),
        (("1-1", "S13 | | | | |"), "'S13' is not a card"),
        (("11-1", LOST), "11-1"),
        (("1-1",), "Give a CLOCK and a LAYOUT"),
        (("1-1", LOST, "--players", "5"), "--players is the table size"),
        (("1-1", LOST, "--lang", "de"), "--lang is one of"),
    ],
)
def test_bad_input_exits_2_with_a_reason(args: tuple[str, ...], reason: str) -> None:
    with pytest.raises(CommandError, match=reason) as refused:
        run("postmortem", *args)
    assert refused.value.returncode == 2


def test_a_partial_layout_is_refused_in_the_language_asked() -> None:
    with pytest.raises(CommandError, match="precies 12 kaarten; deze heeft er 3"):
        run("postmortem", "1-1", "S1 | S2 | S3 | | |", "--lang", "nl")


def test_from_the_shell_bad_input_is_one_line_on_stderr_without_traceback() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    bad = subprocess.run(
        [sys.executable, "manage.py", "postmortem", "1-1", "S1 | S2 | | | |", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "CommandError: A layout has exactly 12 cards; this one has 2."
    ]
    assert bad.stdout == ""
