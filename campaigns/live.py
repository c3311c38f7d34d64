"""The live board's version: what the phones at a table poll every few seconds
(``play.views.live``) to learn whether the board changed since they drew it.

It is a token kept in the cache (Redis, or whatever ``CACHES`` shares between the web
processes), so a poll while nothing changed reads the cache, not the database. Every change
of what the board shows calls ``changed()``: the state machine's one place that records an
event (``play.services``, so an attempt, a skip, a retrieval from the Sleeve and an undo),
a session started or corrected, and a new campaign. A change no phone was told about would
leave the other phones' boards stale until the next one, so a new way of changing the board
calls it too.

The token says nothing about the board; it only differs from the last one. Lost (a cache
restarted, a key evicted), a new one is drawn, and each phone fetches its board once more.
While the cache cannot keep one at all (Redis away), the version comes from the database.
The version the forms carry against stale writes is another thing: the campaign's last
event id (``play.state.campaign_version``).
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models import OuterRef, Subquery

from campaigns.models import Campaign, Event

# A day: a key outlives any evening, and the keys of groups no longer played expire.
TIMEOUT = 24 * 60 * 60


def _key(group_id: int) -> str:
    return f"live:board:{group_id}"


def board_version(group_id: int) -> str:
    """The group's live version, drawing one if the cache holds none.

    A page that shows the board reads this before it reads the board's rows: a change
    committed in between then shows as a newer version at the next poll, never as a
    board older than its version."""
    version = cache.get(_key(group_id))
    if version is None:
        cache.add(_key(group_id), secrets.token_hex(8), TIMEOUT)
        # Two processes drawing at once: ``add`` keeps the first, which both answer.
        version = cache.get(_key(group_id))
    if version is None:  # the cache is away (config.cache): a version the database gives
        version = _from_the_database(group_id)
    return str(version)


def _from_the_database(group_id: int) -> str:
    """``"db-<campaign id>-<its last event id>"``: while the cache cannot keep a version,
    the phones still see attempts, skips, retrievals, undos and new campaigns (not a
    session's players), and do not fetch their board at every poll. One query."""
    last_event = Event.objects.filter(campaign=OuterRef("pk")).order_by("-id").values("id")[:1]
    row = (
        Campaign.objects.filter(group_id=group_id)
        .order_by("-id")
        .values_list("id", Subquery(last_event))
        .first()
    )
    campaign, event = row if row is not None else (0, None)
    return f"db-{campaign}-{event or 0}"


def changed(group_id: int) -> None:
    """Give the group's board a new version once the current transaction commits (at once
    outside one): a phone that polls before the commit must not learn a version whose
    board it cannot read yet, and a rolled-back change changes nothing."""
    transaction.on_commit(lambda: cache.set(_key(group_id), secrets.token_hex(8), TIMEOUT))
