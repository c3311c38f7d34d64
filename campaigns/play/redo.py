"""Redo: put back the change the last undo reverted, as long as nothing was recorded since.

An undo keeps what it overwrote in its own ``before`` (the state right after the change, and
the attempt it deleted, see ``services.undo``), so a redo is that undo reverted: the same
restore, under the same campaign lock, recorded as an event of its own (``redone``) that
gives the campaign a new version. Undos stack: after undoing three changes, Redo puts back
the last one undone first, then the one before it. A new change (an attempt, a skip, a
retrieval) forgets them all, as in any editor.

Stale writes follow undo's rules: ``event`` names the undo being redone (what the Redo
button shows); when it is no longer the redoable one, nothing is redone and the refusal is
a ``StaleWrite`` (409 with the fresh progress). Two phones tapping Redo at once redo once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.errors import CampaignError
from campaigns.groups.services import current_session
from campaigns.models import Attempt, Campaign, Event, Player, Session
from campaigns.play.services import StaleWrite, _event, _restore, _stale_message
from campaigns.play.state import lock_campaign

# A recorded change: after one of these, nothing undone before it can be redone.
CHANGES = (Event.Kind.PASSED, Event.Kind.FAILED, Event.Kind.SKIPPED, Event.Kind.RETRIEVED)


class Redoable(NamedTuple):
    """What a Redo would do: ``undo`` is the undo it reverts, ``change`` the change it puts
    back (its ``kind`` and ``clock_id`` label the button)."""

    undo: Event
    change: Event


def last_redoable(campaign: Campaign) -> Redoable | None:
    """The undo a Redo would revert: the newest undo whose change is still undone, when no
    change was recorded after it. None when there is nothing to redo."""
    for event in campaign.events.order_by("-id").iterator():
        if event.kind in CHANGES:
            return None
        if event.kind != Event.Kind.UNDONE:
            continue  # a redo: the undo it reverted is behind it, redone
        change = campaign.events.get(pk=event.before["event"])
        if change.undone is None:
            continue  # redone already: look further back
        # An undo from before Redo existed kept no "after": it cannot be redone, nor can
        # any undo behind it (they would come back in the wrong order).
        return Redoable(event, change) if "after" in event.before else None
    return None


def _stale_redo(campaign: Campaign, redoable: Redoable | None) -> StaleWrite:
    newest = campaign.events.order_by("-id")[0]
    if redoable is None:
        message = _("Another phone changed the board meanwhile: there is nothing left to redo.")
    else:
        message = _(
            "Another phone changed the board meanwhile: Redo would now put back “%(what)s” at "
            "%(clock)s. Nothing was redone; check the board."
        ) % {"what": redoable.change.get_kind_display(), "clock": redoable.change.clock_id}
    return StaleWrite(message, newest)


def unnamed_redo(campaign: Campaign) -> CampaignError:
    """The refusal of a Redo that does not name its undo (a hand-made POST), like an Undo's."""
    newest = campaign.events.order_by("-id").first()
    if newest is None:
        return CampaignError(_("There is nothing to redo."))
    return StaleWrite(
        _(
            "This Redo did not say which undo it reverts, so nothing was redone. Check the "
            "board and tap Redo again."
        ),
        newest,
    )


def redo(
    campaign: Campaign,
    user: Any,
    event_id: int,
    expected_event: int | None = None,
    *,
    again_is_stale: bool = False,
) -> Event:
    """Put back the change that the undo ``event_id`` reverted, when that undo is the one a
    Redo would revert now; return the change, no longer undone.

    Redoing the same undo again is harmless on the pages (a double tap returns the change)
    and a ``StaleWrite`` for the API (``again_is_stale``), as for undo. ``expected_event``
    (the version the phone's board showed): a newer event refuses the redo the same way.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        redoable = last_redoable(campaign)
        if redoable is None or redoable.undo.pk != event_id:
            undone = campaign.events.filter(pk=event_id, kind=Event.Kind.UNDONE).first()
            if undone is None:
                raise CampaignError(_("There is no such undo to redo."), "event")
            again = campaign.events.filter(kind=Event.Kind.REDONE, before__undo=event_id)
            if again.exists() and not again_is_stale:
                return campaign.events.get(pk=undone.before["event"])
            raise _stale_redo(campaign, redoable)
        if expected_event is not None:
            newer = campaign.events.filter(pk__gt=expected_event).order_by("-id").first()
            if newer is not None:
                raise StaleWrite(_stale_message(newer), newer)
        undo, change = redoable
        _restore(campaign, undo.before["after"])
        if "attempt" in undo.before:
            _restore_attempt(campaign, change, undo.before["attempt"])
        change.undone = None
        change.save(update_fields=["undone"])
        _event(campaign, Event.Kind.REDONE, change.clock_id, {"undo": undo.pk}, user, "")
        return change


def _restore_attempt(campaign: Campaign, change: Event, record: dict[str, Any]) -> None:
    """Bring back the attempt the undo deleted, with its id and its hints. Its session or
    opener may have been deleted meanwhile: then tonight's session, and no opener."""
    session = Session.objects.filter(pk=record["session"], campaign=campaign).first()
    opener = Player.objects.filter(pk=record["opener"], group_id=campaign.group_id).first()
    taken = Attempt.objects.filter(pk=record["id"]).exists()
    duration = record["duration"]
    attempt = Attempt.objects.create(
        pk=None if taken else record["id"],
        campaign=campaign,
        session=session or current_session(campaign),
        event=change,
        clock_id=change.clock_id,
        players=record["players"],
        bonus_tokens=record["bonus_tokens"],
        face_up=record["players"] + record["bonus_tokens"],
        outcome=record["outcome"],
        layout=record["layout"],
        verdict=record["verdict"],
        postmortem=record["postmortem"],
        opener=opener,
        duration=None if duration is None else timedelta(seconds=duration),
        notes=record["notes"],
        clock_version=record["clock_version"],
        created=datetime.fromisoformat(record["created"]),
    )
    # The solver's hint rows, through the reverse relation (campaigns imports no solver).
    hints = attempt.hint_requests.model.objects.filter(pk__in=record["hints"], attempt=None)
    hints.update(attempt=attempt)
