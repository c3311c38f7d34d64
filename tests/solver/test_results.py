"""What a hint's row keeps: the alternatives speak the reader's language too."""

from __future__ import annotations

from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.search.search import recommend
from solver.results import in_language, offered, pick, result_json


def test_a_reused_result_speaks_the_new_askers_language_in_every_plan() -> None:
    clock, seats = get_clock("1-1"), parse_colours("SSMM/SMSM/MMSS")
    result = recommend(clock, seats, 3, effort=0.05, compute_odds=False)
    stored = result_json(result, "en")
    assert stored["alternatives"] and stored["slip_rate"] == 0.05
    dutch = in_language(stored, "nl")
    assert dutch["words"] == result.words["nl"]
    for kept, other in zip(dutch["alternatives"], result.alternatives, strict=True):
        assert kept["words"] == other.words["nl"] != other.words["en"]


def test_a_result_without_alternatives_offers_its_one_plan() -> None:
    old = {"plan": {"targets": [1, 2, 3, 4, 5, 6]}, "pass_rate": 0.5, "words_all": {"en": "x"}}
    (only,) = offered(old)
    assert only["kinds"] == ["recommended"] and only["plan"] == old["plan"]
    assert pick(old, "3") == (0, only)
    assert pick(old, "nonsense") == (0, only)
