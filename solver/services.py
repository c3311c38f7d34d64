"""Asking for a hint: dedupe a double tap, reuse a fresh result, enforce the per-user limits,
and queue a job that is sent to the workers once the transaction commits. Also the asker's
own actions on a hint: retry it, cancel it. The pages and the API both call these.

The input itself is checked by ``solver.hint_inputs``; the job's run is ``solver.jobs``.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Attempt, Campaign, Group, Membership
from rules.canonical import fingerprint
from rules.clock import Clock
from rules.hint_result import HintResultJson
from solver import clock_priors, plan_book
from solver.errors import HintLimitReached
from solver.hint_inputs import HintInput
from solver.jobs import send
from solver.models import ACTIVE_STATUSES, HintRequest, PlanBookEntry
from solver.results import in_language
from solver.seating import remember

MAX_ACTIVE = 3  # queued or running hints per user
MAX_PER_HOUR = 30  # hints asked per user per hour (reused results count too)
REUSE_WITHIN = timedelta(days=1)

Status = HintRequest.Status


def effort() -> float:
    """Solver effort for new jobs; tests turn it down so a job takes a second."""
    return float(settings.HINT_EFFORT)


def odds_samples() -> int | None:
    """Sampled odds for new jobs (None: exact); tests sample a few hundred value sets."""
    samples = getattr(settings, "HINT_ODDS_SAMPLES", None)
    return None if samples is None else int(samples)


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

    - the same user's queued or running job for the same input (a double tap): that row,
      sent to the workers again if the broker was down when it was asked (its ``sent_at``
      is set after the commit: refresh the row to see it);
    - the plan book's entry for this input's class of patterns (``solver.plan_book``), or a
      complete result for the same input finished within a day: a new row, done at once,
      with that result worded for this table (no job);
    - otherwise a new queued row, sent to the workers once the transaction commits.

    HintLimitReached when the user has MAX_ACTIVE jobs in progress or asked MAX_PER_HOUR
    times in the last hour. PermissionDenied (403) for a ``group`` the user may not write to:
    viewers look at a group's hints but attach none to it (nor does a retry).
    """
    if group is not None:
        membership = Membership.objects.filter(group=group, user=user).first()
        if membership is None or not membership.can_write:
            raise PermissionDenied
    job_effort, seed, samples = effort(), 0, odds_samples()
    prior = clock_priors.for_hint(hint_input.clock, hint_input.base_rules, hint_input.seats.players)
    input_hash = hint_input.input_hash(job_effort, seed, samples, prior)
    now = timezone.now()
    fields: dict[str, Any] = {
        "user": user,
        "group": group,
        "campaign": campaign,
        "attempt": attempt,
        "clock_id": hint_input.clock.id,
        "clock_definition": hint_input.clock.to_json(),
        "base_rules": hint_input.base_rules,
        "definition_source": hint_input.source,
        "definition_fingerprint": fingerprint(hint_input.clock),
        "colours": hint_input.seats.format(),
        "players": hint_input.seats.players,
        "names": list(hint_input.names),
        "face_up": hint_input.face_up,
        "effort": job_effort,
        "odds_samples": samples,
        "seed": seed,
        "slip_rate": hint_input.slip_rate,
        "slip_rate_source": hint_input.slip_rate_source,
        "prior": prior,
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
            if same.names != fields["names"]:  # the same table, re-seated: the latest names
                same.names = fields["names"]
                same.save(update_fields=["names"])
            _remember(group, hint_input)
            if same.waiting_for_broker:  # the broker was down when it was asked: send again
                transaction.on_commit(partial(send, same.pk))
            return same, False
        last_hour = HintRequest.objects.filter(user=user, queued_at__gte=now - timedelta(hours=1))
        if last_hour.count() >= MAX_PER_HOUR:
            raise HintLimitReached(
                _("You asked for %(n)s hints in the last hour; please wait a few minutes.")
                % {"n": MAX_PER_HOUR}
            )
        known = _known_result(hint_input, input_hash, job_effort, seed, samples, lang, prior)
        if known is not None:
            result, reused_from = known
            _remember(group, hint_input)
            hint = HintRequest.objects.create(
                **fields,
                status=Status.DONE,
                progress=100,
                stage="reused",
                result=result,
                reused_from=reused_from,
                from_plan_book=True,
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
        _remember(group, hint_input)
        transaction.on_commit(partial(send, hint.pk))
    hint.refresh_from_db()  # sent_at, as the send after commit left it
    return hint, True


def _known_result(
    hint_input: HintInput,
    input_hash: str,
    job_effort: float,
    seed: int,
    samples: int | None,
    lang: str,
    prior: dict[str, Any] | None = None,
) -> tuple[HintResultJson, HintRequest | None] | None:
    """A result this input needs not wait for, worded for this table, and the hint it came
    from: the plan book's entry for the input's class of patterns, else a complete result
    for the same input finished within REUSE_WITHIN. None when there is none."""
    found = _from_plan_book(hint_input, job_effort, seed, samples, lang, prior)
    if found is not None:
        entry, result = found
        return result, entry.hint
    done = (
        HintRequest.objects.filter(
            input_hash=input_hash,
            status=Status.DONE,
            partial=False,
            finished_at__gte=timezone.now() - REUSE_WITHIN,
        )
        .order_by("-finished_at")
        .first()
    )
    if done is None:
        return None
    return in_language(done.result or {}, lang), done


def _from_plan_book(
    hint_input: HintInput,
    job_effort: float,
    seed: int,
    samples: int | None,
    lang: str,
    prior: dict[str, Any] | None = None,
) -> tuple[PlanBookEntry, HintResultJson] | None:
    """The plan book's entry for this input's class of patterns, and its result for this
    table; None when the book has none."""
    key = plan_book.book_key(
        hint_input.clock,
        hint_input.base_rules,
        hint_input.seats,
        hint_input.face_up,
        effort=job_effort,
        seed=seed,
        odds_samples=samples,
        slip_rate=hint_input.slip_rate,
        prior=prior,
    )
    # Found by any search of today's engine: an older search's plan answers too (and the
    # prefill searches it again, the most asked first: plan_book.stale).
    entry = PlanBookEntry.objects.filter(key=key.key).first()
    if entry is None:
        return None
    plan_book.asked(entry)
    result = plan_book.answer(
        entry,
        key,
        hint_input.clock,
        hint_input.base_rules,
        hint_input.seats,
        hint_input.face_up,
        hint_input.names,
        lang,
    )
    return None if result is None else (entry, result)


def _remember(group: Group | None, hint_input: HintInput) -> None:
    """A group's hint with names: that is now the group's seating (``solver.seating``)."""
    if group is not None and hint_input.names:
        remember(group, hint_input.names)


def retry(hint: HintRequest, user: User) -> tuple[HintRequest, bool]:
    """Ask again with the inputs of a failed or cancelled hint (a new row, same rules)."""
    clock = Clock.from_json(hint.clock_definition)
    hint_input = HintInput(
        clock,
        hint.seats(),
        hint.face_up,
        hint.base_rules,
        hint.definition_source or "given",
        names=tuple(hint.names or ()),
        slip_rate=hint.slip_rate,
        slip_rate_source=hint.slip_rate_source,
    )
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
