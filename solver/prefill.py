"""Prefilling the plan book: every colour pattern a table can see, computed before anyone
asks, so that a first hint is answered at once (``solver.plan_book``).

A clock with special rules first gets its own prior at each table size
(``solver.clock_priors``: a few long searches, about two minutes), which every pattern's
search then starts from, as a hint's does. ``prefill(game…)`` walks the classes of
patterns (``solver.core.search.symmetry``: one pattern per class, most often dealt first) for each
table size and face-up budget, skips the classes the book already holds (so a stopped
prefill resumes where it stopped), and stores each
result as a hint job stores its own (``solver.results.result_json``), with the settings a
new hint uses (``solver.services.effort``…), so a later hint finds it.

Two callers:

* ``manage.py prefill_plans --clock C [--players N] [--face-up F]``: one clock, in the
  foreground, with a progress bar.
* the beat task ``solver.prefill_plan_book`` (``solver.tasks``): first the games the groups
  are about to play, then the entries an older search found, then the shipped clocks'
  games and the confirmed community definitions (:func:`steps`), a slice at a time,
  **only while no hint waits or runs**. Before each pattern, and at every progress
  report of the search inside one, it looks for a queued or running hint; if there is
  one it drops the pattern (redone later) and ends. It runs the solver's kernels on one
  thread (``numba.set_num_threads(1)``): at most one core, while a hint uses them all. A
  slice starts no pattern after ``SLICE_SECONDS`` (the task has its own time limits,
  above the slice), one slice runs at a time on a host (a file lock), and beat sends the
  next one every two minutes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db.models import Count, Max, Min, QuerySet

from campaigns.statistics.table_rate import STEPS
from rules.catalogue import load_catalogue
from rules.clock import Clock
from rules.game import PLAYER_COUNTS
from rules.hint_result import HintResultJson
from rules.seats import most_face_up, parse_colours
from solver import clock_priors, plan_book
from solver.core import version
from solver.core.search.search import SLIP_RATE, recommend
from solver.core.search.symmetry import PatternClass, colour_symmetric, pattern_classes
from solver.models import ACTIVE_STATUSES, HintRequest, PlanBookEntry
from solver.results import result_json
from solver.upcoming import upcoming

SLICE_SECONDS = 90.0  # no pattern is started after this (the task's soft limit: 270 s)
ASKED_GAMES = 50  # games asked at other rate steps the prefill fills, at most


class Yielded(Exception):
    """A hint is waiting or running: the prefill stops and leaves the machine to it."""


@dataclass(frozen=True)
class Game:
    """A clock as hints play it: the definition and whether it is played by the base rules
    (``plan_book.solved_clock``)."""

    clock: Clock
    base_rules: bool
    label: str


@dataclass(frozen=True)
class Item:
    game: Game
    players: int
    face_up: int
    pattern: PatternClass
    key: plan_book.BookKey
    prior: dict[str, Any] | None = None  # the clock's prior the search starts from


def settings_now() -> dict[str, Any]:
    """The solver settings a new hint is computed with (``solver.services``)."""
    from solver.services import effort, odds_samples

    return {"effort": effort(), "seed": 0, "odds_samples": odds_samples(), "slip_rate": SLIP_RATE}


def face_ups_for(players: int) -> list[int]:
    """The budgets a campaign gives a table: the players, plus each flipped Bonus token."""
    return list(range(players, most_face_up(players) + 1))


def items(
    game: Game, players: list[int], face_ups: list[int] | None, settings: dict[str, Any]
) -> Iterator[Item]:
    """Every (table size, budget, class of patterns) of ``game``, in the order it is filled:
    budget by budget (the usual one first), the most often dealt patterns first."""
    symmetric = colour_symmetric(plan_book.solved_clock(game.clock, game.base_rules))
    rounds = max(len(face_ups_for(n)) for n in players) if face_ups is None else len(face_ups)
    # The clock's prior at each size, as a hint asked now starts from (the prefill computes
    # it first: :func:`priors_missing`, :func:`compute_prior`).
    prior = {n: clock_priors.for_hint(game.clock, game.base_rules, n) for n in players}
    for index in range(rounds):
        for n in players:
            budgets = face_ups_for(n) if face_ups is None else face_ups
            if index >= len(budgets):
                continue
            for pattern in pattern_classes(n, symmetric):
                key = plan_book.book_key(
                    game.clock,
                    game.base_rules,
                    parse_colours(pattern.colours),
                    budgets[index],
                    **settings,
                    prior=prior[n],
                )
                yield Item(game, n, budgets[index], pattern, key, prior[n])


def priors_missing(game: Game, players: list[int]) -> list[int]:
    """The table sizes whose prior the clock gets and the store lacks: computed before its
    patterns (:func:`compute_prior`), as every pattern's search starts from it."""
    planned = clock_priors.planned(game.clock, game.base_rules)
    return [n for n in players if clock_priors.needs(planned, n)]


def compute_prior(
    game: Game, players: int, busy: Callable[[], bool] | None = None, threads: int | None = 1
) -> None:
    """Compute and store the clock's prior at ``players`` (``solver.clock_priors``); Yielded
    as :func:`compute` when ``busy``."""
    with _threads(threads):
        clock_priors.compute(
            clock_priors.planned(game.clock, game.base_rules), players, _yielding(busy)
        )


def missing(batch: list[Item]) -> list[Item]:
    have = set(
        PlanBookEntry.objects.filter(key__in=[item.key.key for item in batch]).values_list(
            "key", flat=True
        )
    )
    return [item for item in batch if item.key.key not in have]


def compute(
    item: Item,
    settings: dict[str, Any],
    busy: Callable[[], bool] | None = None,
    threads: int | None = 1,
) -> PlanBookEntry:
    """Solve one class (its named pattern) and store it; Yielded when ``busy`` says a hint
    is waiting, checked at each progress report of the search. ``threads``: the kernels'
    threads (1: one core, beside a hint; None: all, for the command)."""
    result, seconds = _search(
        item.game, item.pattern.colours, item.face_up, settings, item.prior, busy, threads
    )
    entry, _ = PlanBookEntry.objects.get_or_create(
        key=item.key.key,
        defaults={
            "engine_version": version.ENGINE_VERSION,
            "search_version": version.SEARCH_VERSION,
            "clock_id": item.game.clock.id,
            "clock_definition": item.game.clock.to_json(),
            "base_rules": item.game.base_rules,
            "colours": item.pattern.colours,
            "pattern": item.key.pattern,
            "players": item.players,
            "face_up": item.face_up,
            "result": result,
            "source": PlanBookEntry.Source.PREFILL,
            "seconds": seconds,
            **settings,
        },
    )
    return entry


def stale_entries() -> QuerySet[PlanBookEntry]:
    """The entries an older search found (``plan_book.stale``) that today's engine still
    answers with, the most asked first: what :func:`refresh` searches again."""
    return PlanBookEntry.objects.filter(
        engine_version=version.ENGINE_VERSION, search_version__lt=version.SEARCH_VERSION
    ).order_by("-asked", "id")


def refresh(
    entry: PlanBookEntry, busy: Callable[[], bool] | None = None, threads: int | None = 1
) -> bool:
    """Search a stale entry's class again with today's search, from the same settings and
    the same clock prior, and store the result in its place (same key: the tables asking
    meanwhile were answered by the old plan). False, leaving it as it is, where today's
    hints would not find it anyway (its clock's prior changed since); Yielded as
    :func:`compute`."""
    clock = Clock.from_json(entry.clock_definition)
    game = Game(clock, entry.base_rules, clock.id)
    settings: dict[str, Any] = {
        "effort": entry.effort,
        "seed": entry.seed,
        "odds_samples": entry.odds_samples,
        "slip_rate": entry.slip_rate,
    }
    prior = clock_priors.for_hint(clock, entry.base_rules, entry.players)
    seats = parse_colours(entry.colours)
    key = plan_book.book_key(clock, entry.base_rules, seats, entry.face_up, **settings, prior=prior)
    if key.key != entry.key:
        return False
    result, seconds = _search(game, entry.colours, entry.face_up, settings, prior, busy, threads)
    # Only over the entry as read: a second slice that refreshed it meanwhile wins.
    PlanBookEntry.objects.filter(pk=entry.pk, search_version=entry.search_version).update(
        search_version=version.SEARCH_VERSION,
        result=result,
        seconds=seconds,
        source=PlanBookEntry.Source.PREFILL,
    )
    return True


def _search(
    game: Game,
    colours: str,
    face_up: int,
    settings: dict[str, Any],
    prior: dict[str, Any] | None,
    busy: Callable[[], bool] | None,
    threads: int | None,
) -> tuple[HintResultJson, float]:
    """One class's result as the book stores it, and the seconds it took."""
    solved = plan_book.solved_clock(game.clock, game.base_rules)
    started = time.monotonic()
    with _threads(threads):
        result = recommend(
            solved,
            parse_colours(colours),
            face_up,
            seed=settings["seed"],
            effort=settings["effort"],
            progress=_yielding(busy),
            base_rules=game.base_rules,
            odds_samples=settings["odds_samples"],
            slip_rate=settings["slip_rate"],
            prior=clock_priors.genes_of(prior),
        )
    return result_json(result, "en"), time.monotonic() - started


def _yielding(busy: Callable[[], bool] | None) -> Callable[[int, Any, Any], None]:
    """A search's progress callback that raises Yielded once ``busy`` says a hint waits."""

    def progress(percent: int, stage: Any, best: Any) -> None:
        del percent, stage, best
        if busy is not None and busy():
            raise Yielded

    return progress


@contextmanager
def _threads(threads: int | None) -> Iterator[None]:
    """The kernels on ``threads`` threads (None: all) meanwhile."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(threads or before)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def hint_waiting() -> bool:
    """Is a table's hint queued or running? Then the prefill leaves the machine to it."""
    return HintRequest.objects.filter(status__in=ACTIVE_STATUSES).exists()


# --- What the beat task fills -----------------------------------------------------------------


def shipped_games() -> list[Game]:
    """The games of the shipped clocks, each once (most are the base rules: one game)."""
    games: dict[str, Game] = {}
    for clock in load_catalogue().values():
        base = not clock.transcribed
        solved = plan_book.solved_clock(clock, base)
        name = repr(plan_book.game(solved))
        games.setdefault(name, Game(clock, base, clock.id))
    return list(games.values())


def community_games() -> list[Game]:
    """The confirmed community definitions (``confirmed_fingerprints``: typed by
    ``CONFIRMED_AT`` sharing groups with no person in common) and the promoted ones, not
    hidden."""
    from campaigns.definitions.community import CONFIRMED_AT, confirmed_fingerprints
    from campaigns.models import ClockTranscription, CommunityDefinition

    typed = (
        ClockTranscription.objects.filter(latest=True, adopted=False)
        .exclude(group__share_with_community=False)
        .values("clock_id", "fingerprint")
        .annotate(groups=Count("group", distinct=True))
        .filter(groups__gte=CONFIRMED_AT)
    )
    candidates: dict[str, list[str]] = {}
    for row in typed:
        candidates.setdefault(row["clock_id"], []).append(row["fingerprint"])
    confirmed = {
        (clock_id, print_)
        for clock_id, prints in candidates.items()
        for print_ in confirmed_fingerprints(clock_id, prints)
    }
    games = []
    for definition in CommunityDefinition.objects.filter(hidden=False).order_by("clock_id", "id"):
        if definition.promoted or (definition.clock_id, definition.fingerprint) in confirmed:
            clock = Clock.from_json(definition.definition)
            games.append(Game(clock, not clock.transcribed, f"{clock.id} {definition.fingerprint}"))
    return games


Step = Callable[[Callable[[], bool]], bool]  # given ``busy``: did it store a pattern?


def steps(settings: dict[str, Any]) -> Iterator[Step]:
    """The slice's work, in the order it is done, where tables will ask first:

    1. the games the groups are about to play (``solver.upcoming``: the top of each
       stack and each Sleeve), at the group's table size and budget;
    2. the other clocks of each group's chapter, the same way;
    3. the games tables asked at a rate step other than the default (a table's own slip
       rate, ``campaigns.statistics.table_rate.STEPS``), at that step: the most asked step
       first, and within it the most asked game (:func:`asked_steps`);
    4. the entries an older search found, the most asked first (:func:`refresh`; they
       answer meanwhile, so they wait for the games nobody can be answered on);
    5. every game's missing priors and patterns at the default step (:func:`game_steps`).
    """
    now, later = upcoming()
    seen: set[tuple[str, int, int]] = set()
    for target in (*now, *later):
        game = Game(target.clock, not target.clock.transcribed, target.clock.id)
        solved = plan_book.solved_clock(game.clock, game.base_rules)
        name = (repr(plan_book.game(solved)), target.players, target.face_up)
        if name not in seen:
            seen.add(name)
            yield from game_steps(game, [target.players], [target.face_up], settings)
    yield from asked_steps(settings)
    for entry_id in list(stale_entries().values_list("pk", flat=True)):
        yield partial(_refresh_step, entry_id)
    for game in (*shipped_games(), *community_games()):
        yield from game_steps(game, list(PLAYER_COUNTS), None, settings)


def asked_at_steps(limit: int = ASKED_GAMES) -> list[tuple[float, Game, int, int]]:
    """(step, game, players, face-up) of the hints asked at a rate step other than the
    default, the most asked step first and, within a step, the most asked game first (ties:
    the first asked first); at most ``limit`` games, each once."""
    others = [step for step in STEPS if step != SLIP_RATE]
    hints = HintRequest.objects.filter(slip_rate__in=others)
    per_step = dict(
        hints.values_list("slip_rate").annotate(n=Count("id")).values_list("slip_rate", "n")
    )
    groups = (
        hints.values("slip_rate", "clock_id", "base_rules", "players", "face_up")
        .annotate(n=Count("id"), first=Min("id"), last=Max("id"))
        .order_by("-n", "first")
    )
    rows = sorted(groups, key=lambda row: -per_step[row["slip_rate"]])  # stable: keeps -n
    found: list[tuple[float, Game, int, int]] = []
    seen: set[tuple[float, str, int, int]] = set()
    for row in rows[:limit]:
        definition = HintRequest.objects.values_list("clock_definition", flat=True).get(
            pk=row["last"]
        )
        clock = Clock.from_json(definition)
        game = Game(clock, row["base_rules"], clock.id)
        name = repr(plan_book.game(plan_book.solved_clock(clock, game.base_rules)))
        if (row["slip_rate"], name, row["players"], row["face_up"]) not in seen:
            seen.add((row["slip_rate"], name, row["players"], row["face_up"]))
            found.append((row["slip_rate"], game, row["players"], row["face_up"]))
    return found


def asked_steps(settings: dict[str, Any]) -> Iterator[Step]:
    """The missing patterns of the games asked at other rate steps (:func:`asked_at_steps`),
    each searched at its step with the other settings of today's hints."""
    for step, game, players, face_up in asked_at_steps():
        yield from game_steps(game, [players], [face_up], {**settings, "slip_rate": step})


def game_steps(
    game: Game, players: list[int], face_ups: list[int] | None, settings: dict[str, Any]
) -> Iterator[Step]:
    """A game's missing priors, then its missing patterns (:func:`items`' order)."""
    for n in priors_missing(game, players):
        yield partial(_prior_step, game, n)
    for batch in _batches(items(game, players, face_ups, settings)):
        for item in missing(batch):
            yield partial(_compute_step, item, settings)


def _prior_step(game: Game, players: int, busy: Callable[[], bool]) -> bool:
    compute_prior(game, players, busy)
    return False


def _compute_step(item: Item, settings: dict[str, Any], busy: Callable[[], bool]) -> bool:
    if PlanBookEntry.objects.filter(key=item.key.key).exists():  # found meanwhile
        return False
    compute(item, settings, busy)
    return True


def _refresh_step(entry_id: int, busy: Callable[[], bool]) -> bool:
    entry = stale_entries().filter(pk=entry_id).first()
    return entry is not None and refresh(entry, busy)


def prefill_slice(
    seconds: float = SLICE_SECONDS,
    busy: Callable[[], bool] = hint_waiting,
    stopping: Callable[[], bool] = lambda: False,
) -> dict[str, Any]:
    """The beat task's body: the :func:`steps` for at most ``seconds``, stopping as soon as
    a hint waits (``busy``) or the worker stops (``stopping``: the task's
    ``worker_stopping``), both asked before each step and at each progress report inside
    one. A step stopped stores nothing (a prior keeps its searches done); the next slice
    does it again. Returns what it did: ``computed``, the patterns stored or refreshed."""
    deadline = time.monotonic() + seconds

    def yields() -> bool:
        return stopping() or busy()

    def why() -> str:
        return "the worker is stopping" if stopping() else "a hint is waiting"

    done = 0
    for step in steps(settings_now()):
        if yields():
            return {"computed": done, "stopped": why()}
        if time.monotonic() >= deadline:
            return {"computed": done, "stopped": "slice over"}
        try:
            done += step(yields)
        except Yielded:
            return {"computed": done, "stopped": why()}
    return {"computed": done, "stopped": "the book is full"}


def _batches(source: Iterator[Item], size: int = 200) -> Iterator[list[Item]]:
    batch: list[Item] = []
    for item in source:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
