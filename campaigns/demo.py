"""Demo histories for demos, benchmarks and the community figures (``manage.py seed_demo``).

Each demo group plays the campaign state machine in memory, through the moves the services
use (``campaigns.play.moves`` on an unsaved campaign's ``CampaignState``): a table of 2-4
players meets every few days, plays the state's next clock, now and then skips a clock it
failed twice into the Sleeve or puts Sleeve clocks back, and starts a new campaign once
every clock is passed; the rules (next clock, Bonus tokens, Sleeve, completion) are the
state machine's, none is written here. The
chance of passing falls with the chapter and rises with the Bonus tokens face up, around a
difficulty per clock that every group shares, so other tables' figures mean something.
Some attempts follow a finished hint whose predicted pass rate is near that chance.

Rows are written with ``bulk_create``: the campaigns and progress rows the moves left, and
events holding what each move overwrote (``moves.snapshot``, so a demo attempt can be
undone like any other). Hint results come from the one result type (``rules.hint_result``).
The same ``seed`` gives the same histories.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple

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
from campaigns.play import moves
from campaigns.play.state import NUMBERED_CLOCKS, CampaignState
from rules import hint_result
from rules.catalogue import get_clock
from rules.hint_result import HintResultJson

DEMO_USER_PREFIX = "demo-"
FIRST_EVENING = date(2025, 1, 6)
NUMBERED = NUMBERED_CLOCKS
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
    """One event the table records, with what it needs to write the rows."""

    kind: str  # an Event.Kind
    clock: str
    before: dict[str, Any]  # moves.snapshot: what the change overwrote (undo reads it)
    created: datetime
    outcome: str = ""
    players: int = 0
    tokens: int = 0
    opener: int | None = None  # index in the group's players
    minutes: int | None = None
    hint: _Hint | None = None


@dataclass(frozen=True)
class _Hint:
    """A finished hint the table asked before an attempt."""

    rate: float
    finished: datetime
    linked: bool


@dataclass
class _Session:
    evening: date
    seated: list[int]
    items: list[_Item] = field(default_factory=list)


@dataclass
class _Campaign:
    """An unsaved campaign and its progress rows, moved by ``campaigns.play.moves`` (the
    state machine the services use), and the sessions played in it."""

    state: CampaignState = field(default_factory=lambda: moves.fresh_state(Campaign()))
    sessions: list[_Session] = field(default_factory=list)

    @property
    def campaign(self) -> Campaign:
        return self.state.campaign


@dataclass
class _Group:
    """A demo group as played: its number, its players' names, its campaigns."""

    number: int
    names: list[str]
    campaigns: list[_Campaign]


def _difficulty() -> dict[str, float]:
    """Each clock's pass chance with no Bonus token up, the same for every seed and group."""
    fixed = random.Random(40)
    return {
        clock: 0.5 - 0.035 * (int(clock.split("-")[0]) - 1) + fixed.uniform(-0.12, 0.12)
        for clock in NUMBERED
    }


@dataclass
class _Table:
    """A group at play: the campaign and session being played, the clock on the wall."""

    rng: random.Random
    chance: dict[str, float]
    skill: float
    campaigns: list[_Campaign]
    session: _Session
    at: datetime

    @property
    def current(self) -> _Campaign:
        return self.campaigns[-1]

    def record(self, kind: str, clock: str, rows: list[ClockProgress], **extra: Any) -> _Item:
        item = _Item(kind, clock, moves.snapshot(self.current.campaign, rows), self.at, **extra)
        self.session.items.append(item)
        return item

    def retrieve(self, clocks: list[str]) -> None:
        """Put clocks back on top of the stack, the first given played first: one event per
        clock (the last first), so each event names a single clock."""
        state = self.current.state
        for clock in reversed(clocks):
            self.record(Event.Kind.RETRIEVED, clock, [state.by_id[clock]])
            moves.retrieve(state, [clock])

    def next_clock(self) -> str | None:
        """The clock to play: the Sleeve put back when nothing else is left; a new campaign
        once every clock is passed."""
        state = self.current.state
        if state.next_clock is None and state.sleeve:
            self.retrieve(state.sleeve)
        if state.next_clock is None:  # every clock passed: the table starts a new campaign
            if not self.session.items:
                self.current.sessions.remove(self.session)
            self.campaigns.append(_Campaign())
            self.session = _Session(self.session.evening, self.session.seated)
            self.current.sessions.append(self.session)
        return self.current.state.next_clock

    def play(self, clock: str) -> None:
        """One attempt at ``clock``, maybe after a hint, maybe followed by a skip."""
        rng, state = self.rng, self.current.state
        seated = self.session.seated
        minutes = rng.randint(4, 22)
        self.at += timedelta(minutes=minutes + rng.randint(1, 6))
        tokens = state.bonus_tokens
        p = min(0.95, max(0.04, self.chance[clock] * self.skill + 0.09 * tokens))
        passed = rng.random() < p
        item = self.record(
            Event.Kind.PASSED if passed else Event.Kind.FAILED,
            clock,
            [state.by_id[clock]],
            outcome=Attempt.Outcome.PASSED if passed else Attempt.Outcome.FAILED,
            players=len(seated),
            tokens=tokens,
            opener=rng.choice(seated) if rng.random() < 0.85 else None,
            minutes=minutes if rng.random() < 0.75 else None,
        )
        if rng.random() < 0.15:
            item.hint = _Hint(
                rate=round(min(0.99, max(0.01, p + rng.gauss(0, 0.08))), 4),
                finished=self.at - timedelta(minutes=minutes + rng.randint(1, 5)),
                linked=rng.random() < 0.7,
            )
        row = moves.attempt(state, clock, passed, self.at)
        if passed or row.failures < 2:
            return
        if rng.random() < 0.12 + 0.08 * state.bonus_tokens:
            self.at += timedelta(minutes=1)
            self.record(Event.Kind.SKIPPED, clock, [row])
            moves.skip(state, clock)


def _play_group(
    rng: random.Random, budget: int, players: int, chance: dict[str, float]
) -> list[_Campaign]:
    """A group's campaigns, ``budget`` attempts in all."""
    skill = rng.uniform(0.8, 1.2)
    evening = FIRST_EVENING + timedelta(days=rng.randint(0, 60))
    table = _Table(rng, chance, skill, [_Campaign()], _Session(evening, []), _at(evening))
    while budget > 0:
        size = players if players == 2 or rng.random() < 0.7 else rng.randint(2, players)
        table.session = _Session(evening, sorted(rng.sample(range(players), size)))
        table.current.sessions.append(table.session)
        table.at = _at(evening)
        sleeve = table.current.state.sleeve
        if sleeve and table.current.state.bonus_tokens == 0 and rng.random() < 0.35:
            table.retrieve(rng.sample(sleeve, min(len(sleeve), rng.randint(1, 2))))
        for _ in range(min(budget, rng.randint(4, 14))):
            clock = table.next_clock()
            assert clock is not None
            table.play(clock)
            budget -= 1
        evening += timedelta(days=rng.randint(3, 14))
    return table.campaigns


def _at(evening: date) -> datetime:
    return timezone.make_aware(datetime.combine(evening, time(19, 30)))


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
    counts = Counts()
    first = User.objects.filter(username__startswith=DEMO_USER_PREFIX).count()
    for batch in play(groups, attempts, rng, first):
        with transaction.atomic():
            _write(rng, batch, counts)
    return counts


def play(groups: int, attempts: int, rng: random.Random, first: int = 0) -> Iterator[list[_Group]]:
    """The demo groups as played in memory, BATCH_GROUPS at a time (nothing written)."""
    chance = _difficulty()
    weights = [rng.uniform(0.4, 1.6) for _ in range(groups)]
    total = sum(weights)
    budgets = [int(attempts * w / total) for w in weights]
    for index in range(attempts - sum(budgets)):
        budgets[index % groups] += 1
    for start in range(0, groups, BATCH_GROUPS):
        batch = []
        for offset, budget in enumerate(budgets[start : start + BATCH_GROUPS]):
            size = rng.choice((2, 3, 3, 4, 4))
            names = rng.sample(NAMES, size)
            played = _play_group(rng, budget, size, chance)
            batch.append(_Group(first + start + offset + 1, names, played))
        yield batch


class _Placed(NamedTuple):
    """A played campaign and the group (and owner) it is written under."""

    group: Group
    owner: User
    played: _Campaign


class _SessionRow(NamedTuple):
    row: Session
    placed: _Placed
    played: _Session


class _ItemRow(NamedTuple):
    session: Session
    placed: _Placed
    item: _Item


def _first_created(played: _Campaign) -> datetime | None:
    sessions = played.sessions
    return sessions[0].items[0].created if sessions and sessions[0].items else None


def _write(rng: random.Random, batch: list[_Group], counts: Counts) -> None:
    """One batch of played groups, written with a few bulk inserts per table."""
    groups, users, player_ids = _write_groups(batch, counts)
    placed = [
        _Placed(g, u, c)
        for g, u, played in zip(groups, users, batch, strict=True)
        for c in played.campaigns
    ]
    _write_campaigns(placed, counts)
    session_rows = _write_sessions(placed, player_ids, counts)
    item_rows = [_ItemRow(s.row, s.placed, item) for s in session_rows for item in s.played.items]
    attempts = _write_history(item_rows, player_ids, counts)
    _write_hints(rng, attempts, counts)


def _write_groups(
    batch: list[_Group], counts: Counts
) -> tuple[list[Group], list[User], dict[int, list[int]]]:
    """The owners, their groups and players; each group's player ids in seat order."""
    users = User.objects.bulk_create(
        User(username=f"{DEMO_USER_PREFIX}{g.number}", password="!") for g in batch
    )
    groups = Group.objects.bulk_create(
        Group(
            name=f"Demo table {g.number}", created=_first_created(g.campaigns[0]) or timezone.now()
        )
        for g in batch
    )
    Membership.objects.bulk_create(
        Membership(group=g, user=u, role=Membership.Role.OWNER)
        for g, u in zip(groups, users, strict=True)
    )
    players = Player.objects.bulk_create(
        Player(group=g, name=name)
        for g, played in zip(groups, batch, strict=True)
        for name in played.names
    )
    player_ids: dict[int, list[int]] = {}
    for player in players:
        player_ids.setdefault(player.group_id, []).append(player.pk)
    counts.groups += len(groups)
    return groups, users, player_ids


def _write_campaigns(placed: list[_Placed], counts: Counts) -> None:
    """The played campaigns and their progress rows, as the moves left them."""
    for p in placed:
        p.played.campaign.group = p.group
        p.played.campaign.created = _first_created(p.played) or p.group.created
    Campaign.objects.bulk_create([p.played.campaign for p in placed])
    counts.campaigns += len(placed)
    ClockProgress.objects.bulk_create(
        (row for p in placed for row in p.played.state.rows), batch_size=5000
    )


def _write_sessions(
    placed: list[_Placed], player_ids: dict[int, list[int]], counts: Counts
) -> list[_SessionRow]:
    plans = [(p, s) for p in placed for s in p.played.sessions]
    sessions = Session.objects.bulk_create(
        Session(
            campaign=p.played.campaign,
            date=s.evening,
            created=s.items[0].created if s.items else p.group.created,
        )
        for p, s in plans
    )
    counts.sessions += len(sessions)
    Seat = Session.players.through
    Seat.objects.bulk_create(
        (
            Seat(session_id=session.pk, player_id=player_ids[p.group.pk][i])
            for session, (p, s) in zip(sessions, plans, strict=True)
            for i in s.seated
        ),
        batch_size=5000,
    )
    return [_SessionRow(row, p, s) for row, (p, s) in zip(sessions, plans, strict=True)]


def _write_history(
    item_rows: list[_ItemRow], player_ids: dict[int, list[int]], counts: Counts
) -> list[tuple[Attempt, _ItemRow]]:
    """The events (attempts, skips, retrievals); the attempts among them, each with its
    item."""
    events = Event.objects.bulk_create(
        (
            Event(
                campaign=r.placed.played.campaign,
                kind=r.item.kind,
                clock_id=r.item.clock,
                before=r.item.before,
                user=r.placed.owner,
                created=r.item.created,
            )
            for r in item_rows
        ),
        batch_size=5000,
    )
    played = [(event, r) for event, r in zip(events, item_rows, strict=True) if r.item.outcome]
    attempts = Attempt.objects.bulk_create(
        (
            Attempt(
                campaign=r.placed.played.campaign,
                session=r.session,
                event=event,
                clock_id=r.item.clock,
                players=r.item.players,
                bonus_tokens=r.item.tokens,
                face_up=r.item.players + r.item.tokens,
                outcome=r.item.outcome,
                opener_id=None
                if r.item.opener is None
                else player_ids[r.placed.group.pk][r.item.opener],
                duration=None if r.item.minutes is None else timedelta(minutes=r.item.minutes),
                created=r.item.created,
            )
            for event, r in played
        ),
        batch_size=5000,
    )
    counts.attempts += len(attempts)
    counts.skips += sum(1 for r in item_rows if r.item.kind == Event.Kind.SKIPPED)
    counts.retrievals += sum(1 for r in item_rows if r.item.kind == Event.Kind.RETRIEVED)
    return [(a, r) for a, (_event, r) in zip(attempts, played, strict=True)]


def hint_result_of(hint: _Hint) -> HintResultJson:
    """A demo hint's result, built by the one result type (no plan: the demo plays none)."""
    rate = hint.rate
    return hint_result.build(
        plan={},
        pass_rate=rate,
        interval=(max(0.0, rate - 0.03), min(1.0, rate + 0.03)),
        baseline_rate=rate * 0.6,
        odds=None,
        games=1000,
        words="",
    )


def _write_hints(
    rng: random.Random, attempts: list[tuple[Attempt, _ItemRow]], counts: Counts
) -> None:
    """Finished hints for the attempts that asked for one."""
    # The solver's hint rows, reached through the relation they declare to groups: campaigns
    # imports nothing from the solver (which imports campaigns).
    HintRequest: Any = Group._meta.get_field("hint_requests").related_model
    definitions: dict[str, Any] = {}
    hints = []
    for attempt, r in attempts:
        item, hint = r.item, r.item.hint
        if hint is None:
            continue
        if item.clock not in definitions:
            definitions[item.clock] = get_clock(item.clock).to_json()
        finished = hint.finished
        hints.append(
            HintRequest(
                user=r.placed.owner,
                group=r.placed.group,
                campaign=r.placed.played.campaign,
                attempt=attempt if hint.linked else None,
                clock_id=item.clock,
                clock_definition=definitions[item.clock],
                colours=_colours(rng, item.players),
                players=item.players,
                face_up=item.players + item.tokens,
                input_hash=f"demo-{attempt.pk}",
                status=HintRequest.Status.DONE,
                progress=100,
                stage="demo",
                result=hint_result_of(hint),
                queued_at=finished - timedelta(seconds=40),
                sent_at=finished - timedelta(seconds=40),
                started_at=finished - timedelta(seconds=35),
                finished_at=finished,
            )
        )
    HintRequest.objects.bulk_create(hints, batch_size=5000)
    counts.hints += len(hints)
