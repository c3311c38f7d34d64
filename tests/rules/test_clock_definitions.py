"""Clock definitions (public JSON), the catalogue, saving and loading, and input helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.catalogue import CLOCK_IDS, FOLDER, get_clock, load_catalogue
from rules.clock import Clock, clock_from_json_text, dumps_clock, load_clock
from rules.errors import RulesError
from rules.inputs import check_layout, clock_from_argument, clock_from_value

ONE_ONE = {
    "id": "1-1",
    "chapter": 1,
    "number": 1,
    "start": 1,
    "cap": None,
    "rules": [
        {"kind": "colours", "segment": 1, "sun": 1, "moon": 0},
        {"kind": "card_count", "segment": 6, "count": 3},
    ],
}


def test_the_catalogue_holds_40_clocks_and_rebirth_in_play_order() -> None:
    catalogue = load_catalogue()
    assert len(CLOCK_IDS) == 41
    assert list(catalogue) == list(CLOCK_IDS)
    assert CLOCK_IDS[0] == "1-1" and CLOCK_IDS[39] == "10-4" and CLOCK_IDS[40] == "rebirth"
    assert sorted(path.stem for path in FOLDER.glob("*.json")) == sorted(CLOCK_IDS)


def test_clock_1_1_is_as_the_rules_describe_it() -> None:
    assert get_clock("1-1").to_json() == ONE_ONE
    assert get_clock("1-1").transcribed


def test_clocks_1_2_and_1_3_lift_the_cap_and_the_rest_are_not_transcribed() -> None:
    catalogue = load_catalogue()
    for clock_id in ("1-2", "1-3"):
        assert catalogue[clock_id].cap is None
        assert not catalogue[clock_id].transcribed
    for clock_id in CLOCK_IDS[3:]:
        clock = catalogue[clock_id]
        assert clock.cap == 24 and not clock.transcribed and clock.rules == ()
    assert catalogue["rebirth"].chapter is None and catalogue["rebirth"].number is None


def test_get_clock_refuses_unknown_ids() -> None:
    assert get_clock(" 1-1 ").id == "1-1"
    assert get_clock("REBIRTH").id == "rebirth"
    for bad in ("11-1", "1-5", "0-1", "x"):
        with pytest.raises(RulesError, match="Unknown clock") as error:
            get_clock(bad)
        assert error.value.field == "clock"


def test_a_definition_round_trips_through_json_and_files(tmp_path: Path) -> None:
    for clock in load_catalogue().values():
        assert Clock.from_json(clock.to_json()) == clock
        assert clock_from_json_text(dumps_clock(clock)) == clock
    path = tmp_path / "mine.json"
    clock = Clock.from_json({**ONE_ONE, "start": 3, "cap": 24})
    path.write_text(dumps_clock(clock), encoding="utf-8")
    assert load_clock(path) == clock
    assert json.loads(path.read_text())["start"] == 3


def test_chapter_and_number_follow_from_the_id_when_left_out() -> None:
    clock = Clock.from_json({"id": "3-2", "rules": []})
    assert (clock.chapter, clock.number, clock.start, clock.cap) == (3, 2, 1, 24)
    assert clock.transcribed and "transcribed" not in clock.to_json()


def bad(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {**ONE_ONE, **changes}
    return {key: value for key, value in data.items() if value != "DROP"}


@pytest.mark.parametrize(
    ("data", "reason", "field"),
    [
        ([], "JSON object", None),
        (bad(id="1-5"), "not a clock id", "id"),
        (bad(id=11), "'id' is a string", "id"),
        (bad(chapter=2), "must agree with the id", "chapter"),
        (bad(chapter="1"), "whole number", "chapter"),
        (bad(start=7), "Segment 7 does not exist", "start"),
        (bad(cap=0), "'cap' is 24 or null", "cap"),
        (bad(cap="24"), "'cap' is 24 or null", "cap"),
        (bad(transcribed="no"), "true or false", "transcribed"),
        (bad(rules="DROP"), "needs 'rules'", "rules"),
        (bad(rules={}), "list of rule objects", "rules"),
        (bad(colour="S"), "no key 'colour'", "colour"),
        (bad(rules=[{"kind": "mystery"}]), "Unknown rule kind", "rules[0].kind"),
        (
            bad(rules=[{"kind": "card_count", "segment": 6}]),
            "needs the parameter 'count'",
            "rules[0].count",
        ),
        (
            bad(rules=[{"kind": "value_range", "segment": 1, "min": 5, "max": 4}]),
            "cannot be greater",
            "rules[0].min",
        ),
        (
            bad(
                rules=[
                    {"kind": "card_count", "segment": 6, "count": 1},
                    {"kind": "min_cards", "segment": 6, "count": 3},
                ]
            ),
            "contradict each other",
            "rules",
        ),
        (
            bad(rules=[{"kind": "min_cards", "segment": s, "count": 3} for s in (1, 2, 3, 4)]),
            "more than the 12 cards",
            "rules",
        ),
        (bad(id="rebirth"), "no chapter and number", "chapter"),
    ],
)
def test_a_definition_breaking_the_schema_is_refused(
    data: Any, reason: str, field: str | None
) -> None:
    with pytest.raises(RulesError, match=reason) as error:
        Clock.from_json(data)
    assert error.value.field == field


def test_a_clock_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "clock.json"
    path.write_text("{not json")
    with pytest.raises(RulesError, match="not valid JSON"):
        load_clock(path)
    with pytest.raises(RulesError, match="Cannot read the clock file"):
        load_clock(tmp_path / "missing.json")
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(RulesError, match="Cannot read"):
        load_clock(path)
    with pytest.raises(RulesError, match="far too long"):
        clock_from_json_text(" " * 200_000)


def test_clock_arguments_take_an_id_or_a_file(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(dumps_clock(get_clock("1-1")), encoding="utf-8")
    assert clock_from_argument("1-1") == get_clock("1-1")
    assert clock_from_argument(None, path) == get_clock("1-1")
    with pytest.raises(RulesError, match="not both"):
        clock_from_argument("1-1", path)
    with pytest.raises(RulesError, match="Give a clock id"):
        clock_from_argument(None, None)


def test_api_values_take_an_id_or_a_definition() -> None:
    assert clock_from_value("1-1") == clock_from_value(ONE_ONE) == get_clock("1-1")
    with pytest.raises(RulesError, match="clock id"):
        clock_from_value(11)


def test_check_layout_parses_and_validates() -> None:
    verdict = check_layout(get_clock("1-2"), "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7")
    assert verdict.passed and not verdict.special_rules_known
    with pytest.raises(RulesError, match="'layout' is text"):
        check_layout(get_clock("1-2"), ["S3"])
    with pytest.raises(RulesError, match="Unknown language"):
        check_layout(get_clock("1-2"), "S3 | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7", "fr")
