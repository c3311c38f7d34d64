"""The REST API of playing a campaign (docs/api.md, "REST API"): where the group stands,
attempts, the Sleeve of Regrets, undo and redo, and the history of changes. Serializers check
the shape of input; ``campaigns.play.services`` decides, exactly as for the pages.

Permissions, the same everywhere (``campaigns.access``): a group's resources are 404 for
non-members; viewers read but get 403 on every write; only owners manage members. Refusals
rise from the services and ``config.api.exception_handler`` answers them: 400 with
``{field: [reason]}``, in the caller's language. Writes that record something accept an
``Idempotency-Key`` header (or ``request_key`` in the body): sending the same key twice
records once and answers the first result again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import get_group_for_user
from campaigns.api_common import IDEMPOTENCY, WRITE_ERRORS, expected_event_field, request_key
from campaigns.errors import CampaignError
from campaigns.models import NAME_LENGTH, NOTES_LENGTH, Attempt
from campaigns.play import services as play_services
from campaigns.play.redo import redo as redo_change
from campaigns.play.services import record_attempt, retrieve, skip
from campaigns.play.state import campaign_state
from config.http import AuthenticatedRequest, api_view
from config.ids import id_field
from rules.game import BONUS_TOKENS, PLAYER_COUNTS


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
    expected_event = expected_event_field()


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
    expected_event = expected_event_field()


class RetrieveIn(serializers.Serializer):
    clocks = serializers.ListField(child=serializers.CharField(max_length=20), min_length=1)
    request_key = serializers.CharField(max_length=64, required=False, allow_blank=True)
    expected_event = expected_event_field()


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    clock = serializers.CharField(source="clock_id")
    created = serializers.DateTimeField()
    undone = serializers.DateTimeField(allow_null=True)


@extend_schema(responses={200: ProgressOut}, summary="Where the group stands")
@api_view(["GET"])
def progress(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    state = campaign_state(group.current_campaign())
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
    attempt = record_attempt(
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
        request_key=request_key(request, values),
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
        return Response({"sleeve": campaign_state(group.current_campaign()).sleeve})
    return _sleeve_write(request, group_id, ClockIn, skip, "clock", status.HTTP_201_CREATED)


@extend_schema(
    request=RetrieveIn,
    responses={200: ProgressOut, **WRITE_ERRORS, **STALE},
    parameters=[IDEMPOTENCY],
    summary="Put clocks from the Sleeve on top of the stack",
)
@api_view(["POST"])
def sleeve_retrieve(request: AuthenticatedRequest, group_id: int) -> Response:
    return _sleeve_write(request, group_id, RetrieveIn, retrieve, "clocks", status.HTTP_200_OK)


def _sleeve_write(
    request: AuthenticatedRequest,
    group_id: int,
    shape: type[serializers.Serializer[Any]],
    act: Callable[..., object],
    field: str,
    code: int,
) -> Response:
    """A skip into the Sleeve or a retrieval from it: ``act(campaign, user, data[field],
    idempotency key, expected event)`` on the group's current campaign, for a writer; the
    new progress."""
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = shape(data=request.data)
    data.is_valid(raise_exception=True)
    campaign = group.current_campaign()
    act(
        campaign,
        request.user,
        data.validated_data[field],
        request_key(request, data.validated_data),
        data.validated_data.get("expected_event"),
    )
    campaign.refresh_from_db()
    return Response(campaign_state(campaign).to_json(), status=code)


class UndoIn(serializers.Serializer):
    event = id_field(
        help_text="The change to undo (the last one, as the board shows it). When it is no "
        "longer the last undoable change (undone already, or another change came after it), "
        "nothing is undone: 409 with the fresh progress."
    )
    expected_event = expected_event_field()


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
    event = play_services.undo(
        group.current_campaign(),
        request.user,
        data.validated_data.get("event"),
        data.validated_data.get("expected_event"),
        again_is_stale=True,
    )
    return Response(EventOut(event).data)


class RedoIn(serializers.Serializer):
    event = id_field(
        help_text="The undo to revert: its id in the history (kind `undone`), which is also "
        "the progress `version` right after it. When it is no longer the undo a Redo would "
        "revert (redone already, or a change was recorded after it), nothing is redone: 409 "
        "with the fresh progress."
    )
    expected_event = expected_event_field()


@extend_schema(
    request=RedoIn,
    responses={200: EventOut, **WRITE_ERRORS, **STALE},
    summary="Redo the change last undone",
)
@api_view(["POST"])
def redo(request: AuthenticatedRequest, group_id: int) -> Response:
    """Put back the change the undo ``event`` reverted, if nothing was recorded since; the
    answer is that change, no longer undone."""
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = RedoIn(data=request.data)
    data.is_valid(raise_exception=True)
    event = redo_change(
        group.current_campaign(),
        request.user,
        data.validated_data["event"],
        data.validated_data.get("expected_event"),
        again_is_stale=True,
    )
    return Response(EventOut(event).data)


@extend_schema(responses={200: EventOut(many=True)}, summary="The campaign's history")
@api_view(["GET"])
def events(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    return Response(EventOut(group.current_campaign().events.order_by("id"), many=True).data)
