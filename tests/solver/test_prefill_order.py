"""The prefill works first where tables will ask: the clock each group is about to play
(the top of its stack, its Sleeve), then the other clocks of its chapter, then the entries
an older search found, then the rest."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from rules.catalogue import get_clock
from solver import prefill
from solver.core import version
from solver.models import PlanBookEntry
from solver.upcoming import upcoming
from tests.solver.conftest import named_steps

pytestmark = pytest.mark.django_db


def test_the_groups_next_clocks_come_from_their_campaign_state(skipped_first: Campaign) -> None:
    now, later = upcoming()
    assert [(u.clock.id, u.players, u.face_up) for u in now] == [("1-2", 3, 3), ("1-1", 3, 3)]
    assert [u.clock.id for u in later] == ["1-3", "1-4"]


def test_the_prefill_fills_the_next_clocks_then_the_stale_entries_then_the_rest(
    skipped_first: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = PlanBookEntry.objects.create(
        key="k" * 64,
        engine_version=version.ENGINE_VERSION,
        search_version=version.SEARCH_VERSION,
        clock_id="5-1",
        clock_definition=get_clock("5-1").to_json(),
        colours="SSM/MMS/SMS/MMS",
        pattern="SSM/MMS/SMS/MMS",
        players=4,
        face_up=4,
        effort=0.5,
        slip_rate=0.05,
        result={},
        source=PlanBookEntry.Source.PREFILL,
    )
    monkeypatch.setattr(version, "SEARCH_VERSION", version.SEARCH_VERSION + 1)
    work = named_steps(prefill.steps(prefill.settings_now()), 200)
    assert work[:6] == [
        # The top of the stack, at the group's size and budget (played by the base rules).
        ("pattern", "1-2", 3, 3),
        # The Sleeve: 1-1 has rules of its own, so its prior first.
        ("prior", "1-1", 3),
        ("pattern", "1-1", 3, 3),
        # The rest of chapter 1: 1-3 is the same game as 1-2 (filled once), 1-4 is not.
        ("pattern", "1-4", 3, 3),
        # Then the entry an older search found, then every game at every size.
        ("refresh", stale.pk),
        ("prior", "1-1", 2),
    ]
