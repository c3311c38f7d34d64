"""Hint workflows: validate a request, dedupe or reuse it, enforce the limits, hand it to
Celery after commit, run it (claim → solver core → result), and keep the queue honest
(reaper, resender, cleanup). The pages, the API and the tasks all call these functions.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db import OperationalError as DatabaseOperationalError
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from campaigns.models import Attempt, Campaign, Group
from config.errors import DomainError, LimitReached
from config.i18n import current_lang
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.errors import RulesError
from rules.seats import Seats, parse_colours
from solver.core.plans import Plan
from solver.core.search import HintResult, recommend
from solver.core.simulate import SimResult, simulate
from solver.models import ACTIVE_STATUSES, HintRequest

log = logging.getLogger(__name__)

MAX_ACTIVE = 3  # queued or running hints per user
MAX_PER_HOUR = 30  # hints asked per user per hour (reused results count too)
REUSE_WITHIN = timedelta(days=1)
KEEP_FOR = timedelta(days=30)
MAX_RUNS = 3  # a job that lost its worker this often is failed, not retried again
PROGRESS_EVERY = 0.5  # seconds between progress writes to the row
RESEND_AFTER = timedelta(seconds=10)  # a queued row never handed to the broker
RESEND_LOST_AFTER = timedelta(minutes=10)  # a queued row whose message seems lost
DB_ATTEMPTS = 4  # bounded retries of the job's own statements on a transient DB error
WHAT_IF_GAMES = 2000  # ~40 ms on the compiled engine; the reference engine gets 200

Status = HintRequest.Status
Failure = HintRequest.Failure


class HintError(DomainError):
    """Bad input for a hint: ``message`` is for the user, ``field`` names the input (400)."""


class HintLimitReached(LimitReached):
    """Too many hints in progress or in the last hour (429)."""


def effort() -> float:
    """Solver effort for new jobs; tests turn it down so a job takes a second."""
    return float(getattr(settings, "HINT_EFFORT", 1.0))


def odds_samples() -> int | None:
    """Sampled odds for new jobs (None: exact); tests sample a few hundred value sets."""
    samples = getattr(settings, "HINT_ODDS_SAMPLES", None)
    return None if samples is None else int(samples)


# --- Input ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HintInput:
    clock: Clock  # as asked: the catalogue's, the group's transcription, or a definition
    seats: Seats
    face_up: int
    base_rules: bool = False

    def input_hash(self, effort: float, seed: int, odds_samples: int | None = None) -> str:
        """Same hash ⇔ same job: the full clock definition (so a new transcription is a
        new input), the colours in canonical form, the budget, and the solver settings."""
        key = {
            "clock": self.clock.to_json(),
            "base_rules": self.base_rules,
            "colours": self.seats.format(),
            "face_up": self.face_up,
            "effort": effort,
            "seed": seed,
            "odds_samples": odds_samples,
        }
        blob = json.dumps(key, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


def parse_input(
    clock: object,
    colours: object,
    face_up: object,
    base_rules: bool = False,
    group: Group | None = None,
) -> HintInput:
    """Check a request field by field; HintError names the first bad field.

    ``clock`` is a catalogue id (the group's own transcription when it has one) or a clock
    definition object. ``face_up`` may be None: the player count.
    """
    parsed_clock = _parse_clock(clock, group)
    if not parsed_clock.transcribed and not base_rules:
        raise HintError(
            _(
                "Clock %(clock)s is not transcribed yet, so its special rules are unknown. "
                "Transcribe it from your box first, or ask for a hint under the base rules only."
            )
            % {"clock": parsed_clock.id},
            "clock",
        )
    if not isinstance(colours, str):
        raise HintError(_("Give the colours as text, like SSMM/MMSS/SMSM."), "colours")
    try:
        seats = parse_colours(colours)
    except RulesError as error:
        raise HintError(
            _("These colours are not a table: %(reason)s") % {"reason": _reason(error)},
            "colours",
        ) from None
    if face_up is None or face_up == "":
        budget = seats.players
    else:
        try:
            budget = int(str(face_up))
        except ValueError:
            raise HintError(_("The face-up budget is a whole number."), "face_up") from None
    if not 0 <= budget <= seats.most_face_up:
        raise HintError(
            _("With %(players)s players the face-up budget is 0 to %(most)s.")
            % {"players": seats.players, "most": seats.most_face_up},
            "face_up",
        )
    return HintInput(parsed_clock, seats, budget, bool(base_rules))


def _reason(error: RulesError) -> str:
    """The rules engine's sentence in the active language (it words its own errors)."""
    return error.in_language(current_lang())


def _parse_clock(clock: object, group: Group | None) -> Clock:
    if isinstance(clock, str):
        try:
            clock_id = get_clock(clock).id
        except RulesError:
            raise HintError(
                _("Unknown clock %(clock)s: clocks are 1-1 … 10-4 and rebirth.")
                % {"clock": clock[:20]},
                "clock",
            ) from None
        if group is not None:
            from campaigns.services import clock_for_group

            return clock_for_group(group, clock_id)[0]
        return get_clock(clock_id)
    if isinstance(clock, dict):
        try:
            return Clock.from_json(clock)
        except RulesError as error:
            raise HintError(
                _("This is not a clock definition: %(reason)s") % {"reason": _reason(error)},
                "clock",
            ) from None
    raise HintError(_("Give a clock id like 1-1, or a clock definition."), "clock")


# --- Asking ---------------------------------------------------------------------------------


def request_hint(
    user: User,
    hint_input: HintInput,
    *,
    group: Group | None = None,
    campaign: Campaign | None = None,
    attempt: Attempt | None = None,
    lang: str = "en",
) -> tuple[HintRequest, bool]:
    """The hint for this input: (row, created).

    - the same user's queued or running job for the same input (a double tap): that row;
    - a complete result for the same input finished within a day: a new row, done at once,
      sharing that result (no job);
    - otherwise a new queued row, sent to the workers once the transaction commits.

    HintLimitReached when the user has MAX_ACTIVE jobs in progress or asked MAX_PER_HOUR
    times in the last hour.
    """
    job_effort, seed, samples = effort(), 0, odds_samples()
    input_hash = hint_input.input_hash(job_effort, seed, samples)
    now = timezone.now()
    fields: dict[str, Any] = {
        "user": user,
        "group": group,
        "campaign": campaign,
        "attempt": attempt,
        "clock_id": hint_input.clock.id,
        "clock_definition": hint_input.clock.to_json(),
        "base_rules": hint_input.base_rules,
        "colours": hint_input.seats.format(),
        "players": hint_input.seats.players,
        "face_up": hint_input.face_up,
        "effort": job_effort,
        "odds_samples": samples,
        "seed": seed,
        "lang": lang,
        "input_hash": input_hash,
        "queued_at": now,
    }
    with transaction.atomic():
        # One request at a time per user, so the limits below are not a read-then-write race.
        User.objects.select_for_update().filter(pk=user.pk).first()
        active = HintRequest.objects.filter(user=user, status__in=ACTIVE_STATUSES)
        same = active.filter(input_hash=input_hash).first()
        if same is not None:
            return same, False
        last_hour = HintRequest.objects.filter(user=user, queued_at__gte=now - timedelta(hours=1))
        if last_hour.count() >= MAX_PER_HOUR:
            raise HintLimitReached(
                _("You asked for %(n)s hints in the last hour; please wait a few minutes.")
                % {"n": MAX_PER_HOUR}
            )
        done = (
            HintRequest.objects.filter(
                input_hash=input_hash,
                status=Status.DONE,
                partial=False,
                finished_at__gte=now - REUSE_WITHIN,
            )
            .order_by("-finished_at")
            .first()
        )
        if done is not None:
            hint = HintRequest.objects.create(
                **fields,
                status=Status.DONE,
                progress=100,
                stage="reused",
                result=_in_language(done.result or {}, lang),
                reused_from=done,
                sent_at=now,
                started_at=now,
                finished_at=now,
            )
            return hint, True
        if active.count() >= MAX_ACTIVE:
            raise HintLimitReached(
                _(
                    "You already have %(n)s hints in progress. Wait for one to finish, "
                    "or cancel one."
                )
                % {"n": MAX_ACTIVE}
            )
        try:
            with transaction.atomic():
                hint = HintRequest.objects.create(**fields)
        except IntegrityError:
            # Another request for the same input won the race (the unique constraint).
            return active.get(input_hash=input_hash), False
        transaction.on_commit(partial(send, hint.pk))
    hint.refresh_from_db()  # sent_at, as the send after commit left it
    return hint, True


def retry(hint: HintRequest, user: User) -> tuple[HintRequest, bool]:
    """Ask again with the inputs of a failed or cancelled hint (a new row, same rules)."""
    clock = Clock.from_json(hint.clock_definition)
    hint_input = HintInput(clock, hint.seats(), hint.face_up, hint.base_rules)
    return request_hint(
        user,
        hint_input,
        group=hint.group,
        campaign=hint.campaign,
        attempt=hint.attempt,
        lang=hint.lang,
    )


def cancel(hint: HintRequest) -> bool:
    """Stop a queued or running hint; a running job notices at its next progress write."""
    changed = HintRequest.objects.filter(pk=hint.pk, status__in=ACTIVE_STATUSES).update(
        status=Status.CANCELLED, finished_at=timezone.now()
    )
    hint.refresh_from_db()
    return bool(changed)


def send(hint_id: int) -> bool:
    """Hand the job to the broker. If the broker is down the row stays queued with no
    ``sent_at`` (the page says the solver is unavailable) and ``resend_queued`` sends it
    once the broker is back; the claim makes a duplicate message harmless."""
    from solver.tasks import run_hint

    task_id = str(uuid.uuid4())
    try:
        run_hint.apply_async((hint_id,), task_id=task_id, retry_policy={"max_retries": 1})
    except (OperationalError, OSError) as error:
        log.warning("Broker unavailable; hint %s stays queued until it is back: %s", hint_id, error)
        return False
    HintRequest.objects.filter(pk=hint_id).update(sent_at=timezone.now())
    return True


# --- Running --------------------------------------------------------------------------------


class _Abandoned(Exception):
    """The row is no longer this run's (cancelled, or taken over after a worker loss)."""


def this_process() -> str:
    """Who claims a row: host and pid, so a later delivery can tell if the claimant died."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _claimant_is_gone(claimant: str) -> bool:
    """True only when the claimant was a process on this host that no longer exists
    (a pool process killed mid-job). Elsewhere we cannot tell: the reaper decides."""
    host, _, pid = claimant.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


def claim(hint_id: int, task_id: str, redelivered: bool = False, claimant: str = "") -> int | None:
    """Take the row for this run; the run's number (its fencing token), or None to do nothing.

    Only a queued row can be claimed. One exception: the *same* message (same task id)
    delivered again while the row is running, when its first run is known to be dead — the
    broker flags the delivery as a redelivery (Redis), or the claimant was a process on this
    host that no longer exists (any broker). acks_late + reject_on_worker_lost requeued the
    message, so this delivery takes over — at most MAX_RUNS times, then the hint fails.
    """
    now = timezone.now()
    start = {
        "started_at": now,
        "beat_at": now,
        "progress": 0,
        "stage": "",
        "runs": F("runs") + 1,
        "claimed_by": claimant[:255],
    }
    rows = HintRequest.objects.filter(pk=hint_id)
    claimed = rows.filter(status=Status.QUEUED).update(
        status=Status.RUNNING, task_id=task_id, **start
    )
    if not claimed:
        mine = rows.filter(status=Status.RUNNING, task_id=task_id)
        previous = mine.values("runs", "claimed_by").first()
        if previous and (redelivered or _claimant_is_gone(previous["claimed_by"])):
            same_run = mine.filter(runs=previous["runs"])  # nobody else took it meanwhile
            if previous["runs"] < MAX_RUNS:
                claimed = same_run.update(**start)
            elif same_run.update(
                status=Status.FAILED,
                failure=Failure.WORKER_LOST,
                error=f"The worker was lost {MAX_RUNS} times.",
                finished_at=now,
            ):
                log.error("Hint %s failed: its worker was lost %s times", hint_id, MAX_RUNS)
    if not claimed:
        return None
    return int(rows.values_list("runs", flat=True).get())


def run(hint_id: int, task_id: str, redelivered: bool = False) -> None:
    """The task body: claim, solve with the core (``recommend``), store the result.

    Progress goes to the row at most every PROGRESS_EVERY seconds. At the soft time limit
    the best plan so far is stored, marked partial; any other error fails the row with a
    reason. Every write is fenced by the run number, so a run that lost the row writes
    nothing.
    """
    number = _with_retries(
        lambda: claim(hint_id, task_id, redelivered, this_process()), f"hint {hint_id}: claim"
    )
    if number is None:
        log.info("Hint %s is not queued; message %s does nothing", hint_id, task_id)
        return
    hint = _with_retries(lambda: HintRequest.objects.get(pk=hint_id), f"hint {hint_id}: read")
    mine = HintRequest.objects.filter(pk=hint_id, status=Status.RUNNING, runs=number)
    best: list[HintResult | None] = [None]
    last_write = [time.monotonic()]

    def progress(percent: int, stage: str, so_far: HintResult | None) -> None:
        if so_far is not None:
            best[0] = so_far
        now = time.monotonic()
        if now - last_write[0] < PROGRESS_EVERY:
            return
        last_write[0] = now
        try:
            updated = mine.update(
                progress=max(0, min(int(percent), 99)), stage=stage[:100], beat_at=timezone.now()
            )
        except DatabaseOperationalError as error:
            # Progress is for the eyes: a busy database skips one write, not the job.
            log.info("Hint %s: progress not written (%s)", hint_id, error)
            return
        if not updated:
            raise _Abandoned

    try:
        clock, seats = hint.clock(), hint.seats()
        result = recommend(
            clock,
            seats,
            hint.face_up,
            seed=hint.seed,
            effort=hint.effort,
            progress=progress,
            base_rules=hint.base_rules,
            odds_samples=hint.odds_samples,
        )
    except SoftTimeLimitExceeded:
        # The signal may have interrupted a query: go on with a fresh connection (a worker
        # runs in autocommit; inside a transaction, closing is not ours to do).
        if not connection.in_atomic_block:
            connection.close()
        if best[0] is None:
            _fail(mine, Failure.TIME_LIMIT, "Soft time limit before any plan was found.")
            return
        result = replace(best[0], partial=True)
        log.warning("Hint %s hit the soft time limit; storing the best plan so far", hint_id)
    except _Abandoned:
        log.info("Hint %s was cancelled or taken over; run %s stops", hint_id, number)
        return
    except (RulesError, ValueError) as error:
        _fail(mine, Failure.BAD_INPUT, str(error))
        return
    except Exception as error:  # a solver bug must not leave the row running
        log.exception("Hint %s crashed", hint_id)
        _fail(mine, Failure.CRASHED, f"{type(error).__name__}: {error}")
        return
    data = result_json(result, hint.lang)

    def store() -> int:
        now = timezone.now()
        return mine.update(
            status=Status.DONE,
            progress=100,
            stage="done",
            result=data,
            partial=result.partial,
            finished_at=now,
            beat_at=now,
        )

    _with_retries(store, f"hint {hint_id}: result")


def _with_retries[T](func: Callable[[], T], what: str) -> T:
    """Run one statement, retrying a transient database error (a locked SQLite table, a
    dropped connection) a few times: a failed statement changed nothing, so it is safe."""
    for attempt in range(DB_ATTEMPTS):
        try:
            return func()
        except DatabaseOperationalError as error:
            if attempt == DB_ATTEMPTS - 1:
                raise
            log.warning("%s: database busy (%s); retrying", what, error)
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def _fail(rows: Any, failure: str, error: str) -> int:
    return int(
        rows.update(
            status=Status.FAILED, failure=failure, error=error[:2000], finished_at=timezone.now()
        )
    )


def fail(hint_id: int, failure: str, error: str) -> bool:
    """Fail a hint that is still queued or running (hard time limit, lost worker)."""
    rows = HintRequest.objects.filter(pk=hint_id, status__in=ACTIVE_STATUSES)
    return bool(_fail(rows, failure, error))


def result_json(result: HintResult, lang: str) -> dict[str, Any]:
    """What the row keeps: the ``hint --json`` object in the asker's language, the words in
    every language, the partial flag, and alternatives when the core offers them."""
    data = result.to_json(lang)
    data["words_all"] = dict(result.words)
    data["partial"] = result.partial
    alternatives = getattr(result, "alternatives", None)
    if alternatives:
        data["alternatives"] = [
            a.to_json(lang) if hasattr(a, "to_json") else a for a in alternatives
        ]
    return data


def _in_language(result: dict[str, Any], lang: str) -> dict[str, Any]:
    words = result.get("words_all", {})
    return {**result, "words": words.get(lang, result.get("words", ""))}


# --- Keeping the queue honest (periodic tasks) ------------------------------------------------


def stale_after() -> timedelta:
    """A running row silent for longer than the hard time limit has no live run: the
    limit would have killed it (a live run writes progress every second)."""
    return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 30)


def reap_stale() -> tuple[int, int]:
    """Requeue (or, after MAX_RUNS runs, fail) running rows whose worker is gone.

    Returns (requeued, failed)."""
    cutoff = timezone.now() - stale_after()
    stale = HintRequest.objects.filter(status=Status.RUNNING, beat_at__lt=cutoff)
    failed = stale.filter(runs__gte=MAX_RUNS).update(
        status=Status.FAILED,
        failure=Failure.WORKER_LOST,
        error="No progress since the hard time limit; the worker was lost.",
        finished_at=timezone.now(),
    )
    ids = list(stale.filter(runs__lt=MAX_RUNS).values_list("pk", flat=True))
    requeued = 0
    for hint_id in ids:
        with transaction.atomic():
            if HintRequest.objects.filter(
                pk=hint_id, status=Status.RUNNING, beat_at__lt=cutoff
            ).update(status=Status.QUEUED, sent_at=None, progress=0, stage=""):
                requeued += 1
                transaction.on_commit(partial(send, hint_id))
    if requeued or failed:
        log.warning("Reaper: %s stale hints requeued, %s failed", requeued, failed)
    return requeued, failed


def resend_queued() -> int:
    """Send queued rows the broker never got (it was down), and rows queued so long that
    their message must be lost. A duplicate message finds the row claimed and does nothing."""
    now = timezone.now()
    rows = HintRequest.objects.filter(status=Status.QUEUED).filter(
        Q(sent_at__isnull=True, queued_at__lt=now - RESEND_AFTER)
        | Q(sent_at__lt=now - RESEND_LOST_AFTER)
    )
    sent = sum(send(hint_id) for hint_id in rows.values_list("pk", flat=True)[:100])
    if sent:
        log.info("Resent %s queued hints", sent)
    return sent


def clean_old() -> int:
    """Delete finished hints older than KEEP_FOR (30 days)."""
    cutoff = timezone.now() - KEEP_FOR
    deleted, _ = (
        HintRequest.objects.filter(queued_at__lt=cutoff)
        .exclude(status__in=ACTIVE_STATUSES)
        .delete()
    )
    return deleted


# --- What if --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WhatIf:
    mine: SimResult  # the group's version
    suggested: SimResult  # the hint's plan, on the very same deals


def what_if(hint: HintRequest, targets: list[float], opener: int | None = None) -> WhatIf:
    """Simulate the hint's plan with the group's own targets (and opener), inline, next to
    the suggested plan on the same deals — so the difference is the plans', not the luck.

    Inline because it is small: 2 × WHAT_IF_GAMES on the compiled engine take well under
    a second, less than a queue round trip; the reference engine (clocks with rule kinds
    the compiled engine does not model) gets a tenth of the games.
    """
    if not hint.result:
        raise HintError(_("This hint has no plan yet."), "targets")
    seats = hint.seats()
    data = dict(hint.result["plan"])
    data["targets"] = targets
    if opener is not None:
        data["opener"] = opener
    try:
        plan = Plan.from_json(data, players=seats.players)
    except ValueError as error:
        raise HintError(str(error), "targets") from None
    suggested = Plan.from_json(hint.result["plan"], players=seats.players)
    clock = hint.clock()
    games = WHAT_IF_GAMES if _compiled(clock, seats, plan) else WHAT_IF_GAMES // 10
    return WhatIf(
        mine=simulate(clock, seats, plan, hint.face_up, games, seed=1),
        suggested=simulate(clock, seats, suggested, hint.face_up, games, seed=1),
    )


def _compiled(clock: Clock, seats: Seats, plan: Plan) -> bool:
    try:
        from solver.core.agents import rules_for

        return bool(rules_for(clock, seats, plan).compiled_ok)
    except Exception:  # an internal of the core; if it moves, play safe
        return False


# --- Who may see what -----------------------------------------------------------------------


def visible_hints(user: Any) -> Any:
    """Hints the user may see: their own, and those of groups they belong to."""
    if not getattr(user, "is_authenticated", False):
        return HintRequest.objects.none()
    return HintRequest.objects.filter(Q(user=user) | Q(group__memberships__user=user)).distinct()


def get_hint_for_user(user: Any, hint_id: int) -> HintRequest:
    """The hint if the user may see it, else Http404 (outsiders learn nothing)."""
    from django.http import Http404

    hint = visible_hints(user).filter(pk=hint_id).first()
    if hint is None:
        raise Http404
    return hint


def group_defaults(group: Group, players: int) -> tuple[str | None, int]:
    """The group's next clock and its face-up budget (players + flipped Bonus tokens)."""
    from campaigns.services import campaign_state

    state = campaign_state(group.current_campaign())
    return state.next_clock, min(state.face_up(players), players + 3)


__all__ = [
    "HintError",
    "HintInput",
    "HintLimitReached",
    "cancel",
    "claim",
    "clean_old",
    "get_hint_for_user",
    "parse_input",
    "reap_stale",
    "request_hint",
    "resend_queued",
    "retry",
    "run",
    "send",
    "what_if",
]
