"""Importing a long history without holding a web request: checked at once, replayed by the
worker.

A history is checked in the request (its shape and limits: ``imports.check_history``). A
short one (at most ``IMPORT_INLINE_EVENTS`` events) is replayed there and then, and the
caller gets the group. A longer one is stored as a ``HistoryImport`` and replayed by the
Celery task ``campaigns.import_history``, which reports after each batch how many events are
in; the page and ``GET /api/imports/{id}/`` show that, and the group once it is there.

The task claims its row before it starts (``claim``): a second delivery of the same message
finds it taken and does nothing. A worker that dies mid-import leaves the row ``running``
with an ``updated`` time that stops moving (every batch touches it); ``resume_stalled``,
run by beat, sends such rows, and queued rows whose message never left, again. The rerun
deletes the hidden, half-filled group of the run before it and starts over, so an import
ends with exactly one group or none. The row is marked done in the transaction that shows
the group to its owner, so no crash leaves a finished group under a running import; a rerun
that still finds its group shown (a row from before) only marks the row done.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from campaigns.errors import CampaignError
from campaigns.history import imports
from campaigns.models import Group, HistoryImport
from config.celery import app
from config.errors import LimitReached

log = logging.getLogger(__name__)

RUN_IMPORT = "campaigns.import_history"
# An import that is queued or running and has not moved for this long has lost its worker
# (a batch touches the row at least every second) or its message: send it again.
STALLED_AFTER = timedelta(seconds=60)
# Imports a person may have waiting or running at once.
MAX_OPEN_IMPORTS = 2

Status = HistoryImport.Status


class ImportLimitReached(CampaignError, LimitReached):
    """Too many imports of one person waiting at once (429)."""


def start_import(user: User, data: Any) -> Group | HistoryImport:
    """Check ``data`` and import it: a short history at once (the new group), a long one by
    the worker (its ``HistoryImport``). CampaignError for a history that is not valid."""
    history = imports.check_history(data)
    events = imports.count_events(history)
    if events <= settings.IMPORT_INLINE_EVENTS:
        # In the request, all in one transaction: a process killed part-way leaves nothing,
        # where its batches would leave a hidden group no job cleans up (the worker's import
        # keeps its batches, and its job deletes what a killed run left).
        with transaction.atomic():
            return imports.write_history(user, history)
    with transaction.atomic():
        # One person's imports are counted under a lock on their own row, so two uploads at
        # once cannot both slip under the limit.
        User.objects.select_for_update().filter(pk=user.pk).first()
        open_imports = HistoryImport.objects.filter(
            owner=user, status__in=(Status.QUEUED, Status.RUNNING)
        ).count()
        if open_imports >= MAX_OPEN_IMPORTS:
            raise ImportLimitReached(
                _("You already have %(n)d imports under way. Wait for one to end.")
                % {"n": open_imports},
                "history",
            )
        job = HistoryImport.objects.create(
            owner=user,
            history=data,
            events_total=events,
            language=translation.get_language() or settings.LANGUAGE_CODE,
        )
        transaction.on_commit(partial(send, job.pk))
    return job


def send(job_id: int) -> bool:
    """Hand the import to the broker; if it is down, ``resume_stalled`` sends it later."""
    try:
        app.send_task(
            RUN_IMPORT, (job_id,), task_id=str(uuid.uuid4()), retry_policy={"max_retries": 1}
        )
    except (OperationalError, OSError) as error:
        log.warning("Broker unavailable; import %s waits until it is back: %s", job_id, error)
        return False
    return True


def claim(job_id: int) -> bool:
    """Take the row for this run: a queued one, or a running one whose worker stalled."""
    stalled = timezone.now() - STALLED_AFTER
    return bool(
        HistoryImport.objects.filter(pk=job_id)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RUNNING, updated__lt=stalled))
        .update(status=Status.RUNNING, events_done=0, updated=timezone.now())
    )


def run(job_id: int) -> str:
    """Replay the stored history (the Celery task's body); returns the status it ended in."""
    if not claim(job_id):
        return "skipped"
    job = HistoryImport.objects.select_related("owner").get(pk=job_id)
    rows = HistoryImport.objects.filter(pk=job_id)
    if job.group_id is not None:
        if Group.objects.filter(pk=job.group_id, memberships__isnull=False).exists():
            # Its group was finished (shown to its owner): the run only missed saying so.
            rows.update(status=Status.DONE, history=None, events_done=job.events_total)
            return Status.DONE
        # A run before this one died half way: start again.
        Group.objects.filter(pk=job.group_id, memberships__isnull=True).delete()
    with translation.override(job.language):  # refusals in the language of the upload
        return _replay(job, rows)


def _replay(job: HistoryImport, rows: Any) -> str:

    def on_group(group: Group) -> None:
        rows.update(group=group, updated=timezone.now())

    def on_progress(done: int) -> None:
        rows.update(events_done=done, updated=timezone.now())

    def on_done(group: Group) -> None:  # in the transaction that shows the group
        rows.update(status=Status.DONE, group=group, history=None, events_done=job.events_total)

    try:
        imports.import_history(
            job.owner, job.history, on_group=on_group, on_progress=on_progress, on_done=on_done
        )
    except CampaignError as error:
        rows.update(status=Status.FAILED, error=error.message, history=None, group=None)
        return Status.FAILED
    except Exception:
        log.exception("Import %s failed", job.pk)
        rows.update(
            status=Status.FAILED,
            error=_("The import stopped on an error of ours. Try again later."),
            history=None,
            group=None,
        )
        return Status.FAILED
    return Status.DONE


def resume_stalled() -> int:
    """Send again every import that stopped moving (run by beat); returns how many."""
    stalled = timezone.now() - STALLED_AFTER
    ids = list(
        HistoryImport.objects.filter(
            status__in=(Status.QUEUED, Status.RUNNING), updated__lt=stalled
        ).values_list("pk", flat=True)
    )
    return sum(send(job_id) for job_id in ids)
