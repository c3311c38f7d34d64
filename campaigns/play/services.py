"""The campaign state machine: every change of a campaign goes through here.

HTML views and the API call the same functions. Each change runs in one transaction that
first locks the campaign row (``select_for_update``), so two phones recording at the same
table cannot interleave; each writes an ``Event`` holding what it overwrote, which is what
``undo`` puts back. A ``request_key`` (one per rendered form, or an API client's
``Idempotency-Key``) makes a double submit return the first result instead of recording twice.

Rules (docs/game.md, "After an attempt", "End of the game"):
- a failure flips one Bonus token (never more than 3); a pass or a skip turns them face down;
- the next clock is the first of the stack not passed nor in the Sleeve; clocks put back from
  the Sleeve go on top of the stack (only between clocks: with no Bonus token flipped);
- a clock is skipped into the Sleeve after it was attempted; passing it takes it out;
- a chapter opens once every clock of the chapters before is passed or in the Sleeve;
- complete when every clock is passed; Rebirth unlocks once all 40 have been attempted."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from campaigns import live, winnable
from campaigns.definitions.played import played_definition
from campaigns.definitions.services import known_clock
from campaigns.errors import CampaignError, signed_in
from campaigns.groups.services import check_notes, current_session
from campaigns.models import Attempt, Campaign, ClockProgress, Event, Player, Session
from campaigns.play import moves
from campaigns.play.state import CampaignState, Status, campaign_state, lock_campaign
from config.errors import refusal_text
from config.i18n import current_lang
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import PLAYER_COUNTS
from rules.inputs import check_layout
from rules.validate import Verdict


class StaleWrite(CampaignError):
    """A change made from a board older than a change to the same clock (another phone got
    there first). The API answers 409 with the current progress; pages show the fresh board
    with ``message``."""

    status = 409

    def __init__(self, message: str, event: Event) -> None:
        super().__init__(message, "expected_event")
        self.event = event

    def body(self) -> dict[str, object]:
        """The campaign's progress as it is now (read after the refused change rolled
        back), with ``detail`` saying what happened."""
        campaign = Campaign.objects.get(pk=self.event.campaign_id)
        return {**campaign_state(campaign).to_json(), "detail": self.message}


def _check_fresh(campaign: Campaign, expected_event: int | None, clocks: Iterable[str]) -> None:
    """Refuse a change made against ``expected_event`` (the version the phone's board was
    drawn from) when a newer event touched one of ``clocks``: two phones tapping for one real
    attempt must record it once. Newer events at other clocks are no reason to refuse.
    Called inside the campaign lock, so of two racing phones exactly one gets through."""
    if expected_event is None:
        return
    touched = set(clocks)
    newer = campaign.events.filter(pk__gt=expected_event).order_by("id")
    for event in newer:
        if touched & set(event.clock_id.split(",")):
            raise StaleWrite(_stale_message(event), event)


def _stale_message(event: Event) -> str:
    when = date_format(timezone.localtime(event.created), "TIME_FORMAT")
    if event.kind == Event.Kind.UNDONE:
        return _(
            "Another phone undid the last change at %(clock)s at %(time)s. Check the board and "
            "tap again if this is still right."
        ) % {"clock": event.clock_id, "time": when}
    if event.kind == Event.Kind.REDONE:
        return _(
            "Another phone redid the last change at %(clock)s at %(time)s. Check the board and "
            "tap again if this is still right."
        ) % {"clock": event.clock_id, "time": when}
    return _(
        "Another phone already recorded “%(what)s” at %(clock)s at %(time)s. Check the board "
        "and tap again if this was another attempt."
    ) % {"what": event.get_kind_display(), "clock": event.clock_id, "time": when}


def _stale_undo(campaign: Campaign, last: Event | None) -> StaleWrite:
    """An undo from a board that no longer shows the last change (``last``, or None)."""
    newest = campaign.events.order_by("-id")[0]
    if last is None:
        message = _("Another phone changed the board meanwhile: there is nothing left to undo.")
    else:
        message = _(
            "Another phone changed the board meanwhile: the last change is now “%(what)s” at "
            "%(clock)s. Nothing was undone; check the board."
        ) % {"what": last.get_kind_display(), "clock": last.clock_id}
    return StaleWrite(message, newest)


def _replayed(campaign: Campaign, request_key: str) -> Event | None:
    """The event already recorded under this key (a double submit), if any."""
    if not request_key:
        return None
    if len(request_key) > 64:
        raise CampaignError(_("The request key is too long."), "request_key")
    event = campaign.events.filter(request_key=request_key).first()
    if event is not None and event.undone is not None:
        raise CampaignError(
            _("This was already recorded, then undone; reload the page."), "request_key"
        )
    return event


_snapshot = moves.snapshot


def _restore(campaign: Campaign, snapshot: dict[str, Any]) -> None:
    """Put back what ``_snapshot`` took: the campaign's tokens, stack and completion, and the
    progress of the clocks it names. Undo restores a change's ``before``; redo, an undo's."""
    campaign.bonus_tokens = snapshot["bonus_tokens"]
    campaign.stack_top = snapshot["stack_top"]
    campaign.completed = snapshot["completed"]
    campaign.save(update_fields=["bonus_tokens", "stack_top", "completed"])
    for clock_id, values in snapshot["progress"].items():
        ClockProgress.objects.filter(campaign=campaign, clock_id=clock_id).update(**values)


def _attempt_record(attempt: Attempt) -> dict[str, Any]:
    """An attempt as JSON, kept in the undo that deletes it so that a redo can bring it back
    whole (its id too, and the hints that were linked to it)."""
    return {
        "id": attempt.pk,
        "session": attempt.session_id,
        "players": attempt.players,
        "bonus_tokens": attempt.bonus_tokens,
        "outcome": attempt.outcome,
        "layout": attempt.layout,
        "verdict": attempt.verdict,
        "postmortem": attempt.postmortem,
        "opener": attempt.opener_id,
        "duration": attempt.duration.total_seconds() if attempt.duration is not None else None,
        "notes": attempt.notes,
        "clock_version": attempt.clock_version,
        "created": attempt.created.isoformat(),
        "hints": list(attempt.hint_requests.values_list("pk", flat=True)),
    }


def _event(
    campaign: Campaign, kind: str, clock_id: str, before: dict[str, Any], user: Any, key: str
) -> Event:
    """Record one change of the campaign: the only place the state machine writes an event,
    so the only place it tells the other phones at the table (``live.changed``)."""
    live.changed(campaign.group_id)
    return Event.objects.create(
        campaign=campaign,
        kind=kind,
        clock_id=clock_id,
        before=before,
        request_key=key,
        user=signed_in(user),
    )


def judge_layout(clock: Clock, layout: str, outcome: str) -> Verdict:
    """The verdict on ``layout``; CampaignError (field ``layout``) when the text is bad or
    the verdict contradicts ``outcome``. A failure the engine cannot confirm (rules not
    transcribed or not checkable) is accepted: the table knows better."""
    try:
        verdict = check_layout(clock, layout)  # stored with the attempt: in English
    except RulesError as error:
        raise CampaignError(refusal_text(error), "layout") from None
    if outcome == Attempt.Outcome.PASSED and not verdict.passed:
        shown = check_layout(clock, layout, current_lang())  # the reasons in the reader's words
        reasons = " ".join(v.message for v in shown.violations)
        raise CampaignError(
            _("This layout fails the clock, so it cannot be recorded as passed: %(reasons)s")
            % {"reasons": reasons},
            "layout",
        )
    if outcome == Attempt.Outcome.FAILED and verdict.passed and verdict.conclusive:
        raise CampaignError(
            _("This layout passes the clock, so it cannot be recorded as failed."), "layout"
        )
    return verdict


def record_attempt(
    campaign: Campaign,
    user: Any,
    clock_id: object,
    outcome: object,
    players: object,
    layout: str = "",
    opener: Player | None = None,
    duration: timedelta | None = None,
    notes: str = "",
    session: Session | None = None,
    request_key: str = "",
    expected_event: int | None = None,
) -> Attempt:
    """Record one attempt at the next clock and move the campaign on: ``passed`` turns the
    Bonus tokens face down and takes the clock out of the game (and out of the Sleeve),
    ``failed`` flips one more token (at most 3). The attempt's ``face_up`` is the players
    plus the tokens flipped before it. ``expected_event``: see ``_check_fresh``."""
    clock = known_clock(clock_id)
    if outcome not in Attempt.Outcome.values:
        raise CampaignError(_("The outcome is passed or failed."), "outcome")
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        raise CampaignError(_("Take Time is played by 2 to 4 players."), "players")
    layout = (layout or "").strip()
    check_notes(notes)
    if duration is not None and duration < timedelta(0):
        raise CampaignError(_("A duration cannot be negative."), "duration")
    if opener is not None and opener.group_id != campaign.group_id:
        raise CampaignError(_("The opener is not a player of this group."), "opener")
    # Judged outside the lock: parsing and validating is the slow part.
    choice = played_definition(campaign.group, clock)
    definition, version = choice.clock, choice.version
    verdict = judge_layout(definition, layout, str(outcome)).to_json() if layout else None
    # Could its cards have passed? Asked of the solver (campaigns.winnable), also unlocked.
    postmortem = (
        winnable.judge_failure(definition, layout, players)
        if layout and outcome == Attempt.Outcome.FAILED
        else None
    )

    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return Attempt.objects.get(event=replay)
        _check_fresh(campaign, expected_event, [clock])
        state = campaign_state(campaign)
        _check_playable(state, clock)
        before = _snapshot(campaign, [state.by_id[clock]])
        tokens = campaign.bonus_tokens
        passed = outcome == Attempt.Outcome.PASSED
        row = moves.attempt(state, clock, passed, timezone.now())
        row.save(update_fields=["status", "attempts", "failures"])
        campaign.save(update_fields=["bonus_tokens", "stack_top", "completed"])
        event = _event(campaign, str(outcome), clock, before, user, request_key)
        if session is None:
            session = current_session(campaign)
        elif session.campaign_id != campaign.pk:
            raise CampaignError(_("That session belongs to another campaign."), "session")
        return Attempt.objects.create(
            campaign=campaign,
            session=session,
            event=event,
            clock_id=clock,
            players=players,
            bonus_tokens=tokens,
            face_up=players + tokens,
            outcome=outcome,
            layout=layout,
            verdict=verdict,
            postmortem=postmortem,
            opener=opener,
            duration=duration,
            notes=notes,
            clock_version=version,
        )


def _check_playable(state: CampaignState, clock: str) -> None:
    row = state.by_id.get(clock)
    if row is None:
        raise CampaignError(_("The Rebirth clock is played in a Rebirth campaign."), "clock")
    if row.status == Status.PASSED:
        raise CampaignError(
            _("Clock %(clock)s is already passed in this campaign.") % {"clock": clock}, "clock"
        )
    if row.status == Status.SLEEVE:
        raise CampaignError(
            _("Clock %(clock)s is in the Sleeve of Regrets: put it back on top of the stack first.")
            % {"clock": clock},
            "clock",
        )
    if clock != state.next_clock:
        raise CampaignError(
            _("The next clock is %(next)s, not %(clock)s.")
            % {"next": state.next_clock, "clock": clock},
            "clock",
        )


def skip(
    campaign: Campaign,
    user: Any,
    clock_id: object,
    request_key: str = "",
    expected_event: int | None = None,
) -> Event:
    """Put the clock being played into the Sleeve of Regrets after a failure, turn the Bonus
    tokens face down and go on with the next clock."""
    clock = known_clock(clock_id)
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return replay
        _check_fresh(campaign, expected_event, [clock])
        state = campaign_state(campaign)
        _check_playable(state, clock)
        row = state.by_id[clock]
        if row.attempts == 0:
            raise CampaignError(
                _("A clock goes into the Sleeve after a failed attempt; play %(clock)s first.")
                % {"clock": clock},
                "clock",
            )
        before = _snapshot(campaign, [row])
        moves.skip(state, clock).save(update_fields=["status"])
        campaign.save(update_fields=["bonus_tokens", "stack_top"])
        return _event(campaign, Event.Kind.SKIPPED, clock, before, user, request_key)


def retrieve(
    campaign: Campaign,
    user: Any,
    clock_ids: Sequence[object],
    request_key: str = "",
    expected_event: int | None = None,
) -> Event:
    """Put clocks from the Sleeve on top of the stack, the first given played first. Only
    between clocks (no Bonus token flipped), as at the start of a session."""
    if not clock_ids:
        raise CampaignError(_("Choose at least one clock from the Sleeve."), "clocks")
    clocks = [known_clock(c, "clocks") for c in clock_ids]
    if len(set(clocks)) != len(clocks):
        raise CampaignError(_("A clock is listed twice."), "clocks")
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        replay = _replayed(campaign, request_key)
        if replay is not None:
            return replay
        _check_fresh(campaign, expected_event, clocks)
        state = campaign_state(campaign)
        for clock in clocks:
            if clock not in state.by_id or state.by_id[clock].status != Status.SLEEVE:
                raise CampaignError(
                    _("Clock %(clock)s is not in the Sleeve of Regrets.") % {"clock": clock},
                    "clocks",
                )
        if campaign.bonus_tokens:
            raise CampaignError(
                _("Finish or skip the clock being played before taking clocks from the Sleeve."),
                "clocks",
            )
        before = _snapshot(campaign, [state.by_id[c] for c in clocks])
        for row in moves.retrieve(state, clocks):
            row.save(update_fields=["status"])
        campaign.save(update_fields=["stack_top"])
        return _event(campaign, Event.Kind.RETRIEVED, ",".join(clocks), before, user, request_key)


def last_undoable(campaign: Campaign) -> Event | None:
    """The change an Undo would revert: the last one not undone (an undo or a redo is not
    undone itself: a redone change is undone again)."""
    return (
        campaign.events.filter(undone__isnull=True)
        .exclude(kind__in=[Event.Kind.UNDONE, Event.Kind.REDONE])
        .order_by("-id")
        .first()
    )


def unnamed_undo(campaign: Campaign) -> CampaignError:
    """The refusal of an Undo that does not name its change (a hand-made POST, a form from an
    old page): the pages require ``event`` as the API does, so an Undo never reverts a change
    the phone did not show. A ``StaleWrite`` (409, the fresh board) when there is a change."""
    newest = campaign.events.order_by("-id").first()
    if newest is None:
        return CampaignError(_("There is nothing to undo."))
    return StaleWrite(
        _(
            "This Undo did not say which change it reverts, so nothing was undone. Check the "
            "board and tap Undo again."
        ),
        newest,
    )


def undo(
    campaign: Campaign,
    user: Any,
    event_id: int | None = None,
    expected_event: int | None = None,
    *,
    again_is_stale: bool = False,
) -> Event:
    """Revert the campaign's last change not undone yet (and delete its attempt), and record
    the undo as an event of its own (the campaign's new version).

    ``again_is_stale`` (the API): an undo naming a change already undone is refused as a
    ``StaleWrite`` too (409, with the fresh progress), as its target is no longer the last
    undoable change; the pages keep such a double tap harmless instead.

    With ``event_id`` (what the Undo button shows; the API requires it), only that change is
    undone: undoing it again is harmless (a double tap on Undo does not also undo the change
    before it), and when another change came after it, the undo is refused as a
    ``StaleWrite`` (409, with the fresh progress): it never undoes a change the phone did not
    show. Without ``event_id`` (code of our own), with ``expected_event``, any change after
    that version refuses it the same way: the last change is then not the one the phone saw.
    """
    with transaction.atomic():
        campaign = lock_campaign(campaign.pk)
        event = last_undoable(campaign)
        if event_id is not None and (event is None or event.pk != event_id):
            done = campaign.events.filter(pk=event_id, undone__isnull=False).first()
            if done is not None and not again_is_stale:
                return done
            if not campaign.events.filter(pk=event_id).exists():
                raise CampaignError(_("There is no such change to undo."), "event")
            raise _stale_undo(campaign, event)
        if event is None:
            raise CampaignError(_("There is nothing to undo."))
        if event_id is None and expected_event is not None:
            newer = campaign.events.filter(pk__gt=expected_event).order_by("-id").first()
            if newer is not None:
                raise StaleWrite(_stale_message(newer), newer)
        # What the undo overwrites, for a redo (campaigns.play.redo): the state after the
        # change, and its attempt, which the undo deletes.
        touched = event.before["progress"]
        rows = ClockProgress.objects.filter(campaign=campaign, clock_id__in=touched)
        undoing: dict[str, Any] = {"event": event.pk, "after": _snapshot(campaign, rows)}
        attempt = Attempt.objects.filter(event=event).first()
        if attempt is not None:
            undoing["attempt"] = _attempt_record(attempt)
            attempt.delete()
        _restore(campaign, event.before)
        event.undone = timezone.now()
        event.save(update_fields=["undone"])
        _event(campaign, Event.Kind.UNDONE, event.clock_id, undoing, user, "")
        return event
