"""seed_demo (campaigns.demo): realistic, reproducible histories that obey the campaign's
rules, written in bulk; it refuses a database holding real groups unless --force."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from campaigns import demo
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import Attempt, Campaign, ClockProgress, Event, Group, Session
from campaigns.play import moves
from campaigns.play.services import record_attempt, retrieve, skip, undo
from campaigns.play.state import campaign_state
from campaigns.statistics.compute import group_statistics
from rules import hint_result
from solver.models import HintRequest


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def histories(groups: list[Group]) -> list[list[tuple[str, str, int, int]]]:
    return [
        list(
            Attempt.objects.filter(campaign__group=g)
            .order_by("id")
            .values_list("clock_id", "outcome", "players", "bonus_tokens")
        )
        for g in groups
    ]


def test_it_writes_the_groups_and_attempts_asked_for(db: None) -> None:
    printed = seed("--groups", "3", "--attempts", "500", "--seed", "1")
    assert printed.startswith("3 groups,") and " 500 attempts" in printed
    assert Group.objects.count() == 3 and Attempt.objects.count() == 500
    for group in Group.objects.all():
        owner = group.memberships.get()
        assert owner.role == "owner" and owner.user.username.startswith("demo-")
        assert not owner.user.has_usable_password()
        assert 2 <= group.players.count() <= 4


def test_the_histories_hold_what_a_table_records(db: None) -> None:
    seed("--groups", "4", "--attempts", "1200", "--seed", "2")
    attempts = Attempt.objects.all()
    assert attempts.filter(outcome="passed").exists() and attempts.filter(outcome="failed").exists()
    assert attempts.filter(duration__isnull=False).exists()
    assert attempts.filter(opener__isnull=False).exists()
    assert Session.objects.filter(players__isnull=False).exists()
    assert Event.objects.filter(kind=Event.Kind.SKIPPED).exists()
    assert Event.objects.filter(kind=Event.Kind.RETRIEVED).exists()
    hints = HintRequest.objects.all()
    assert hints.exists() and not hints.exclude(status="done").exists()
    assert (
        hints.filter(attempt__isnull=False).exists() and hints.filter(attempt__isnull=True).exists()
    )
    rated = sum(group_statistics(g, "all").hints.rated for g in Group.objects.all())
    assert rated == hints.count()  # the unlinked ones finish just before their attempt


def test_every_campaign_obeys_the_rules(db: None) -> None:
    """Replaying each campaign's events gives the Bonus tokens of every attempt and the
    progress rows the command wrote."""
    seed("--groups", "3", "--attempts", "900", "--seed", "3")
    for progress_rows in _campaign_progress():
        campaign_id, rows = progress_rows
        tokens = 0
        status: dict[str, str] = {}
        tried: Counter[str] = Counter()
        failed: Counter[str] = Counter()
        for event in Event.objects.filter(campaign_id=campaign_id).order_by("id"):
            if event.kind in (Event.Kind.PASSED, Event.Kind.FAILED):
                attempt = event.attempt
                assert attempt.bonus_tokens == tokens, event.pk
                assert status.get(event.clock_id, "upcoming") == "upcoming"
                tried[event.clock_id] += 1
                if event.kind == Event.Kind.PASSED:
                    status[event.clock_id], tokens = "passed", 0
                else:
                    failed[event.clock_id] += 1
                    tokens = min(3, tokens + 1)
            elif event.kind == Event.Kind.SKIPPED:
                assert (
                    tried[event.clock_id] and status.get(event.clock_id, "upcoming") == "upcoming"
                )
                status[event.clock_id], tokens = "sleeve", 0
            else:
                assert tokens == 0
                for clock in event.clock_id.split(","):
                    assert status[clock] == "sleeve"
                    status[clock] = "upcoming"
        for clock, (row_status, row_attempts, row_failures) in rows.items():
            assert (row_status, row_attempts, row_failures) == (
                status.get(clock, "upcoming"),
                tried[clock],
                failed[clock],
            ), clock


def _campaign_progress() -> list[tuple[int, dict[str, tuple[str, int, int]]]]:
    found: dict[int, dict[str, tuple[str, int, int]]] = {}
    for row in ClockProgress.objects.all():
        found.setdefault(row.campaign_id, {})[row.clock_id] = (
            row.status,
            row.attempts,
            row.failures,
        )
    return list(found.items())


def test_the_same_seed_gives_the_same_histories(db: None) -> None:
    seed("--groups", "2", "--attempts", "300", "--seed", "9")
    first = list(Group.objects.order_by("id"))
    seed("--groups", "2", "--attempts", "300", "--seed", "9")
    second = list(Group.objects.order_by("id"))[2:]
    seed("--groups", "2", "--attempts", "300", "--seed", "10")
    third = list(Group.objects.order_by("id"))[4:]
    assert histories(first) == histories(second)
    assert histories(first) != histories(third)


def test_a_demo_attempt_can_be_undone_like_any_other(db: None) -> None:
    seed("--groups", "1", "--attempts", "50", "--seed", "4")
    campaign = Group.objects.get().current_campaign()
    last = campaign.events.order_by("-id").first()
    assert last is not None
    undo(campaign, None)
    last.refresh_from_db()
    assert last.undone is not None


def test_a_demo_hint_page_shows(db: None, login: Callable[[User], Client]) -> None:
    seed("--groups", "1", "--attempts", "200", "--seed", "5")
    hint = HintRequest.objects.first()
    assert hint is not None
    response = login(hint.user).get(f"/hints/{hint.pk}/")
    assert response.status_code == 200


def test_it_refuses_a_database_with_real_groups_unless_forced(alice: User) -> None:
    create_group(alice, "Tuesday table")
    with pytest.raises(CommandError) as refused:
        seed("--groups", "1", "--attempts", "10")
    assert refused.value.returncode == 2 and Group.objects.count() == 1
    seed("--groups", "1", "--attempts", "10", "--force")
    assert Group.objects.count() == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--groups", "0", "--attempts", "10"],
        ["--groups", "2", "--attempts", "x"],
        ["--groups", "2"],
    ],
)
def test_bad_arguments_are_refused(db: None, args: list[str]) -> None:
    with pytest.raises(CommandError):
        seed(*args)
    assert not Group.objects.exists()


def events_of(seed_value: int, groups: int = 2, attempts: int = 300) -> list[list[tuple]]:
    """Each played campaign's events, in memory (nothing written)."""
    return [
        [
            (i.kind, i.clock, i.before, i.created, i.outcome, i.players, i.tokens, i.hint)
            for s in played.sessions
            for i in s.items
        ]
        for batch in demo.play(groups, attempts, random.Random(seed_value))
        for group in batch
        for played in group.campaigns
    ]


def test_two_runs_with_the_same_seed_play_the_same_events() -> None:
    first = events_of(11)
    assert first == events_of(11)
    assert first != events_of(12)
    assert sum(len(events) for events in first) > 300  # skips and retrievals besides


def _replay(group: Group, user: User, played: demo._Campaign) -> Campaign:
    """``played``'s events recorded one by one through the services, which check every
    move (the next clock, the Sleeve, no token flipped before a retrieval)."""
    campaign = group.current_campaign()
    for item in (i for s in played.sessions for i in s.items):
        if item.kind == Event.Kind.SKIPPED:
            event = skip(campaign, user, item.clock)
        elif item.kind == Event.Kind.RETRIEVED:
            event = retrieve(campaign, user, [item.clock])
        else:
            attempt = record_attempt(campaign, user, item.clock, item.outcome, item.players)
            assert attempt.bonus_tokens == item.tokens
            event = attempt.event
        assert event.before == item.before, (item.kind, item.clock)
    campaign.refresh_from_db()
    return campaign


@pytest.mark.parametrize("seed_value", [0, 1, 2, 3, 5, 8, 13, 21])
def test_replayed_through_the_services_the_demo_gives_its_own_state(
    alice: User, seed_value: int
) -> None:
    """The demo plays the production state machine: its events, recorded through the
    services, are legal and leave exactly the stack, Bonus tokens and Sleeve it stored.
    A rule written again in demo.py (and got wrong) breaks this."""
    budget = 260 if seed_value == 0 else 70  # seed 0 finishes a campaign and starts another
    (played_group,) = next(demo.play(1, budget, random.Random(seed_value)))
    group = create_group(alice, f"Replay {seed_value}", played_group.names)
    for number, played in enumerate(played_group.campaigns):
        if number:
            new_campaign(group)
        campaign = _replay(group, alice, played)
        state, replayed = played.state, campaign_state(campaign)
        assert replayed.stack() == state.stack()
        assert replayed.sleeve == state.sleeve
        assert replayed.bonus_tokens == state.bonus_tokens
        assert (campaign.completed is None) == (played.campaign.completed is None)
        assert [(r.status, r.attempts, r.failures) for r in replayed.rows] == [
            (r.status, r.attempts, r.failures) for r in state.rows
        ]
    if seed_value == 0:
        assert len(played_group.campaigns) > 1


def test_the_demo_follows_the_state_machines_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule changed in the one state machine changes the demo: with at most one Bonus
    token there, no demo attempt is made with two."""
    played = [t for events in events_of(3) for (*_, t, _hint) in events]
    assert max(played) == 3
    monkeypatch.setattr(moves, "BONUS_TOKENS", 1)
    capped = [t for events in events_of(3) for (*_, t, _hint) in events]
    assert max(capped) == 1


def test_a_demo_hint_result_is_the_typed_result() -> None:
    hint = demo._Hint(rate=0.5, finished=timezone.now(), linked=True)
    result = demo.hint_result_of(hint)
    assert hint_result.read(result) == result
    assert result["version"] == hint_result.VERSION
