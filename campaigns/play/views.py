"""The group page and table mode: the board, one tap per attempt (htmx swaps the ``board``
partial in place), the live check of a layout, undo and redo, and the Sleeve of Regrets.

Access: ``get_group_for_user`` answers 404 to non-members, 403 to viewers on writes — the
same as the API.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import trigger_client_event

from campaigns import live as live_board
from campaigns import winnable
from campaigns.access import get_group_for_user, live_version
from campaigns.definitions import community
from campaigns.definitions.played import played_definition
from campaigns.definitions.services import known_clock
from campaigns.definitions.views import clock_face
from campaigns.errors import CampaignError
from campaigns.forms import AttemptForm, LayoutCheckForm, add_service_error
from campaigns.models import Event, Group, Membership
from campaigns.play import redo as play_redo
from campaigns.play import services as play_services
from campaigns.play.chapter_map import drawn_chapter_map, state_labels
from campaigns.play.services import StaleWrite, last_undoable, record_attempt, retrieve
from campaigns.play.state import campaign_state, campaign_version
from config.errors import refusal_text
from config.http import AuthenticatedHttpRequest, invite_address
from config.i18n import current_lang
from config.ids import parse_id
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.inputs import check_layout
from rules.layout import parse_layout

# --- the group page -----------------------------------------------------------------------


def players_at_the_table(group: Group, session: Any, last_attempt: Any) -> int:
    """The player count a tap records unless someone changes it: who is at the table tonight
    (the evening's session), else the group's players (a table seats at most 4), else the
    last attempt's count. A new 4-player group once recorded 3 players from a fixed default."""
    counts = [
        min(len(session.players.all()), max(PLAYER_COUNTS)) if session else 0,
        min(group.players.count(), max(PLAYER_COUNTS)),
        last_attempt.players if last_attempt else 0,
    ]
    return next((n for n in counts if n in PLAYER_COUNTS), 3)


def _pending_board(group: Group, state: Any) -> dict[str, Any]:
    """What a phone needs to draw the board as its offline taps will leave it, and to judge a
    further tap as the server will (static/js/outbox.js): the clock being played, the Bonus
    tokens, its attempts, and the clocks after it with their attempts."""
    stack = state.stack()
    return {
        "record": reverse("campaigns:record", args=[group.pk]),
        "undo": reverse("campaigns:undo", args=[group.pk]),
        "clock": stack[0],
        "tokens": state.bonus_tokens,
        "attempts": state.by_id[stack[0]].attempts,
        "stack": [[c, state.by_id[c].attempts] for c in stack[1:6]],
    }


def _board_context(
    group: Group, membership: Membership, form: AttemptForm | None = None, verdict: Any = None
) -> dict[str, Any]:
    # First, before any row of the board: see live.board_version.
    live_version = live_board.board_version(group.pk)
    campaign = group.current_campaign()
    state = campaign_state(campaign)
    context: dict[str, Any] = {
        "group": group,
        "membership": membership,
        "campaign": campaign,
        "state": state,
        "map": drawn_chapter_map(state, group.pk),
        "labels": state_labels(),
        "verdict": verdict,
    }
    today = (
        campaign.sessions.filter(date=timezone.localdate())
        .order_by("-id")
        .prefetch_related("players")
        .first()
    )
    context["session"] = today
    # Latest: attempts, skips and retrievals alike, each with its attempt when it has one.
    recent = list(
        campaign.events.filter(undone__isnull=True)
        .exclude(kind__in=[Event.Kind.UNDONE, Event.Kind.REDONE])
        .select_related("attempt")
        .order_by("-id")[:5]
    )
    last_attempt = next((e.attempt for e in recent if hasattr(e, "attempt")), None)
    winnable.attach(group, [e.attempt for e in recent if hasattr(e, "attempt")])
    next_clock = state.next_clock
    if next_clock is not None:
        choice = played_definition(group, next_clock)
        clock, version = choice.clock, choice.version
        context["offer"] = community.agreement_offer(group, clock, state)
        if context["offer"] is not None:
            context["offer_text"] = community.agreement_text(context["offer"].groups)
            context["offer_rules"] = context["offer"].clock.describe(current_lang())
        players = players_at_the_table(group, today, last_attempt)
        if form is None:
            form = AttemptForm(group=group, initial={"clock": next_clock, "players": players})
        context.update(
            clock=clock,
            clock_version=version,
            face=clock_face(clock),
            rules_text=clock.describe(current_lang()),
            row=state.by_id[next_clock],
            players=players,
            face_up=state.face_up(players),
            face_up_by_players={n: state.face_up(n) for n in PLAYER_COUNTS},
            pending_board=_pending_board(group, state),
        )
    context["form"] = form
    context["recent"] = recent
    context["undoable"] = last_undoable(campaign)
    context["redoable"] = play_redo.last_redoable(campaign)
    # What the forms were drawn from (the stale-write guard) and what the live board polls.
    context["version"] = campaign_version(campaign)
    context["live_version"] = live_version
    return context


def _board_response(
    request: AuthenticatedHttpRequest,
    group: Group,
    membership: Membership,
    template: str,
    flash: str = "",
    status: int = 200,
) -> HttpResponse:
    """The fresh board after a tap: the partial for htmx (200, so htmx swaps it in, even for
    a refusal), the whole page otherwise."""
    context = _board_context(group, membership)
    context["flash"] = flash
    context["flash_kind"] = "warn" if status >= 400 else "success"
    if not request.htmx:
        return render(request, template, context, status=status)
    response = render(request, f"{template}#board", context)
    # What a phone replaying taps it queued offline reads (static/js/outbox.js).
    response["X-Timekeeper-Version"] = str(context["version"])
    if status >= 400:
        response = trigger_client_event(response, "timekeeper:refused", {"message": flash})
    return response


def _expected_event(request: HttpRequest) -> int | None:
    """The version a page form was drawn from; None when it carries none (or nonsense)."""
    raw = request.POST.get("expected_event", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def _from_table(request: HttpRequest) -> bool:
    """A write tapped in table mode answers with table mode, not the group page."""
    return request.POST.get("view") == "table"


def _board_template(request: HttpRequest) -> str:
    return "campaigns/table.html" if _from_table(request) else "campaigns/group.html"


def _board_url(request: HttpRequest, group: Group) -> str:
    name = "campaigns:table" if _from_table(request) else "campaigns:group"
    return reverse(name, args=[group.pk])


@login_required
@require_GET
@vary_on_headers("HX-Request")
def group_page(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    group, membership = get_group_for_user(request.user, group_id)
    template = "campaigns/group.html#board" if request.htmx else "campaigns/group.html"
    return render(request, template, _board_context(group, membership))


@require_GET
def live(request: HttpRequest, group_id: int) -> HttpResponse:
    """Has the board changed? Phones poll this every few seconds with the version they show
    (``If-None-Match``): 304 while it is the same, else 200 with the new version. No
    template, and the version from the cache (``access.live_version``); outsiders and
    signed-out phones get 404, whatever version they send."""
    version = live_version(request, group_id)
    if version is None:
        raise Http404
    etag = f'"{version}"'
    response: HttpResponse
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
@vary_on_headers("HX-Request")
def table(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """Table mode: the clock being played, full screen, with big targets, a timer and the
    plan of the group's latest hint for this clock, read aloud on request."""
    group, membership = get_group_for_user(request.user, group_id)
    template = "campaigns/table.html#board" if request.htmx else "campaigns/table.html"
    context = _board_context(group, membership)
    if membership.is_owner:
        join = reverse("campaigns:join", args=[group.invite_token])
        context["invite"] = invite_address(request, join)
    return render(request, template, context)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def record(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """One tap: ``action`` is passed, failed or skip. htmx gets the new board; without
    JavaScript the browser is redirected to the group page. Refusals re-render the form
    with the reason at its field (400 without htmx; 200 with it so htmx swaps it in)."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    form = AttemptForm(request.POST, group=group)
    action = request.POST.get("action", "")
    if action not in AttemptForm.ACTIONS:
        form.add_error(None, _("Choose Passed, Failed or Skip."))
    if form.is_valid():
        data = form.cleaned_data
        campaign = group.current_campaign()
        expected = _expected_event(request)
        try:
            if action == "skip":
                play_services.skip(
                    campaign, request.user, data["clock"], data["request_key"], expected
                )
                message = _("Clock %(clock)s is in the Sleeve of Regrets.")
            else:
                minutes = data["duration_min"]
                attempt = record_attempt(
                    campaign,
                    request.user,
                    data["clock"],
                    action,
                    data["players"],
                    layout=data["layout"],
                    opener=data["opener"],
                    duration=None if minutes is None else timedelta(minutes=minutes),
                    notes=data["notes"],
                    request_key=data["request_key"],
                    expected_event=expected,
                )
                if action == "passed":
                    message = _("Clock %(clock)s passed.")
                elif attempt.bonus_tokens < BONUS_TOKENS:
                    message = _("Clock %(clock)s failed: one more Bonus token.")
                else:  # the rules flip at most three; say so rather than promise a fourth
                    message = _(
                        "Clock %(clock)s failed. All three Bonus tokens are already face up."
                    )
        except StaleWrite as stale:
            template = _board_template(request)
            return _board_response(request, group, membership, template, stale.message, 409)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            if request.htmx:
                template = _board_template(request)
                flash = message % {"clock": data["clock"]}
                response = _board_response(request, group, membership, template, flash)
                # Table mode forgets the attempt's timer once its result is recorded.
                return trigger_client_event(response, "timekeeper:recorded")
            messages.success(request, message % {"clock": data["clock"]})
            return redirect(_board_url(request, group))
    context = _board_context(group, membership, form=form)
    template = _board_template(request)
    if request.htmx:
        refusal = " ".join(str(e) for errors in form.errors.values() for e in errors)
        response = render(request, f"{template}#board", context)
        return trigger_client_event(response, "timekeeper:refused", {"message": refusal})
    return render(request, template, context, status=400)


@login_required
@require_POST
def layout_check(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """The engine's verdict on the layout typed so far: the live check of the group page
    (the clock being played) and of a clock's page (any clock of an opened chapter)."""
    group, membership = get_group_for_user(request.user, group_id)
    form = LayoutCheckForm(request.POST)
    context: dict[str, Any] = {"group": group, "verdict": None, "verdict_error": None}
    if form.is_valid() and form.cleaned_data["layout"].strip():
        try:
            clock_id = known_clock(form.cleaned_data["clock"])
            state = campaign_state(group.current_campaign())
            if not state.clock_open(clock_id):
                raise CampaignError(
                    _("This clock belongs to a chapter your group has not opened yet."), "clock"
                )
            clock = played_definition(group, clock_id).clock
            verdict = check_layout(clock, form.cleaned_data["layout"], current_lang())
            context["verdict"] = verdict
            # Rules in the table's own words: never judged, the players check them.
            context["check_yourselves"] = [v.text for v in verdict.unchecked if v.text]
            context["verdict_face"] = clock_face(clock, parse_layout(form.cleaned_data["layout"]))
            if not verdict.special_rules_known:
                context["base_rules"] = _base_rules(clock)
        except (CampaignError, RulesError) as error:
            context["verdict_error"] = refusal_text(error)
    return render(request, "campaigns/group.html#verdict", context)


def _base_rules(clock: Clock) -> list[str]:
    """The three rules every clock has, as the check of an untranscribed clock judged them."""
    return [
        _("every segment holds at least one card;"),
        _("from the start segment, each value is equal to or greater than the one before;"),
        _("no value is over %(cap)s.") % {"cap": clock.cap}
        if clock.cap is not None
        else _("values may be as high as they like (this clock lifts the limit)."),
    ]


@login_required
@require_POST
@vary_on_headers("HX-Request")
def undo(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """Undo the change the button names (``event``); see ``services.undo``."""
    return _undo_or_redo(request, group_id, redoing=False)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def redo(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """Redo the undo the button names (``event``); see ``campaigns.play.redo``."""
    return _undo_or_redo(request, group_id, redoing=True)


def _undo_or_redo(request: AuthenticatedHttpRequest, group_id: int, redoing: bool) -> HttpResponse:
    """Both buttons name what they revert (``event``): a POST without it is refused like a
    stale one, so it never reverts a change the phone did not show. htmx gets the fresh
    board, a plain form a redirect to it (a stale one, the board with 409)."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    raw_event = request.POST.get("event", "")
    campaign = group.current_campaign()
    try:
        if not raw_event:
            unnamed = play_redo.unnamed_redo if redoing else play_services.unnamed_undo
            raise unnamed(campaign)
        # A change that cannot exist (0) is refused like one that is no longer the last.
        event_id = parse_id(raw_event) or 0
        expected = _expected_event(request)
        if redoing:
            event = play_redo.redo(campaign, request.user, event_id, expected)
            template = _("Redone: %(what)s at %(clock)s.")
        else:
            event = play_services.undo(campaign, request.user, event_id, expected)
            template = _("Undone: %(what)s at %(clock)s.")
        message = template % {"what": event.get_kind_display(), "clock": event.clock_id}
    except CampaignError as error:
        status = 409 if isinstance(error, StaleWrite) else 400
        if request.htmx or status == 409:
            template = _board_template(request)
            return _board_response(request, group, membership, template, error.message, status)
        messages.info(request, error.message)
        return redirect(_board_url(request, group))
    if request.htmx:
        response = _board_response(request, group, membership, _board_template(request), message)
        return trigger_client_event(response, "timekeeper:recorded")
    messages.info(request, message)
    return redirect(_board_url(request, group))


# --- Sleeve of Regrets --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def sleeve(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """The clocks in the Sleeve; each can be put back on top of the stack (the one put back
    last is played first)."""
    group, membership = get_group_for_user(request.user, group_id, write=request.method == "POST")
    campaign = group.current_campaign()
    error = None
    status = 200
    if request.method == "POST":
        try:
            retrieve(
                campaign,
                request.user,
                request.POST.getlist("clock"),
                request.POST.get("request_key", ""),
                _expected_event(request),
            )
        except CampaignError as refusal:
            error = refusal.message
            status = refusal.status
        else:
            messages.success(request, _("Back on top of the stack."))
            return redirect("campaigns:sleeve", group.pk)
    state = campaign_state(campaign)
    return render(
        request,
        "campaigns/sleeve.html",
        {
            "group": group,
            "membership": membership,
            "state": state,
            "rows": [state.by_id[c] for c in state.sleeve],
            # One key per page view: a double tap on a button puts its clock back once.
            "request_key": uuid.uuid4().hex[:24],
            "version": campaign_version(campaign),
            "error": error,
        },
        status=status,
    )
