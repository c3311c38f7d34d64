"""The pages of a group: the dashboard (my groups, a new one), sessions, members, players,
the invite link and campaign settings.

Access: ``get_group_for_user`` answers 404 to non-members, 403 to viewers on writes and to
non-owners on member management — the same as the API.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.access import get_group_for_user
from campaigns.errors import CampaignError
from campaigns.forms import (
    CampaignForm,
    GroupForm,
    ImportForm,
    InviteForm,
    MemberForm,
    PlayerForm,
    RoleForm,
    SessionForm,
    add_service_error,
)
from campaigns.groups import services as groups_services
from campaigns.groups.services import (
    Invite,
    add_member,
    add_player,
    change_role,
    create_group,
    edit_session,
    fill_in_session,
    invite_for,
    new_campaign,
    remove_member,
    remove_player,
    rename_player,
    rotate_invite,
)
from campaigns.history import exports
from campaigns.models import NAME_LENGTH, Group, Membership, Player, Session
from campaigns.play.state import campaign_state
from campaigns.recap import card
from campaigns.recap.compute import session_recap
from campaigns.recap.views import png_name
from config.http import AuthenticatedHttpRequest, invite_address, serve_https_address

# An invite link opened before logging in: kept in the session until the dashboard's offer
# is taken up (sign-up lands on the dashboard, whatever ``next`` said).
INVITE_SESSION_KEY = "campaigns_invite"


# --- dashboard ----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My groups with their chapter, next clock and last session; a form for a new group.
    A signed-out visitor gets the front door instead: what Timekeeper does, Sign up, Log in."""
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "front_door.html")
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = create_group(
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
        state = campaign_state(campaign)
        last = campaign.sessions.order_by("-date", "-id").first()
        rows.append({"membership": membership, "state": state, "last_session": last})
    # An invite opened before logging in or signing up, not taken up yet.
    token = request.session.get(INVITE_SESSION_KEY)
    invite = Group.objects.filter(invite_token=token).first() if token else None
    if invite is not None and invite_for(invite, request.user) != Invite.OPEN:
        request.session.pop(INVITE_SESSION_KEY, None)
        invite = None
    status = 400 if form.errors else 200
    return render(
        request,
        "campaigns/dashboard.html",
        {"rows": rows, "form": form, "import_form": ImportForm(), "invite": invite},
        status=status,
    )


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
            fill_in_session(campaign, list(data["players"]), data["date"], data["notes"])
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
            edit_session(session, data["date"], list(data["players"]), data["notes"])
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
            "recap_svg": card.svg(session_recap(session)),
            "recap_name": png_name(session),
            "form": form,
        },
        status=400 if form.errors else 200,
    )


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
                    add_player(group, player_form.cleaned_data["name"])
                except CampaignError as error:
                    add_service_error(player_form, error)
                else:
                    return redirect("campaigns:members", group.pk)
        elif form.is_valid():
            try:
                member = add_member(group, form.cleaned_data["username"], form.cleaned_data["role"])
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("%(user)s joined the group.") % {"user": member.user})
                return redirect("campaigns:members", group.pk)
    rows = group.memberships.select_related("user").order_by("user__username")
    invite = invite_address(request, reverse("campaigns:join", args=[group.invite_token]))
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
            remove_member(group, member)
        else:
            form = RoleForm(request.POST)
            if not form.is_valid():
                raise CampaignError(_("Choose owner, member or viewer."), "role")
            change_role(group, member, form.cleaned_data["role"])
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
        rotate_invite(group, form.cleaned_data["days"])
        messages.success(request, _("A new invite link is ready; the old one no longer works."))
    return redirect("campaigns:members", group.pk)


@login_required
@require_POST
def player_change(request: AuthenticatedHttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """Owners correct a player's name (``name``) or remove (``remove``) a player who never
    played (remove_player says why the others stay)."""
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    player = get_object_or_404(Player, pk=player_id, group=group)
    if "remove" in request.POST:
        try:
            remove_player(player)
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
        rename_player(player, form.cleaned_data["name"])
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
    if invite_for(group, request.user) == Invite.EXPIRED:
        request.session.pop(INVITE_SESSION_KEY, None)
        return render(request, "campaigns/join.html", {"expired": True}, status=410)
    context: dict[str, object] = {"group": group, "https_join": _https_join(request)}
    if not request.user.is_authenticated:
        request.session[INVITE_SESSION_KEY] = token
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={request.path}")
        return render(request, "campaigns/join.html", {**context, "anonymous": True})
    if request.method == "POST":
        try:
            groups_services.join(group, request.user)
        except CampaignError:  # it expired while the page was open
            return render(request, "campaigns/join.html", {"expired": True}, status=410)
        request.session.pop(INVITE_SESSION_KEY, None)
        return redirect("campaigns:group", group.pk)
    return render(request, "campaigns/join.html", context)


def _https_join(request: HttpRequest) -> str:
    """This invite over `make serve`'s HTTPS, offered (after the trust step) to a phone that
    came over plain HTTP, as invite links lead it; "" where there is no local CA to trust."""
    if request.is_secure() or settings.DOMAIN or not settings.LOCAL_CA_CERT.is_file():
        return ""
    return serve_https_address(request, request.path)


# --- campaign settings --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    """New campaign (from the start, mid-game, or Rebirth) and the list of campaigns."""
    group, membership = get_group_for_user(request.user, group_id, write=request.method == "POST")
    form = CampaignForm(request.POST or None)
    state = campaign_state(group.current_campaign())
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
            new_campaign(group, data["kind"], data["start_chapter"], data["passed"])
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
