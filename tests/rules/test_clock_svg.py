"""The clock face drawn as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rules.catalogue import get_clock
from rules.clock import Clock
from rules.errors import RulesError
from rules.layout import parse_layout
from rules.svg import clock_svg

NS = "{http://www.w3.org/2000/svg}"
EXAMPLE = "S3* | S5 | M5 | S9 | S2 M12 | S1 S7 M1 M2 M3 M7"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def titles(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{NS}title")]


def test_it_is_well_formed_scalable_svg_with_six_numbered_segments() -> None:
    root = parse(clock_svg(get_clock("1-1")))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") and root.get("width") is None and root.get("role") == "img"
    segments = [g for g in root.iter(f"{NS}g") if g.get("data-segment")]
    assert [g.get("data-segment") for g in segments] == ["1", "2", "3", "4", "5", "6"]
    assert titles(root)[0] == "Clock 1-1"


def test_segment_1_sits_at_one_o_clock_and_numbers_run_clockwise() -> None:
    root = parse(clock_svg(get_clock("1-1")))
    numbers = {
        text.text: (float(text.get("x", 0)), float(text.get("y", 0)))
        for text in root.iter(f"{NS}text")
        if text.text in {"1", "2", "4"} and text.get("font-size") == "10"
    }
    assert numbers["1"][0] > 0 and numbers["1"][1] < 0  # upper right
    assert numbers["2"][0] > 0 and abs(numbers["2"][1]) < 1  # three o'clock
    assert numbers["4"][0] < 0 and numbers["4"][1] > 0  # lower left


def test_each_rule_has_its_wording_as_a_title_and_the_start_is_marked() -> None:
    root = parse(clock_svg(get_clock("1-1")))
    all_titles = titles(root)
    assert "Segment 1 must hold exactly 1 Sun card and no Moon card." in all_titles
    assert "Segment 6 must hold exactly 3 cards." in all_titles
    assert "Values may exceed 24 on this clock." in all_titles
    assert any("clock hand points to segment 1" in title for title in all_titles)
    started = Clock("3-1", 3, 1, start=4)
    start_groups = [
        g
        for g in parse(clock_svg(started)).iter(f"{NS}g")
        if "start" in (g.get("class") or "").split()
    ]
    assert [g.get("data-segment") for g in start_groups] == ["4"]


def test_cards_sums_and_targets_are_drawn_when_given() -> None:
    svg = clock_svg(get_clock("1-1"), parse_layout(EXAMPLE), targets=[3, 5, 6, 9, 14, 21])
    root = parse(svg)
    assert "Σ14" in svg and "→6" in svg
    assert any("cards S2 M12; value 14; target 14" in title for title in titles(root))
    assert 'text-decoration="underline"' in svg  # the face-up S3


@pytest.mark.parametrize("lang", ["nl", "ja"])
def test_it_speaks_the_language_asked(lang: str) -> None:
    root = parse(clock_svg(get_clock("1-1"), lang=lang))
    assert titles(root)[0] in {"Klok 1-1", "時計盤1-1"}


def test_untranscribed_clocks_say_so() -> None:
    assert "not transcribed yet" in clock_svg(get_clock("5-3"))


def test_all_text_is_escaped() -> None:
    root = parse(clock_svg(get_clock("1-1"), targets={1: 2.5}))
    assert "→2.5" in "".join(root.itertext())
    with pytest.raises(RulesError):
        clock_svg(get_clock("1-1"), lang="<script>")


def test_every_rule_kind_draws() -> None:
    clock = Clock.from_json(
        {
            "id": "9-4",
            "rules": [
                {"kind": "first_cards", "segments": [1, 2]},
                {"kind": "equal_neighbours", "segments": [4, 5]},
                {"kind": "forbidden_values", "segment": 5, "values": [1, 2, 3, 4, 5]},
                {"kind": "strictly_rising"},
                {"kind": "value_range", "segment": 3, "min": 10, "max": 20},
            ],
        }
    )
    root = parse(clock_svg(clock, parse_layout(EXAMPLE)))
    kinds = [g.get("data-kind") for g in root.iter(f"{NS}g") if g.get("class") == "rule"]
    assert kinds.count("first_cards") == 2 and kinds.count("equal_neighbours") == 2
    assert {"forbidden_values", "strictly_rising", "value_range"} <= set(kinds)
