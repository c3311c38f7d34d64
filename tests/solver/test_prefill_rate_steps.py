"""The plan book at the other rate steps: a hint planned at its table's step stores its entry
under that step, and the prefill fills the games asked at other steps, the most asked step
first, once the clocks about to be played are filled at the default step."""

from __future__ import annotations

from itertools import count

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign
from rules.catalogue import get_clock
from solver import clock_priors, plan_book, prefill
from solver.core.search.search import SLIP_RATE
from solver.models import HintRequest, PlanBookEntry
from tests.solver.conftest import a_result, named_steps

pytestmark = pytest.mark.django_db

_hashes = count()
TABLES = {2: "SSMM+SM/SMMM+SS", 3: "SSMM/SMMM/SSMM", 4: "SSM/MMS/SMS/MSM"}


def asked(user: User, clock: str, players: int, slip_rate: float, times: int = 1) -> None:
    """``times`` hints asked for ``clock`` (by the base rules) at ``slip_rate``."""
    definition = get_clock(clock)
    for _ in range(times):
        HintRequest.objects.create(
            user=user,
            clock_id=clock,
            clock_definition=definition.to_json(),
            base_rules=not definition.transcribed,
            colours=TABLES[players],
            players=players,
            face_up=players,
            slip_rate=slip_rate,
            slip_rate_source=HintRequest.SlipRateSource.TABLE,
            input_hash=f"asked-{next(_hashes)}",
            status=HintRequest.Status.DONE,
            result={"plan": {}, "pass_rate": 0.5},
        )


def test_games_asked_at_other_steps_follow_the_next_clocks_most_asked_step_first(
    skipped_first: Campaign, alice: User
) -> None:
    asked(alice, "2-1", 2, 0.12, times=2)
    asked(alice, "2-2", 4, 0.12)  # 0.12 asked three times in all
    asked(alice, "3-1", 3, 0.08, times=2)  # as often as 2-1, but its step less
    asked(alice, "4-1", 2, SLIP_RATE, times=5)  # the default: the rest of the book
    asked(alice, "4-2", 2, 0.3)  # a rate given by a request, no step: not filled
    named = named_steps(prefill.steps(prefill.settings_now()), 3000, with_rate=True)
    work = [w for w in named if w[0] == "pattern"]
    assert work[:6] == [
        # First the clocks about to be played, at the default step (test_prefill_order).
        ("pattern", "1-2", 3, 3, SLIP_RATE),
        ("pattern", "1-1", 3, 3, SLIP_RATE),
        ("pattern", "1-4", 3, 3, SLIP_RATE),
        # Then the games asked at other steps: 0.12, asked three times, before 0.08.
        ("pattern", "2-1", 2, 2, 0.12),
        ("pattern", "2-2", 4, 4, 0.12),
        ("pattern", "3-1", 3, 3, 0.08),
    ]
    # Then only the default step (the stale entries, every game at every size).
    assert all(w[4] == SLIP_RATE for w in work[6:])


def test_nothing_asked_at_other_steps_adds_no_work(skipped_first: Campaign, alice: User) -> None:
    asked(alice, "4-1", 2, SLIP_RATE, times=3)
    assert prefill.asked_at_steps() == []


def test_a_hint_at_its_tables_step_is_booked_under_that_step(alice: User) -> None:
    asked(alice, "2-1", 2, 0.12)
    hint = HintRequest.objects.get()
    hint.effort = prefill.settings_now()["effort"]
    hint.odds_samples = prefill.settings_now()["odds_samples"]
    hint.prior = clock_priors.for_hint(get_clock("2-1"), hint.base_rules, 2)
    hint.save()
    plan_book.record(hint, a_result(rate=0.5).to_json(), 1.0)
    entry = PlanBookEntry.objects.get()
    assert entry.slip_rate == 0.12
    at_default = plan_book.book_key(
        get_clock("2-1"),
        hint.base_rules,
        hint.seats(),
        2,
        **{**prefill.settings_now(), "slip_rate": SLIP_RATE},
        prior=hint.prior,
    )
    assert entry.key == plan_book.key_of(hint).key != at_default.key
    # The prefill at that step finds it: its class is not searched again.
    ((step, game, players, face_up),) = prefill.asked_at_steps()
    assert (step, players, face_up) == (0.12, 2, 2)
    settings = {**prefill.settings_now(), "slip_rate": step}
    items = list(prefill.items(game, [players], [face_up], settings))
    assert entry.key in {item.key.key for item in items}
    assert entry.key not in {item.key.key for item in prefill.missing(items)}
