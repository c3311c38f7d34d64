"""The campaign pages. Every page works as plain HTML forms; with htmx, the group page
records an attempt and swaps its ``board`` partial in place, and the layout field and the
clock editor validate as the user types.

Access: ``get_group_for_user`` answers 404 to non-members, 403 to viewers on writes and to
non-owners on member management — the same as the API.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import (
    HttpResponseClientRedirect,
    HttpResponseStopPolling,
    trigger_client_event,
)

from campaigns import services, winnable
from campaigns.access import get_group_for_user, live_version
from campaigns.definitions import community
from campaigns.definitions.community_views import community_section
from campaigns.definitions.editor import kind_name, param_inputs, rule_from_params
from campaigns.forms import (
    AttemptForm,
    CampaignForm,
    GroupForm,
    ImportForm,
    InviteForm,
    LayoutCheckForm,
    MemberForm,
    PlayerForm,
    RoleForm,
    SessionForm,
    TranscriptionForm,
    add_service_error,
)
from campaigns.history import exports, imports
from campaigns.models import (
    NAME_LENGTH,
    Attempt,
    Event,
    Group,
    HistoryImport,
    Membership,
    Player,
    Session,
)
from campaigns.play.chapter_map import chapter_map, clock_state, state_labels
from campaigns.services import CampaignError
from config.http import AuthenticatedHttpRequest
from config.i18n import current_lang
from config.ids import parse_id, parse_natural
from rules import jsontext
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.inputs import check_layout
from rules.kinds import RULE_KINDS
from rules.layout import parse_layout
from rules.svg import clock_svg

# An invite link opened before logging in: kept in the session until the dashboard's offer
# is taken up (sign-up lands on the dashboard, whatever ``next`` said).
INVITE_SESSION_KEY = "campaigns_invite"


def _face(clock: Clock, layout: Any = None) -> str:
    return clock_svg(clock, layout, lang=current_lang())


# --- dashboard ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My groups with their chapter, next clock and last session; a form for a new group."""
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.create_group(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["players"],
            )
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return redirect("campaigns:group", group.pk)
    memberships = (
        Membership.objects.filter(user=request.user).select_related("group").order_by("group__name")
    )
    rows = []
    for membership in memberships:
        campaign = membership.group.current_campaign()
        state = services.campaign_state(campaign)
        last = campaign.sessions.order_by("-date", "-id").first()
        rows.append({"membership": membership, "state": state, "last_session": last})
    # An invite opened before logging in or signing up, not taken up yet.
    token = request.session.get(INVITE_SESSION_KEY)
    invite = (
        Group.objects.filter(invite_token=token, invite_expires__gt=timezone.now()).first()
        if token
        else None
    )
    if invite is not None and memberships.filter(group=invite).exists():
        request.session.pop(INVITE_SESSION_KEY, None)
        invite = None
    status = 400 if form.errors else 200
    return render(
        request,
        "campaigns/dashboard.html",
        {"rows": rows, "form": form, "import_form": ImportForm(), "invite": invite},
        status=status,
    )


@login_required
@require_POST
def group_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            data = jsontext.loads(form.cleaned_data["history"].read().decode("utf-8"))
            started = imports.start_import(request.user, data)
        except (ValueError, UnicodeDecodeError):
            form.add_error("history", _("The file is not JSON."))
        except CampaignError as error:
            form.add_error("history", error.message)
        else:
            if isinstance(started, HistoryImport):  # a long history: the worker imports it
                return redirect("campaigns:import_progress", started.pk)
            messages.success(request, _("History imported."))
            return redirect("campaigns:group", started.pk)
    return render(
        request,
        "campaigns/dashboard.html",
        {"rows": [], "form": GroupForm(), "import_form": form},
        status=400,
    )


@login_required
@require_GET
@vary_on_headers("HX-Request")
def import_progress(request: AuthenticatedHttpRequest, import_id: int) -> HttpResponse:
    """A long import under way: its progress, polled by htmx (a refresh without JavaScript);
    the group page once it is done. Only the person who started it sees it."""
    job = get_object_or_404(HistoryImport, pk=import_id, owner=request.user)
    if job.status == HistoryImport.Status.DONE and job.group_id is not None:
        messages.success(request, _("History imported."))
        url = reverse("campaigns:group", args=[job.group_id])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:
        html = render_to_string("campaigns/import.html#progress", {"job": job}, request=request)
        return HttpResponseStopPolling(html) if job.ended else HttpResponse(html)
    return render(request, "campaigns/import.html", {"job": job})


# --- the group page -----------------------------------------------------------------------


def _board_context(
    group: Group, membership: Membership, form: AttemptForm | None = None, verdict: Any = None
) -> dict[str, Any]:
    campaign = group.current_campaign()
    state = services.campaign_state(campaign)
    context: dict[str, Any] = {
        "group": group,
        "membership": membership,
        "campaign": campaign,
        "state": state,
        "map": chapter_map(state, group.pk),
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
        .exclude(kind=Event.Kind.UNDONE)
        .select_related("attempt")
        .order_by("-id")[:5]
    )
    last_attempt = next((e.attempt for e in recent if hasattr(e, "attempt")), None)
    winnable.attach(group, [e.attempt for e in recent if hasattr(e, "attempt")])
    next_clock = state.next_clock
    if next_clock is not None:
        choice = services.played_definition(group, next_clock)
        clock, version = choice.clock, choice.version
        context["offer"] = community.agreement_offer(group, choice, state)
        if context["offer"] is not None:
            context["offer_text"] = community.agreement_text(context["offer"].groups)
            context["offer_rules"] = context["offer"].clock.describe(current_lang())
        present = len(today.players.all()) if today else 0
        # Who is at the table tonight says the player count; else the last attempt's.
        players = (
            present if present in PLAYER_COUNTS else (last_attempt.players if last_attempt else 3)
        )
        if form is None:
            form = AttemptForm(group=group, initial={"clock": next_clock, "players": players})
        context.update(
            clock=clock,
            clock_version=version,
            face=_face(clock),
            rules_text=clock.describe(current_lang()),
            row=state.by_id[next_clock],
            players=players,
            face_up=state.face_up(players),
            face_up_by_players={n: state.face_up(n) for n in PLAYER_COUNTS},
        )
    context["form"] = form
    context["recent"] = recent
    context["undoable"] = services.last_undoable(campaign)
    # What the forms were drawn from (the stale-write guard) and what the live board polls.
    context["version"] = services.campaign_version(campaign)
    context["live_version"] = f"{campaign.pk}-{context['version']}"
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
    (``If-None-Match``): 204 while it is the same, else 200 with the new version. Two queries
    (``access.live_version``); outsiders and signed-out phones get 404."""
    version = live_version(request, group_id)
    if version is None:
        raise Http404
    etag = f'"{version}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=204)
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
    return render(request, template, _board_context(group, membership))


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
                services.skip(campaign, request.user, data["clock"], data["request_key"], expected)
                message = _("Clock %(clock)s is in the Sleeve of Regrets.")
            else:
                minutes = data["duration_min"]
                attempt = services.record_attempt(
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
        except services.StaleWrite as stale:
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
            clock_id = services.known_clock(form.cleaned_data["clock"])
            state = services.campaign_state(group.current_campaign())
            if clock_id not in state.by_id or clock_state(state, clock_id) == "locked":
                raise CampaignError(
                    _("This clock belongs to a chapter your group has not opened yet."), "clock"
                )
            clock, _version = services.clock_for_group(group, clock_id)
            verdict = check_layout(clock, form.cleaned_data["layout"], current_lang())
            context["verdict"] = verdict
            context["verdict_face"] = _face(clock, parse_layout(form.cleaned_data["layout"]))
            if not verdict.special_rules_known:
                context["base_rules"] = _base_rules(clock)
        except (CampaignError, RulesError) as error:
            context["verdict_error"] = services.error_text(error)
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
    group, membership = get_group_for_user(request.user, group_id, write=True)
    raw_event = request.POST.get("event", "")
    # A change that cannot exist (0) is refused like one that is no longer the last.
    event_id = (parse_id(raw_event) or 0) if raw_event else None
    try:
        event = services.undo(
            group.current_campaign(), request.user, event_id, _expected_event(request)
        )
        message = _("Undone: %(what)s at %(clock)s.") % {
            "what": event.get_kind_display(),
            "clock": event.clock_id,
        }
    except CampaignError as error:
        status = 409 if isinstance(error, services.StaleWrite) else 400
        if request.htmx or status == 409:
            template = _board_template(request)
            return _board_response(request, group, membership, template, error.message, status)
        messages.info(request, error.message)
        return redirect(_board_url(request, group))
    if request.htmx:
        template = _board_template(request)
        response = _board_response(request, group, membership, template, message)
        return trigger_client_event(response, "timekeeper:recorded")
    messages.info(request, message)
    return redirect(_board_url(request, group))


# --- sessions -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def sessions(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """The campaign's sessions; a form to start one (date, who was there)."""
    group, membership = get_group_for_user(request.user, group_id, write=request.method == "POST")
    campaign = group.current_campaign()
    # Most evenings the same people sit down again: start from the last session's players.
    last = campaign.sessions.exclude(players=None).order_by("-date", "-id").first()
    initial = {
        "date": timezone.localdate(),
        "players": [p.pk for p in last.players.all()] if last else [],
    }
    form = SessionForm(request.POST or None, group=group, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.fill_in_session(campaign, list(data["players"]), data["date"], data["notes"])
        except CampaignError as error:
            add_service_error(form, error)
        else:
            # The session is started to play it: back to the board, the players set.
            messages.success(request, _("Tonight's session has started."))
            return redirect("campaigns:group", group.pk)
    rows = (
        campaign.sessions.annotate(
            n_attempts=Count("attempts"),
            n_passed=Count("attempts", filter=Q(attempts__outcome="passed")),
        )
        .prefetch_related("players")
        .order_by("-date", "-id")
    )
    return render(
        request,
        "campaigns/sessions.html",
        {"group": group, "membership": membership, "sessions": rows, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def session_detail(
    request: AuthenticatedHttpRequest, group_id: int, session_id: int
) -> HttpResponse:
    """Who played, the attempts, the duration; POST changes who was there."""
    group, membership = get_group_for_user(request.user, group_id, write=request.method == "POST")
    session = get_object_or_404(Session, pk=session_id, campaign__group=group)
    form = SessionForm(
        request.POST or None,
        group=group,
        initial={"date": session.date, "players": session.players.all(), "notes": session.notes},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.edit_session(session, data["date"], list(data["players"]), data["notes"])
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Session saved."))
            return redirect("campaigns:session", group.pk, session.pk)
    attempts = list(session.attempts.select_related("opener").order_by("id"))
    return render(
        request,
        "campaigns/session.html",
        {
            "group": group,
            "membership": membership,
            "session": session,
            "attempts": attempts,
            "minutes": exports.session_minutes(attempts),
            "bgstats_link": exports.bgstats_link(session),
            "form": form,
        },
        status=400 if form.errors else 200,
    )


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
            services.retrieve(
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
    state = services.campaign_state(campaign)
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
            "version": services.campaign_version(campaign),
            "error": error,
        },
        status=status,
    )


# --- clocks -------------------------------------------------------------------------------


def _known_clock_or_404(clock_id: str) -> str:
    try:
        return services.known_clock(clock_id)
    except CampaignError:
        raise Http404 from None


@login_required
@require_GET
def clock_page(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """A clock's face, rules and every attempt of the campaign. Clocks of chapters not
    opened stay hidden unless ``?spoilers=1``."""
    group, membership = get_group_for_user(request.user, group_id)
    clock_id = _known_clock_or_404(clock_id)
    campaign = group.current_campaign()
    state = services.campaign_state(campaign)
    kind = clock_state(state, clock_id) if clock_id in state.by_id else "locked"
    hidden = kind == "locked" and request.GET.get("spoilers") != "1"
    clock, version = services.clock_for_group(group, clock_id)
    shared = {} if hidden else community_section(group, clock_id, clock, version, state)
    # Every attempt of the group's history at this clock: a new campaign does not erase what
    # the table already tried here (earlier campaigns' rows are marked).
    attempts = list(
        Attempt.objects.filter(campaign__group=group, clock_id=clock_id)
        .select_related("opener", "session")
        .order_by("id")
    )
    if not hidden:  # was each failure winnable? (a spoiler too, for a chapter not opened)
        winnable.attach(group, attempts)
    return render(
        request,
        "campaigns/clock.html",
        {
            "group": group,
            "membership": membership,
            "clock": clock,
            "clock_id": clock_id,
            "version": version,
            "hidden": hidden,
            "face": None if hidden else _face(clock),
            "rules_text": [] if hidden else clock.describe(current_lang()),
            "state_label": state_labels().get(kind, ""),
            "attempts": attempts,
            "campaign": campaign,
            "versions": group.transcriptions.filter(clock_id=clock_id),
            **shared,
        },
    )


def _same_face(a: Clock, b: Clock) -> bool:
    """The same hand, limit and special rules (what a new version would change)."""
    return (a.start, a.cap, a.rules) == (b.start, b.cap, b.rules)


def _rules_text(rules: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(rule, ensure_ascii=False) for rule in rules)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def transcribe(request: AuthenticatedHttpRequest, group_id: int, clock_id: str) -> HttpResponse:
    """The clock editor: the clock hand, the 24 limit and the special rules, with the clock
    face redrawn after every change. Buttons say what a POST does: ``choose`` shows the
    inputs of the kind picked in ``new_kind``, ``add`` appends that rule, ``remove`` (its
    index) drops one, ``save`` stores a new version. htmx swaps the ``editor`` partial on
    every change; without JavaScript the same buttons re-render the page."""
    group, membership = get_group_for_user(request.user, group_id, write=True)
    clock_id = _known_clock_or_404(clock_id)
    clock, version = services.clock_for_group(group, clock_id)
    new_kind = request.POST.get("new_kind", "")
    new_rule_error = None
    if request.method == "POST":
        data = request.POST.copy()
        form = TranscriptionForm(data)
        if form.is_valid():
            rules = list(form.cleaned_data["rules"])
            if "remove" in request.POST:
                index = parse_natural(request.POST.get("remove", ""), len(rules) - 1)
                if index is not None:
                    rules.pop(index)
            elif request.POST.get("action") == "add" or (
                # Save with a rule still in "Add a rule" saves it too, rather than drop it.
                request.POST.get("action") == "save" and new_kind in RULE_KINDS
            ):
                try:
                    rules.append(rule_from_params(new_kind, request.POST).to_json())
                    new_kind = ""
                except RulesError as error:
                    new_rule_error = services.error_text(error)
            data["rules"] = _rules_text(rules)
            form = TranscriptionForm(data)
    else:
        form = TranscriptionForm(
            initial={
                "start": clock.start,
                "cap_lifted": clock.cap is None,
                "rules": _rules_text([r.to_json() for r in clock.rules]),
            }
        )
    draft: Clock | None = clock
    if form.is_bound:
        draft = None
        if form.is_valid():
            try:
                draft = Clock.from_json(form.definition(clock_id))
            except RulesError as error:
                add_service_error(form, error)
    if (
        request.method == "POST"
        and request.POST.get("action") == "save"
        and draft is not None
        and new_rule_error is None
    ):
        if version and _same_face(clock, draft):  # a double tap, or nothing changed
            messages.info(
                request, _("Nothing changed: still version %(version)d.") % {"version": version}
            )
        else:
            row = services.transcribe(group, clock_id, draft.to_json(), request.user)
            messages.success(request, _("Saved as version %(version)d.") % {"version": row.version})
        if request.htmx:
            return HttpResponseClientRedirect(reverse("campaigns:clock", args=[group.pk, clock_id]))
        return redirect("campaigns:clock", group.pk, clock_id)
    context: dict[str, Any] = {
        "group": group,
        "membership": membership,
        "clock_id": clock_id,
        "version": version,
        "form": form,
        "kinds": sorted((kind_name(k), k) for k in RULE_KINDS),
        "new_kind": new_kind if new_kind in RULE_KINDS else "",
        "new_inputs": (
            [replace(p, value=request.POST.get(p.field, "")) for p in param_inputs(new_kind)]
            if new_kind in RULE_KINDS
            else []
        ),
        "new_rule_error": new_rule_error,
        "draft_rules": (
            [(i, r.describe(current_lang())) for i, r in enumerate(draft.rules)] if draft else []
        ),
        "preview": _face(draft) if draft else None,
        "segments": range(1, 7),
    }
    status = 400 if form.errors or new_rule_error else 200
    if request.htmx:
        return render(request, "campaigns/transcribe.html#editor", context)
    # Other tables' definitions, compared with the version saved (not the draft).
    state = services.campaign_state(group.current_campaign())
    context.update(community_section(group, clock_id, clock, version, state))
    return render(request, "campaigns/transcribe.html", context, status=status)


# --- members ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def members(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """Members and roles; owners invite by username or share the invite link. Players (the
    people at the table) are listed and added here too."""
    group, membership = get_group_for_user(request.user, group_id, owner=request.method == "POST")
    form = MemberForm(request.POST or None)
    player_form = PlayerForm()
    if request.method == "POST":
        if "name" in request.POST:  # a new player
            player_form = PlayerForm(request.POST)
            form = MemberForm()
            if player_form.is_valid():
                try:
                    services.add_player(group, player_form.cleaned_data["name"])
                except CampaignError as error:
                    add_service_error(player_form, error)
                else:
                    return redirect("campaigns:members", group.pk)
        elif form.is_valid():
            try:
                member = services.add_member(
                    group, form.cleaned_data["username"], form.cleaned_data["role"]
                )
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("%(user)s joined the group.") % {"user": member.user})
                return redirect("campaigns:members", group.pk)
    rows = group.memberships.select_related("user").order_by("user__username")
    invite = request.build_absolute_uri(reverse("campaigns:join", args=[group.invite_token]))
    invite_form = InviteForm()
    return render(
        request,
        "campaigns/members.html",
        {
            "group": group,
            "membership": membership,
            "rows": rows,
            "form": form,
            "player_form": player_form,
            "players": group.players.all(),
            "name_length": NAME_LENGTH,
            "invite": invite,
            "invite_form": invite_form,
            "roles": Membership.Role.choices,
        },
        status=400 if form.errors or player_form.errors else 200,
    )


@login_required
@require_POST
def member_change(request: AuthenticatedHttpRequest, group_id: int, member_id: int) -> HttpResponse:
    """Owners change a role (``role``) or remove a member (``remove``)."""
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    member = get_object_or_404(group.memberships.select_related("user"), pk=member_id)
    try:
        if "remove" in request.POST:
            services.remove_member(group, member)
        else:
            form = RoleForm(request.POST)
            if not form.is_valid():
                raise CampaignError(_("Choose owner, member or viewer."), "role")
            services.change_role(group, member, form.cleaned_data["role"])
    except CampaignError as error:
        messages.error(request, error.message)
    else:  # who left the group can no longer see it; a refusal is shown where it was asked
        if member.user_id == request.user.pk and "remove" in request.POST:
            return redirect("dashboard")
    return redirect("campaigns:members", group.pk)


@login_required
@require_POST
def invite_rotate(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """Owners make a new invite link, open for the days they choose; the old link stops
    working at once."""
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how long the link stays open."))
    else:
        services.rotate_invite(group, form.cleaned_data["days"])
        messages.success(request, _("A new invite link is ready; the old one no longer works."))
    return redirect("campaigns:members", group.pk)


@login_required
@require_POST
def player_change(request: AuthenticatedHttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """Owners correct a player's name (``name``) or remove (``remove``) a player who never
    played (services.remove_player says why the others stay)."""
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    player = get_object_or_404(Player, pk=player_id, group=group)
    if "remove" in request.POST:
        try:
            services.remove_player(player)
        except CampaignError as error:
            messages.error(request, error.message)
        return redirect("campaigns:members", group.pk)
    form = PlayerForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("A player's name has 1 to %(max)d characters.") % {"max": NAME_LENGTH}
        )
        return redirect("campaigns:members", group.pk)
    try:
        services.rename_player(player, form.cleaned_data["name"])
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Name saved."))
    return redirect("campaigns:members", group.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: GET asks, POST joins as a member. A friend without an account is
    asked to log in or sign up; the invite is kept in their session, and the dashboard
    offers it again after they sign up (sign-up does not follow ``next``)."""
    group = get_object_or_404(Group, invite_token=token)
    member = request.user.is_authenticated and group.memberships.filter(user=request.user).exists()
    if not group.invite_open and not member:
        request.session.pop(INVITE_SESSION_KEY, None)
        return render(request, "campaigns/join.html", {"group": group, "expired": True}, status=410)
    if not request.user.is_authenticated:
        request.session[INVITE_SESSION_KEY] = token
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={request.path}")
        return render(request, "campaigns/join.html", {"group": group, "anonymous": True})
    if request.method == "POST":
        try:
            services.join(group, request.user)
        except CampaignError:  # it expired while the page was open
            context = {"group": group, "expired": True}
            return render(request, "campaigns/join.html", context, status=410)
        request.session.pop(INVITE_SESSION_KEY, None)
        return redirect("campaigns:group", group.pk)
    return render(request, "campaigns/join.html", {"group": group})


# --- campaign settings --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """New campaign (from the start, mid-game, or Rebirth) and the list of campaigns."""
    group, membership = get_group_for_user(request.user, group_id, write=request.method == "POST")
    form = CampaignForm(request.POST or None)
    state = services.campaign_state(group.current_campaign())
    # A tap here replaces the campaign being played and no Undo reverses it: a campaign in
    # progress is only left on purpose (a new or a complete one needs no confirmation).
    in_progress = not state.completed and state.campaign.events.exists()
    if not in_progress:
        del form.fields["confirm"]
    if (
        request.method == "POST"
        and form.is_valid()
        and in_progress
        and not form.cleaned_data["confirm"]
    ):
        form.add_error(
            "confirm", _("Tick this box: the campaign in progress will no longer be played.")
        )
    if request.method == "POST" and form.is_valid():
        try:
            data = form.cleaned_data
            services.new_campaign(group, data["kind"], data["start_chapter"], data["passed"])
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("A new campaign has started."))
            return redirect("campaigns:group", group.pk)
    campaigns = group.campaigns.annotate(
        n_attempts=Count("attempts"), last=Max("attempts__created")
    ).order_by("-id")
    return render(
        request,
        "campaigns/settings.html",
        {
            "group": group,
            "membership": membership,
            "form": form,
            "state": state,
            "in_progress": in_progress,
            "campaigns": campaigns,
        },
        status=400 if form.errors else 200,
    )


# --- exports ---------------------------------------------------------------------------


@login_required
@require_GET
def export_json(request: AuthenticatedHttpRequest, group_id: int) -> JsonResponse:
    group, membership = get_group_for_user(request.user, group_id)
    response = JsonResponse(exports.export_history(group), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="timekeeper-{group.pk}.json"'
    return response


@login_required
@require_GET
def export_csv(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    group, _membership = get_group_for_user(request.user, group_id)
    return exports.attempts_csv_download(group)


@login_required
@require_GET
def export_bgstats(
    request: AuthenticatedHttpRequest, group_id: int, session_id: int
) -> JsonResponse:
    group, membership = get_group_for_user(request.user, group_id)
    session = get_object_or_404(Session, pk=session_id, campaign__group=group)
    response = JsonResponse(exports.bgstats_play(session))
    response["Content-Disposition"] = f'attachment; filename="bgstats-{session.pk}.json"'
    return response
