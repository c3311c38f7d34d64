"""The REST API of clock definitions (docs/api.md, "REST API"): the catalogue, checking a
layout against any clock, and a group's own versions of its clocks (transcriptions).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import clock_or_404, get_group_for_user
from campaigns.api_common import FIELD_ERRORS, WRITE_ERRORS
from campaigns.definitions.services import transcribe
from config.http import AuthenticatedRequest, api_view
from config.i18n import current_lang
from rules.catalogue import CLOCK_IDS, get_clock
from rules.clock import MAX_RULES, Clock
from rules.inputs import check_layout, clock_from_value


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
    return Response(_clock_json(get_clock(clock_or_404(clock_id)), current_lang()))


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
    row = transcribe(group, clock, values, request.user)
    return Response(TranscriptionOut(row).data, status=status.HTTP_201_CREATED)
