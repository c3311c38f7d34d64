"""seed_demo (campaigns.demo): realistic, reproducible histories that obey the campaign's
rules, written in bulk; it refuses a database holding real groups unless --force."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from campaigns.groups.services import create_group
from campaigns.models import Attempt, ClockProgress, Event, Group, Session
from campaigns.play.services import undo
from campaigns.statistics.compute import group_statistics
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
