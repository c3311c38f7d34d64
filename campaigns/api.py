"""The REST API of campaigns (docs/api.md, "REST API"): serializers check the shape of input,
the services in ``campaigns.services`` decide, exactly as for the HTML pages.

Permissions, the same everywhere (``campaigns.access``): a group's resources are 404 for
non-members; viewers read but get 403 on every write; only owners manage members. Refusals
rise from the services and ``config.api.exception_handler`` answers them: 400 with
``{field: [reason]}``, in the caller's language. Writes that record something accept an
``Idempotency-Key`` header (or ``request_key`` in the body): sending the same key twice
records once and answers the first result again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns import services
from campaigns.access import get_group_for_user
from campaigns.history import exports, imports
from campaigns.models import (
    NAME_LENGTH,
    NOTES_LENGTH,
    Attempt,
    Campaign,
    Group,
    HistoryImport,
    Membership,
    Player,
    Session,
)
from campaigns.services import CampaignError
from config.http import AuthenticatedRequest, api_view
from config.i18n import current_lang
from config.ids import MAX_ID, id_field
from config.openapi import BAD_REQUEST, THROTTLED
from rules.catalogue import CLOCK_IDS, get_clock
from rules.clock import MAX_RULES, Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.inputs import check_layout, clock_from_value

# 400, 403, 404 and 415 are documented for every operation by config.openapi.AutoSchema.
FIELD_ERRORS = BAD_REQUEST
WRITE_ERRORS = {400: BAD_REQUEST}

IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any string up to 64 characters; a repeated key records nothing new.",
)


def _key(request: Request, data: dict[str, Any]) -> str:
    return str(data.get("request_key") or request.headers.get("Idempotency-Key", ""))[:65]


# --- serializers --------------------------------------------------------------------------


class GroupIn(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LENGTH)
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH), max_length=12, default=list
    )


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class GroupOut(serializers.ModelSerializer):
    players: serializers.Field = PlayerOut(many=True, read_only=True)

    class Meta:
        model = Group
        fields = ["id", "name", "players", "created"]


class ProgressOut(serializers.Serializer):
    campaign = serializers.IntegerField()
    kind = serializers.CharField()
    chapter = serializers.IntegerField()
    clock = serializers.CharField(allow_null=True, help_text="The clock the group plays next.")
    bonus_tokens = serializers.IntegerField(
        help_text=f"Bonus tokens flipped face up (0–{BONUS_TOKENS})."
    )
    passed = serializers.ListField(child=serializers.CharField())
    sleeve = serializers.ListField(child=serializers.CharField())
    attempted = serializers.IntegerField(help_text="Numbered clocks attempted (0–40).")
    attempts = serializers.IntegerField(help_text="Attempts recorded in the campaign.")
    completed = serializers.BooleanField()
    rebirth_unlocked = serializers.BooleanField()
    version = serializers.IntegerField(
        help_text="The id of the campaign's last event (an undo is one), 0 before any. Send it "
        "back as `expected_event` so a change made from a stale view is refused (409)."
    )


class StaleOut(ProgressOut):
    detail = serializers.CharField(help_text="What another phone changed meanwhile, and when.")


STALE = {
    409: OpenApiResponse(
        StaleOut,
        description="`expected_event` is stale: another change touched the same clock. "
        "Nothing was recorded; the body is the current progress with `detail`.",
    )
}


def _expected_event() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_ID,
        help_text="The `version` your view of the campaign was drawn from (optional). If a "
        "newer change touched the same clock, nothing is recorded and the answer is 409 with "
        "the current progress.",
    )


class AttemptIn(serializers.Serializer):
    clock = serializers.CharField(max_length=20)
    outcome = serializers.ChoiceField(choices=Attempt.Outcome.choices)
    players = serializers.IntegerField(min_value=PLAYER_COUNTS[0], max_value=PLAYER_COUNTS[-1])
    layout = serializers.CharField(max_length=400, required=False, allow_blank=True, default="")
    opener = serializers.CharField(max_length=NAME_LENGTH, required=False, allow_blank=True)
    duration_min = serializers.IntegerField(min_value=0, max_value=24 * 60, required=False)
    notes = serializers.CharField(
        max_length=NOTES_LENGTH, required=False, allow_blank=True, default=""
    )
    session = id_field(required=False)
    request_key = serializers.CharField(max_length=64, required=False, allow_blank=True)
    expected_event = _expected_event()


class AttemptOut(serializers.ModelSerializer):
    clock = serializers.CharField(source="clock_id")
    opener = serializers.CharField(source="opener.name", default=None, allow_null=True)
    duration_min = serializers.SerializerMethodField()
    postmortem = serializers.JSONField(
        allow_null=True,
        read_only=True,
        help_text="For a failure recorded with a layout: was it winnable? The object of "
        "POST /api/layouts/postmortem/ ({winnable, witness, placement_checked, "
        "special_rules_known}); else null.",
    )

    class Meta:
        model = Attempt
        fields = [
            "id",
            "clock",
            "outcome",
            "players",
            "bonus_tokens",
            "face_up",
            "layout",
            "verdict",
            "postmortem",
            "opener",
            "duration_min",
            "notes",
            "clock_version",
            "session",
            "created",
        ]

    def get_duration_min(self, attempt: Attempt) -> int | None:
        return attempt.minutes


class ClockIn(serializers.Serializer):
    clock = serializers.CharField(max_length=20)
    request_key = serializers.CharField(max_length=64, required=False, allow_blank=True)
    expected_event = _expected_event()


class RetrieveIn(serializers.Serializer):
    clocks = serializers.ListField(child=serializers.CharField(max_length=20), min_length=1)
    request_key = serializers.CharField(max_length=64, required=False, allow_blank=True)
    expected_event = _expected_event()


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    clock = serializers.CharField(source="clock_id")
    created = serializers.DateTimeField()
    undone = serializers.DateTimeField(allow_null=True)


class MemberIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)


class RoleIn(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MemberOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role"]


class CampaignIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Campaign.Kind.choices, default=Campaign.Kind.NORMAL)
    start_chapter = serializers.IntegerField(min_value=1, max_value=10, default=1)
    passed = serializers.ListField(
        child=serializers.CharField(max_length=20),
        max_length=40,
        default=list,
        help_text="More clocks already passed, beyond the chapters before start_chapter.",
    )


class CampaignOut(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", "kind", "bonus_tokens", "created", "completed"]


class SessionIn(serializers.Serializer):
    date = serializers.DateField(required=False)
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH), default=list
    )
    notes = serializers.CharField(
        max_length=NOTES_LENGTH, required=False, allow_blank=True, default=""
    )


class SessionOut(serializers.ModelSerializer):
    players: serializers.Field = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="name"
    )

    class Meta:
        model = Session
        fields = ["id", "date", "players", "notes"]


class TranscriptionIn(serializers.Serializer):
    clock = serializers.CharField(max_length=20)
    start = serializers.IntegerField(min_value=1, max_value=6, default=1)
    cap = serializers.IntegerField(allow_null=True, min_value=1, default=24)
    rules = serializers.ListField(child=serializers.DictField(), max_length=MAX_RULES)


class TranscriptionOut(serializers.Serializer):
    clock = serializers.CharField(source="clock_id")
    version = serializers.IntegerField()
    definition = serializers.JSONField()
    fingerprint = serializers.CharField(help_text="The short name of its canonical definition.")
    adopted = serializers.BooleanField(help_text="Taken over from other tables, not typed.")
    created = serializers.DateTimeField()


class LayoutCheckIn(serializers.Serializer):
    clock = serializers.JSONField(help_text='A clock id like "1-1", or a clock definition.')
    layout = serializers.CharField(max_length=1000, trim_whitespace=False)


VERDICT = inline_serializer(
    "Verdict",
    {
        "passed": serializers.BooleanField(),
        "values": serializers.ListField(child=serializers.IntegerField()),
        "violations": serializers.ListField(child=serializers.DictField()),
        "unchecked": serializers.ListField(child=serializers.DictField()),
        "special_rules_known": serializers.BooleanField(),
    },
)


class ClockOut(serializers.Serializer):
    """A clock definition in the public JSON format, with its rules in words."""

    id = serializers.CharField()
    chapter = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    start = serializers.IntegerField(min_value=1, max_value=6)
    cap = serializers.IntegerField(allow_null=True, help_text="Null: values may exceed 24.")
    rules = serializers.ListField(child=serializers.DictField())
    transcribed = serializers.BooleanField()
    described = serializers.ListField(
        child=serializers.CharField(), help_text="Each special rule in words."
    )


def _clock_json(clock: Clock, lang: str) -> dict[str, Any]:
    return {**clock.to_json(), "transcribed": clock.transcribed, "described": clock.describe(lang)}


# --- clocks and layouts (no group) --------------------------------------------------------


@extend_schema(
    responses={200: ClockOut(many=True)}, summary="The clock catalogue", operation_id="clocks_list"
)
@api_view(["GET"])
def clock_list(request: AuthenticatedRequest) -> Response:
    """Every clock definition (docs/api.md's JSON) with ``described``: its rules in words."""
    lang = current_lang()
    return Response([_clock_json(get_clock(c), lang) for c in CLOCK_IDS])


@extend_schema(responses={200: ClockOut}, summary="One clock")
@api_view(["GET"])
def clock_detail(request: AuthenticatedRequest, clock_id: str) -> Response:
    try:
        clock = get_clock(clock_id)
    except RulesError:
        return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    return Response(_clock_json(clock, current_lang()))


@extend_schema(
    request=LayoutCheckIn, responses={200: VERDICT, 400: FIELD_ERRORS}, summary="Check a layout"
)
@api_view(["POST"])
def layout_check(request: AuthenticatedRequest) -> Response:
    """The same object as ``check_layout --json``; 400 with the reason on bad input."""
    data = LayoutCheckIn(data=request.data)
    data.is_valid(raise_exception=True)
    clock = clock_from_value(data.validated_data["clock"])
    verdict = check_layout(clock, data.validated_data["layout"], current_lang())
    return Response(verdict.to_json())


# --- groups -------------------------------------------------------------------------------


@extend_schema(methods=["GET"], responses={200: GroupOut(many=True)}, summary="My groups")
@extend_schema(
    methods=["POST"],
    request=GroupIn,
    responses={201: GroupOut, 400: FIELD_ERRORS},
    summary="New group",
)
@api_view(["GET", "POST"])
def group_list(request: AuthenticatedRequest) -> Response:
    if request.method == "GET":
        groups = Group.objects.filter(memberships__user=request.user.pk).prefetch_related("players")
        return Response(GroupOut(groups, many=True).data)
    data = GroupIn(data=request.data)
    data.is_valid(raise_exception=True)
    group = services.create_group(
        request.user,
        data.validated_data["name"],
        data.validated_data["players"],
    )
    return Response(GroupOut(group).data, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: GroupOut}, summary="A group")
@api_view(["GET"])
def group_detail(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    return Response(GroupOut(group).data)


@extend_schema(responses={200: ProgressOut}, summary="Where the group stands")
@api_view(["GET"])
def progress(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    state = services.campaign_state(group.current_campaign())
    return Response(state.to_json())


@extend_schema(methods=["GET"], responses={200: AttemptOut(many=True)}, summary="Attempts")
@extend_schema(
    methods=["POST"],
    request=AttemptIn,
    responses={201: AttemptOut, **WRITE_ERRORS, **STALE},
    parameters=[IDEMPOTENCY],
    summary="Record an attempt at the next clock",
)
@api_view(["GET", "POST"])
def attempts(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST records an attempt at the clock played next (``clock`` must be it). With a
    ``layout``, the outcome must agree with the rules engine's verdict."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        rows = group.current_campaign().attempts.select_related("opener").order_by("id")
        return Response(AttemptOut(rows, many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = AttemptIn(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    campaign = group.current_campaign()
    opener = None
    if values.get("opener"):
        opener = group.players.filter(name=values["opener"]).first()
        if opener is None:
            raise CampaignError(_("The opener is not a player of this group."), "opener")
    session = None
    if values.get("session") is not None:
        session = campaign.sessions.filter(pk=values["session"]).first()
        if session is None:
            raise CampaignError(_("No such session in this campaign."), "session")
    minutes = values.get("duration_min")
    attempt = services.record_attempt(
        campaign,
        request.user,
        values["clock"],
        values["outcome"],
        values["players"],
        layout=values["layout"],
        opener=opener,
        duration=None if minutes is None else timedelta(minutes=minutes),
        notes=values["notes"],
        session=session,
        request_key=_key(request, values),
        expected_event=values.get("expected_event"),
    )
    return Response(AttemptOut(attempt).data, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"],
    responses={200: inline_serializer("Sleeve", {"sleeve": serializers.ListField()})},
    summary="The Sleeve of Regrets",
)
@extend_schema(
    methods=["POST"],
    request=ClockIn,
    responses={201: ProgressOut, **WRITE_ERRORS, **STALE},
    parameters=[IDEMPOTENCY],
    summary="Skip the clock being played into the Sleeve",
)
@api_view(["GET", "POST"])
def sleeve(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST skips ``clock`` (the clock being played, after a failed attempt) into the Sleeve
    of Regrets, turns the Bonus tokens face down and answers the new progress."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        return Response({"sleeve": services.campaign_state(group.current_campaign()).sleeve})
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = ClockIn(data=request.data)
    data.is_valid(raise_exception=True)
    campaign = group.current_campaign()
    services.skip(
        campaign,
        request.user,
        data.validated_data["clock"],
        _key(request, data.validated_data),
        data.validated_data.get("expected_event"),
    )
    campaign.refresh_from_db()
    return Response(services.campaign_state(campaign).to_json(), status=status.HTTP_201_CREATED)


@extend_schema(
    request=RetrieveIn,
    responses={200: ProgressOut, **WRITE_ERRORS, **STALE},
    parameters=[IDEMPOTENCY],
    summary="Put clocks from the Sleeve on top of the stack",
)
@api_view(["POST"])
def sleeve_retrieve(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = RetrieveIn(data=request.data)
    data.is_valid(raise_exception=True)
    campaign = group.current_campaign()
    services.retrieve(
        campaign,
        request.user,
        data.validated_data["clocks"],
        _key(request, data.validated_data),
        data.validated_data.get("expected_event"),
    )
    campaign.refresh_from_db()
    return Response(services.campaign_state(campaign).to_json())


class UndoIn(serializers.Serializer):
    event = id_field(
        required=False, help_text="The change to undo; repeating it then changes nothing."
    )
    expected_event = _expected_event()


@extend_schema(
    request=UndoIn,
    responses={200: EventOut, **WRITE_ERRORS, **STALE},
    summary="Undo the last change",
)
@api_view(["POST"])
def undo(request: AuthenticatedRequest, group_id: int) -> Response:
    """Undo the last change (or, with ``event``, exactly that one if it is the last)."""
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = UndoIn(data=request.data)
    data.is_valid(raise_exception=True)
    event = services.undo(
        group.current_campaign(),
        request.user,
        data.validated_data.get("event"),
        data.validated_data.get("expected_event"),
    )
    return Response(EventOut(event).data)


@extend_schema(responses={200: EventOut(many=True)}, summary="The campaign's history")
@api_view(["GET"])
def events(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    return Response(EventOut(group.current_campaign().events.order_by("id"), many=True).data)


# --- members ------------------------------------------------------------------------------


@extend_schema(methods=["GET"], responses={200: MemberOut(many=True)}, summary="Members")
@extend_schema(
    methods=["POST"], request=MemberIn, responses={201: MemberOut, **WRITE_ERRORS}, summary="Invite"
)
@api_view(["GET", "POST"])
def members(request: AuthenticatedRequest, group_id: int) -> Response:
    """Everyone sees the members; only owners add one (by username)."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        rows = group.memberships.select_related("user").order_by("id")
        return Response(MemberOut(rows, many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    data = MemberIn(data=request.data)
    data.is_valid(raise_exception=True)
    membership = services.add_member(
        group, data.validated_data["username"], data.validated_data["role"]
    )
    return Response(MemberOut(membership).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["PATCH"], request=RoleIn, responses={200: MemberOut}, summary="Role")
@extend_schema(methods=["DELETE"], request=None, responses={204: None}, summary="Remove")
@api_view(["PATCH", "DELETE"])
def member_detail(request: AuthenticatedRequest, group_id: int, member_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    member = get_object_or_404(group.memberships.select_related("user"), pk=member_id)
    if request.method == "DELETE":
        services.remove_member(group, member)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = RoleIn(data=request.data)
    data.is_valid(raise_exception=True)
    services.change_role(group, member, data.validated_data["role"])
    return Response(MemberOut(member).data)


# --- campaigns, sessions, transcriptions --------------------------------------------------


@extend_schema(methods=["GET"], responses={200: CampaignOut(many=True)}, summary="Campaigns")
@extend_schema(
    methods=["POST"],
    request=CampaignIn,
    responses={201: CampaignOut, **WRITE_ERRORS},
    summary="New campaign",
)
@api_view(["GET", "POST"])
def campaigns(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST starts a new campaign (``start_chapter`` > 1 starts mid-game; ``kind: rebirth``
    once Rebirth is unlocked). The newest campaign is the one played."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        return Response(CampaignOut(group.campaigns.order_by("id"), many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = CampaignIn(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    campaign = services.new_campaign(
        group, values["kind"], values["start_chapter"], values["passed"]
    )
    return Response(CampaignOut(campaign).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses={200: SessionOut(many=True)}, summary="Sessions")
@extend_schema(
    methods=["POST"],
    request=SessionIn,
    responses={201: SessionOut, **WRITE_ERRORS},
    summary="Start",
)
@api_view(["GET", "POST"])
def sessions(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST says who is at the table (``services.fill_in_session``, as the sessions page
    does): the day's session not yet played with its players is filled in, else a new one
    starts; either way the answer is 201 with the session."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        rows = group.current_campaign().sessions.prefetch_related("players")
        return Response(SessionOut(rows, many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = SessionIn(data=request.data)
    data.is_valid(raise_exception=True)
    session = services.fill_in_session(
        group.current_campaign(),
        services.players_named(group, data.validated_data["players"]),
        data.validated_data.get("date"),
        data.validated_data["notes"],
    )
    return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"], responses={200: TranscriptionOut(many=True)}, summary="Transcriptions"
)
@extend_schema(
    methods=["POST"],
    request=TranscriptionIn,
    responses={201: TranscriptionOut, **WRITE_ERRORS},
    summary="Save a new version of a clock",
)
@api_view(["GET", "POST"])
def transcriptions(request: AuthenticatedRequest, group_id: int) -> Response:
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        return Response(TranscriptionOut(group.transcriptions.all(), many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = TranscriptionIn(data=request.data)
    data.is_valid(raise_exception=True)
    values = dict(data.validated_data)
    clock = values.pop("clock")
    row = services.transcribe(group, clock, values, request.user)
    return Response(TranscriptionOut(row).data, status=status.HTTP_201_CREATED)


# --- exports ---------------------------------------------------------------------------


@extend_schema(methods=["GET"], responses={200: OpenApiTypes.OBJECT}, summary="History as JSON")
@api_view(["GET"])
def export_json(request: AuthenticatedRequest, group_id: int) -> Response:
    """The group's re-importable history (``POST /api/groups/import/``)."""
    group, _membership = get_group_for_user(request.user, group_id)
    return Response(exports.export_history(group))


@extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="Attempts as CSV")
@api_view(["GET"])
def export_csv(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group, _membership = get_group_for_user(request.user, group_id)
    return exports.attempts_csv_download(group)


@extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A session for BG Stats")
@api_view(["GET"])
def export_bgstats(request: AuthenticatedRequest, group_id: int, session_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    session = get_object_or_404(Session, pk=session_id, campaign__group=group)
    return Response(exports.bgstats_play(session))


class ImportOut(serializers.ModelSerializer):
    group = serializers.IntegerField(
        source="group_id", allow_null=True, help_text="The new group, once the import is done."
    )
    percent = serializers.IntegerField()

    class Meta:
        model = HistoryImport
        fields = [
            "id",
            "status",
            "events_done",
            "events_total",
            "percent",
            "group",
            "error",
            "created",
        ]


@extend_schema(
    request=OpenApiTypes.OBJECT,
    responses={
        201: GroupOut,
        202: ImportOut,
        429: THROTTLED,
    },
    summary="Import",
)
@api_view(["POST"])
def group_import(request: AuthenticatedRequest) -> Response:
    """A new group from an exported history; the caller owns it. A short history is
    imported at once (201, the group); a long one by the worker (202, the import: follow
    ``GET /api/imports/{id}/`` until its status is ``done`` and it names the group)."""
    started = imports.start_import(request.user, request.data)
    if isinstance(started, HistoryImport):
        location = reverse("api-import", args=[started.pk])
        return Response(
            ImportOut(started).data, status=status.HTTP_202_ACCEPTED, headers={"Location": location}
        )
    return Response(GroupOut(started).data, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ImportOut}, summary="An import under way")
@api_view(["GET"])
def import_detail(request: AuthenticatedRequest, import_id: int) -> Response:
    """How far a long import got; only the person who started it sees it."""
    job = get_object_or_404(HistoryImport, pk=import_id, owner=request.user)
    return Response(ImportOut(job).data)
