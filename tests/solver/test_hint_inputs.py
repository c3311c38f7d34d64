"""solver.hint_inputs: a hint request checked field by field, and its input hash."""

from __future__ import annotations

from typing import Any

import pytest

from solver.errors import HintError
from solver.hint_inputs import BASE_RULES, parse_input


def test_face_up_defaults_to_the_player_count() -> None:
    assert parse_input("1-1", "SSMM+SM/SMMM+SS", None).face_up == 2


@pytest.mark.parametrize(
    ("clock", "colours", "face_up", "field"),
    [
        ("9-9", "SSM/MMS/SMM/SSM", None, "clock"),
        ({"id": "x"}, "SSM/MMS/SMM/SSM", None, "clock"),
        (7, "SSM/MMS/SMM/SSM", None, "clock"),
        ("1-1", "SSM/MMS", None, "colours"),
        ("1-1", "SSX/MMS/SMM/SSM", None, "colours"),
        ("1-1", 12, None, "colours"),
        ("1-1", "SSM/MMS/SMM/SSM", 8, "face_up"),
        ("1-1", "SSM/MMS/SMM/SSM", -1, "face_up"),
        ("1-1", "SSM/MMS/SMM/SSM", "many", "face_up"),
    ],
)
def test_bad_input_names_its_field(clock: Any, colours: Any, face_up: Any, field: str) -> None:
    with pytest.raises(HintError) as caught:
        parse_input(clock, colours, face_up)
    assert caught.value.field == field
    assert caught.value.message


def test_an_untranscribed_clock_is_played_by_the_base_rules_without_being_asked() -> None:
    # Nothing is known about clock 2-1's special rules (no group, no definition given): the
    # best definition available is the base rules, and the input says so.
    for asked in (False, True):
        hint_input = parse_input("2-1", "SSM/MMS/SMM/SSM", 4, base_rules=asked)
        assert hint_input.base_rules and hint_input.source == BASE_RULES
    given = parse_input({"id": "2-1", "transcribed": False, "rules": []}, "SSM/MMS/SMM/SSM", 4)
    assert given.base_rules and given.source == BASE_RULES


def test_a_transcribed_clock_is_never_played_by_the_base_rules() -> None:
    hint_input = parse_input("1-1", "SSM/MMS/SMM/SSM", 4, base_rules=True)
    assert not hint_input.base_rules and hint_input.source == "shipped"


def test_the_input_hash_ignores_spacing_and_case_of_the_colours() -> None:
    a = parse_input("1-1", "ssm/mms/smm/ssm", 4).input_hash(1.0, 0)
    b = parse_input("1-1", " SSM / MMS / SMM / SSM ", 4).input_hash(1.0, 0)
    c = parse_input("1-1", "SSM/MMS/SMM/SSM", 5).input_hash(1.0, 0)
    assert a == b != c
