"""Demo histories for demos, benchmarks and the community figures (``manage.py seed_demo``).

Each demo group plays the campaign state machine in memory: a table of 2-4 players meets
every few days, the next clock is the first of the stack not passed nor in the Sleeve,
clocks put back from the Sleeve go on top, a failure flips a Bonus token (at most 3), a
pass or a skip turns them face down, a finished campaign is followed by a new one. The
chance of passing falls with the chapter and rises with the Bonus tokens face up, around a
difficulty per clock that every group shares, so other tables' figures mean something.
Some attempts follow a finished hint whose predicted pass rate is near that chance.

Rows are written with ``bulk_create`` in the same shape the services write them (events
with the state they overwrote, so a demo attempt can be undone like any other). The same
``seed`` gives the same histories.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns.models import (
    Attempt,
    Campaign,
    ClockProgress,
    Event,
    Group,
    Membership,
    Player,
    Session,
)
from rules.catalogue import CLOCK_IDS, get_clock
from rules.clock import REBIRTH
from rules.game import BONUS_TOKENS

DEMO_USER_PREFIX = "demo-"
FIRST_EVENING = date(2025, 1, 6)
NUMBERED = [c for c in CLOCK_IDS if c != REBIRTH]
NAMES = [
    "Ann", "Ben", "Cleo", "Daan", "Emi", "Finn", "Gus", "Hana", "Ines", "Joost", "Kai", "Lotte",
    "Mei", "Noor", "Otto", "Pia", "Quinn", "Ren", "Sanne", "Taro", "Uma", "Vic", "Wim", "Yuki",
]  # fmt: skip
SEAT_SIZES = {2: ((4, 2), (4, 2)), 3: ((4,), (4,), (4,)), 4: ((3,), (3,), (3,), (3,))}
BATCH_GROUPS = 50


def has_real_groups() -> bool:
    """A group that no demo account owns: seed_demo leaves such a database alone."""
    return Group.objects.exclude(memberships__user__username__startswith=DEMO_USER_PREFIX).exists()


@dataclass
class Counts:
    groups: int = 0
    campaigns: int = 0
    sessions: int = 0
    attempts: int = 0
    skips: int = 0
    retrievals: int = 0
    hints: int = 0


@dataclass
class _Item:
    kind: str  # an Event.Kind
    clock: str  # for a retrieval: the clocks put back, comma-separated
    before: dict[str, Any]
    created: datetime
    outcome: str = ""
    players: int = 0
    tokens: int = 0
    opener: int | None = None  # index in the group's players
    minutes: int | None = None
    hint: dict[str, Any] | None = None


@dataclass
class _Session:
    evening: date
    seated: list[int]
    items: list[_Item] = field(default_factory=list)


@dataclass
class _Campaign:
    progress: dict[str, list[Any]]  # clock -> [status, attempts, failures]
    stack_top: list[str] = field(default_factory=list)
    tokens: int = 0
    completed: datetime | None = None
    sessions: list[_Session] = field(default_factory=list)

    def next_clock(self) -> str | None:
        for clock in self.stack_top:
            if self.progress[clock][0] == ClockProgress.Status.UPCOMING:
                return clock
        for clock in NUMBERED:
            if self.progress[clock][0] == ClockProgress.Status.UPCOMING:
                return clock
        return None

    def sleeve(self) -> list[str]:
        return [c for c in NUMBERED if self.progress[c][0] == ClockProgress.Status.SLEEVE]

    def before(self, clocks: list[str]) -> dict[str, Any]:
        """What a change overwrites, as services._snapshot stores it (undo reads it)."""
        return {
            "bonus_tokens": self.tokens,
            "stack_top": list(self.stack_top),
            "completed": None,
            "progress": {
                c: dict(zip(("status", "attempts", "failures"), self.progress[c], strict=True))
                for c in clocks
            },
        }


def _difficulty() -> dict[str, float]:
    """Each clock's pass chance with no Bonus token up, the same for every seed and group."""
    fixed = random.Random(40)
    return {
        clock: 0.5 - 0.035 * (int(clock.split("-")[0]) - 1) + fixed.uniform(-0.12, 0.12)
        for clock in NUMBERED
    }


def _play_group(
    rng: random.Random, budget: int, players: int, chance: dict[str, float]
) -> list[_Campaign]:
    """A group's campaigns, ``budget`` attempts in all."""
    skill = rng.uniform(0.8, 1.2)
    campaigns = [_Campaign({c: [ClockProgress.Status.UPCOMING, 0, 0] for c in NUMBERED})]
    evening = FIRST_EVENING + timedelta(days=rng.randint(0, 60))
    while budget > 0:
        campaign = campaigns[-1]
        size = players if players == 2 or rng.random() < 0.7 else rng.randint(2, players)
        seated = sorted(rng.sample(range(players), size))
        session = _Session(evening, seated)
        campaign.sessions.append(session)
        clock_time = timezone.make_aware(datetime.combine(evening, time(19, 30)))
        sleeve = campaign.sleeve()
        if sleeve and campaign.tokens == 0 and rng.random() < 0.35:
            _retrieve(
                campaign,
                session,
                rng.sample(sleeve, min(len(sleeve), rng.randint(1, 2))),
                clock_time,
            )
        for _ in range(min(budget, rng.randint(4, 14))):
            clock = campaign.next_clock()
            if clock is None and campaign.sleeve():
                _retrieve(campaign, session, campaign.sleeve(), clock_time)
                clock = campaign.next_clock()
            if clock is None:  # every clock passed: the table starts a new campaign
                campaign.completed = clock_time
                if not session.items:
                    campaign.sessions.remove(session)
                campaign = _Campaign({c: [ClockProgress.Status.UPCOMING, 0, 0] for c in NUMBERED})
                campaigns.append(campaign)
                session = _Session(evening, seated)
                campaign.sessions.append(session)
                clock = campaign.next_clock()
                assert clock is not None
            minutes = rng.randint(4, 22)
            clock_time += timedelta(minutes=minutes + rng.randint(1, 6))
            p = min(0.95, max(0.04, chance[clock] * skill + 0.09 * campaign.tokens))
            passed = rng.random() < p
            row = campaign.progress[clock]
            item = _Item(
                kind=Event.Kind.PASSED if passed else Event.Kind.FAILED,
                clock=clock,
                before=campaign.before([clock]),
                created=clock_time,
                outcome=Attempt.Outcome.PASSED if passed else Attempt.Outcome.FAILED,
                players=size,
                tokens=campaign.tokens,
                opener=rng.choice(seated) if rng.random() < 0.85 else None,
                minutes=minutes if rng.random() < 0.75 else None,
            )
            if rng.random() < 0.15:
                item.hint = {
                    "rate": round(min(0.99, max(0.01, p + rng.gauss(0, 0.08))), 4),
                    "finished": clock_time - timedelta(minutes=minutes + rng.randint(1, 5)),
                    "linked": rng.random() < 0.7,
                }
            session.items.append(item)
            budget -= 1
            row[1] += 1
            if passed:
                row[0] = ClockProgress.Status.PASSED
                campaign.tokens = 0
                campaign.stack_top = [c for c in campaign.stack_top if c != clock]
            else:
                row[2] += 1
                campaign.tokens = min(BONUS_TOKENS, campaign.tokens + 1)
                if row[2] >= 2 and rng.random() < 0.12 + 0.08 * campaign.tokens:
                    clock_time += timedelta(minutes=1)
                    session.items.append(
                        _Item(Event.Kind.SKIPPED, clock, campaign.before([clock]), clock_time)
                    )
                    row[0] = ClockProgress.Status.SLEEVE
                    campaign.tokens = 0
                    campaign.stack_top = [c for c in campaign.stack_top if c != clock]
        evening += timedelta(days=rng.randint(3, 14))
    return campaigns


def _retrieve(campaign: _Campaign, session: _Session, clocks: list[str], at: datetime) -> None:
    """Put clocks back on top of the stack, the first given played first: one event per
    clock (the last first), so each event names a single clock."""
    for clock in reversed(clocks):
        session.items.append(_Item(Event.Kind.RETRIEVED, clock, campaign.before([clock]), at))
        campaign.progress[clock][0] = ClockProgress.Status.UPCOMING
        campaign.stack_top = [clock] + [c for c in campaign.stack_top if c != clock]


def _colours(rng: random.Random, players: int) -> str:
    cards = list("SSSSSSMMMMMM")
    rng.shuffle(cards)
    seats = []
    for sizes in SEAT_SIZES[players]:
        parts = []
        for size in sizes:
            parts.append("".join(cards[:size]))
            cards = cards[size:]
        seats.append("+".join(parts))
    return "/".join(seats)


def seed(groups: int, attempts: int, seed: int = 0) -> Counts:
    """Write ``groups`` demo groups holding ``attempts`` attempts in all."""
    rng = random.Random(seed)
    chance = _difficulty()
    weights = [rng.uniform(0.4, 1.6) for _ in range(groups)]
    total = sum(weights)
    budgets = [int(attempts * w / total) for w in weights]
    for index in range(attempts - sum(budgets)):
        budgets[index % groups] += 1
    first = User.objects.filter(username__startswith=DEMO_USER_PREFIX).count()
    counts = Counts()
    for start in range(0, groups, BATCH_GROUPS):
        batch = []
        for offset, budget in enumerate(budgets[start : start + BATCH_GROUPS]):
            number = first + start + offset + 1
            size = rng.choice((2, 3, 3, 4, 4))
            names = rng.sample(NAMES, size)
            batch.append((number, names, _play_group(rng, budget, size, chance)))
        with transaction.atomic():
            _write(rng, batch, counts)
    return counts


def _write(
    rng: random.Random, batch: list[tuple[int, list[str], list[_Campaign]]], counts: Counts
) -> None:
    """One batch of played groups, written with a few bulk inserts per table."""
    groups, users, player_ids = _write_groups(batch, counts)
    plans = [(g, u, c) for g, u, (_, _, cs) in zip(groups, users, batch, strict=True) for c in cs]
    campaigns = _write_campaigns(plans, counts)
    session_plans = [
        (row, g, u, s) for row, (g, u, c) in zip(campaigns, plans, strict=True) for s in c.sessions
    ]
    sessions = _write_sessions(session_plans, player_ids, counts)
    item_plans = [
        (session, row, g, u, item)
        for session, (row, g, u, s) in zip(sessions, session_plans, strict=True)
        for item in s.items
    ]
    attempts, attempt_plans = _write_history(item_plans, player_ids, counts)
    _write_hints(rng, attempts, attempt_plans, counts)


def _write_groups(
    batch: list[tuple[int, list[str], list[_Campaign]]], counts: Counts
) -> tuple[list[Group], list[User], dict[int, list[int]]]:
    """The owners, their groups and players; each group's player ids in seat order."""
    users = User.objects.bulk_create(
        User(username=f"{DEMO_USER_PREFIX}{number}", password="!") for number, _, _ in batch
    )
    created = [
        c[0].sessions[0].items[0].created
        if c[0].sessions and c[0].sessions[0].items
        else timezone.now()
        for _, _, c in batch
    ]
    groups = Group.objects.bulk_create(
        Group(name=f"Demo table {number}", created=when)
        for (number, _, _), when in zip(batch, created, strict=True)
    )
    Membership.objects.bulk_create(
        Membership(group=g, user=u, role=Membership.Role.OWNER)
        for g, u in zip(groups, users, strict=True)
    )
    players = Player.objects.bulk_create(
        Player(group=g, name=name)
        for g, (_, names, _) in zip(groups, batch, strict=True)
        for name in names
    )
    player_ids: dict[int, list[int]] = {}
    for player in players:
        player_ids.setdefault(player.group_id, []).append(player.pk)
    counts.groups += len(groups)

    return groups, users, player_ids


def _write_campaigns(plans: list[tuple[Group, User, _Campaign]], counts: Counts) -> list[Campaign]:
    campaigns = Campaign.objects.bulk_create(
        Campaign(
            group=g,
            bonus_tokens=c.tokens,
            stack_top=[x for x in c.stack_top if c.progress[x][0] == ClockProgress.Status.UPCOMING],
            created=c.sessions[0].items[0].created
            if c.sessions and c.sessions[0].items
            else g.created,
            completed=c.completed,
        )
        for g, _u, c in plans
    )
    counts.campaigns += len(campaigns)
    ClockProgress.objects.bulk_create(
        (
            ClockProgress(
                campaign=row,
                clock_id=clock,
                position=position,
                status=state[0],
                attempts=state[1],
                failures=state[2],
            )
            for row, (_g, _u, c) in zip(campaigns, plans, strict=True)
            for position, (clock, state) in enumerate(c.progress.items())
        ),
        batch_size=5000,
    )
    return campaigns


def _write_sessions(
    session_plans: list[tuple[Campaign, Group, User, Any]],
    player_ids: dict[int, list[int]],
    counts: Counts,
) -> list[Session]:
    sessions = Session.objects.bulk_create(
        Session(campaign=row, date=s.evening, created=s.items[0].created if s.items else g.created)
        for row, g, _u, s in session_plans
    )
    counts.sessions += len(sessions)
    Seat = Session.players.through
    Seat.objects.bulk_create(
        (
            Seat(session_id=session.pk, player_id=player_ids[g.pk][i])
            for session, (_row, g, _u, s) in zip(sessions, session_plans, strict=True)
            for i in s.seated
        ),
        batch_size=5000,
    )
    return sessions


def _write_history(
    item_plans: list[tuple[Session, Campaign, Group, User, Any]],
    player_ids: dict[int, list[int]],
    counts: Counts,
) -> tuple[list[Attempt], list[tuple[Event, tuple[Session, Campaign, Group, User, Any]]]]:
    """The events (attempts, skips, retrievals) and the attempts among them."""
    events = Event.objects.bulk_create(
        (
            Event(
                campaign=row,
                kind=item.kind,
                clock_id=item.clock,
                before=item.before,
                user=u,
                created=item.created,
            )
            for _session, row, _g, u, item in item_plans
        ),
        batch_size=5000,
    )
    attempt_plans = [
        (event, plan) for event, plan in zip(events, item_plans, strict=True) if plan[4].outcome
    ]
    attempts = Attempt.objects.bulk_create(
        (
            Attempt(
                campaign=row,
                session=session,
                event=event,
                clock_id=item.clock,
                players=item.players,
                bonus_tokens=item.tokens,
                face_up=item.players + item.tokens,
                outcome=item.outcome,
                opener_id=None if item.opener is None else player_ids[g.pk][item.opener],
                duration=None if item.minutes is None else timedelta(minutes=item.minutes),
                created=item.created,
            )
            for event, (session, row, g, _u, item) in attempt_plans
        ),
        batch_size=5000,
    )
    counts.attempts += len(attempts)
    counts.skips += sum(1 for plan in item_plans if plan[4].kind == Event.Kind.SKIPPED)
    counts.retrievals += sum(1 for plan in item_plans if plan[4].kind == Event.Kind.RETRIEVED)
    return attempts, attempt_plans


def _write_hints(
    rng: random.Random,
    attempts: list[Attempt],
    attempt_plans: list[tuple[Event, tuple[Session, Campaign, Group, User, Any]]],
    counts: Counts,
) -> None:
    """Finished hints for the attempts that asked for one."""
    # The solver's hint rows, reached through the relation they declare to groups: campaigns
    # imports nothing from the solver (which imports campaigns).
    HintRequest: Any = Group._meta.get_field("hint_requests").related_model
    definitions: dict[str, Any] = {}
    hints = []
    for attempt, (_event, (_session, row, g, u, item)) in zip(attempts, attempt_plans, strict=True):
        if item.hint is None:
            continue
        if item.clock not in definitions:
            definitions[item.clock] = get_clock(item.clock).to_json()
        finished = item.hint["finished"]
        rate = item.hint["rate"]
        hints.append(
            HintRequest(
                user=u,
                group=g,
                campaign=row,
                attempt=attempt if item.hint["linked"] else None,
                clock_id=item.clock,
                clock_definition=definitions[item.clock],
                colours=_colours(rng, item.players),
                players=item.players,
                face_up=item.players + item.tokens,
                input_hash=f"demo-{attempt.pk}",
                status=HintRequest.Status.DONE,
                progress=100,
                stage="demo",
                result={
                    "plan": {},
                    "pass_rate": rate,
                    "interval": [round(max(0.0, rate - 0.03), 4), round(min(1.0, rate + 0.03), 4)],
                    "baseline_rate": round(rate * 0.6, 4),
                    "odds": None,
                    "games": 1000,
                    "words": "",
                },
                queued_at=finished - timedelta(seconds=40),
                sent_at=finished - timedelta(seconds=40),
                started_at=finished - timedelta(seconds=35),
                finished_at=finished,
            )
        )
    HintRequest.objects.bulk_create(hints, batch_size=5000)
    counts.hints += len(hints)
