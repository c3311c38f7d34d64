"""Two phones at one table: concurrent requests are serialised by the campaign row lock
(select_for_update). PostgreSQL only: SQLite's in-memory test database is shared between
threads with table locks that fail at once instead of waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

import pytest
from django.contrib.auth.models import User
from django.db import connection

from campaigns.definitions.services import transcribe
from campaigns.errors import CampaignError
from campaigns.groups import services as groups_services
from campaigns.groups.services import create_group
from campaigns.models import Campaign
from campaigns.play.redo import redo
from campaigns.play.services import StaleWrite, record_attempt, undo
from campaigns.play.state import campaign_state, campaign_version

pytestmark = pytest.mark.skipif(
    connection.vendor == "sqlite", reason="threads need a real database server (CI: PostgreSQL)"
)


def _race(workers: list[Callable[[], object]]) -> list[object]:
    """Run the callables at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(workers))
    results: list[object] = [None] * len(workers)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = workers[index]()
        except Exception as error:  # reported by the test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_phones_failing_at_once_flip_two_tokens(alice: User) -> None:
    group = create_group(alice, "Race", [])
    campaign = group.current_campaign()
    results = _race(
        [
            lambda: record_attempt(campaign, alice, "1-1", "failed", 3, request_key="a"),
            lambda: record_attempt(campaign, alice, "1-1", "failed", 3, request_key="b"),
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 2
    assert sorted(campaign.attempts.values_list("bonus_tokens", flat=True)) == [0, 1]


@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_from_two_phones_records_once(alice: User) -> None:
    group = create_group(alice, "Race", [])
    campaign = group.current_campaign()
    results = _race(
        [lambda: record_attempt(campaign, alice, "1-1", "passed", 3, request_key="k")] * 2
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Campaign.objects.get(pk=campaign.pk).attempts.count() == 1
    assert campaign_state(campaign).next_clock == "1-2"


@pytest.mark.django_db(transaction=True)
def test_two_phones_passing_at_once_record_one_pass(alice: User) -> None:
    group = create_group(alice, "Race", [])
    campaign = group.current_campaign()
    results = _race(
        [
            lambda: record_attempt(campaign, alice, "1-1", "passed", 3, request_key="x"),
            lambda: record_attempt(campaign, alice, "1-1", "passed", 3, request_key="y"),
        ]
    )
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 1 and refused[0].field == "clock"
    assert campaign.attempts.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_tapping_failed_from_the_same_board_record_one_attempt(alice: User) -> None:
    group = create_group(alice, "Race", [])
    campaign = group.current_campaign()
    seen = campaign_version(campaign)
    results = _race(
        [
            lambda: record_attempt(
                campaign, alice, "1-1", "failed", 3, request_key="a", expected_event=seen
            ),
            lambda: record_attempt(
                campaign, alice, "1-1", "failed", 3, request_key="b", expected_event=seen
            ),
        ]
    )
    refused = [r for r in results if isinstance(r, StaleWrite)]
    assert len(refused) == 1, results
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1
    assert campaign.attempts.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_tables_saving_the_same_new_definition_at_once_share_one_row(alice: User) -> None:
    from campaigns.models import ClockTranscription, CommunityDefinition

    first = create_group(alice, "Race A", [])
    second = create_group(alice, "Race B", [])
    rules = {"rules": [{"kind": "card_count", "segment": 6, "count": 3}]}
    results = _race(
        [
            lambda: transcribe(first, "2-1", rules, None),
            lambda: transcribe(second, "2-1", rules, None),
            lambda: transcribe(first, "2-1", {"rules": []}, None),
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert CommunityDefinition.objects.filter(clock_id="2-1").count() == 2
    assert ClockTranscription.objects.filter(group=first, latest=True).count() == 1
    assert sorted(first.transcriptions.values_list("version", flat=True)) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_four_phones_starting_the_session_at_once_start_one(alice: User) -> None:
    """Four taps on "Start session" at the same moment fill in one session of the evening
    (fill_in_session takes the campaign lock; without it each saw no session and made one)."""
    group = create_group(alice, "Race", ["Ann", "Ben", "Cleo"])
    campaign = group.current_campaign()
    players = list(group.players.all())
    results = _race([lambda: groups_services.fill_in_session(campaign, players)] * 4)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert campaign.sessions.count() == 1
    assert {r.pk for r in results} == {campaign.sessions.get().pk}  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
def test_four_phones_adding_players_to_a_nearly_full_group_add_one(alice: User) -> None:
    # One place left: the count is taken under the group's row lock, so the four additions
    # are serialised and exactly one finds room.
    names = [f"P{i}" for i in range(groups_services.MAX_PLAYERS_LISTED - 1)]
    group = create_group(alice, "Full house", names)
    results = _race([partial(groups_services.add_player, group, f"New {i}") for i in range(4)])
    added = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(added) == 1 and len(refused) == 3, results
    assert group.players.count() == groups_services.MAX_PLAYERS_LISTED


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("api", [True, False])
def test_two_phones_redoing_at_once_redo_once(alice: User, api: bool) -> None:
    """Both phones show Redo for the same undo; behind it waits an older undo, which a
    second redo must not reach. The API refuses the late one (409), the pages let it pass
    as a double tap."""
    group = create_group(alice, "Race", [])
    campaign = group.current_campaign()
    record_attempt(campaign, alice, "1-1", "passed", 3)
    record_attempt(campaign, alice, "1-2", "failed", 3)
    undo(campaign, alice)
    undo(campaign, alice)
    shown = campaign_version(campaign)  # the undo of the pass at 1-1
    results = _race(
        [lambda: redo(campaign, alice, shown, shown, again_is_stale=api)] * 2,
    )
    refused = [r for r in results if isinstance(r, StaleWrite)]
    assert len(refused) == (1 if api else 0), results
    assert not [r for r in results if isinstance(r, Exception) and r not in refused], results
    campaign.refresh_from_db()
    assert campaign.events.filter(kind="redone").count() == 1
    assert list(campaign.attempts.values_list("clock_id", flat=True)) == ["1-1"]
    assert campaign.bonus_tokens == 0
