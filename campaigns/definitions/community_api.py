"""The API of shared transcriptions (``campaigns.definitions.community``): the definitions other
tables typed for a clock, adopting one, reporting one. Same access as every group resource: 404
for outsiders, 403 for viewers on writes; and 404 for a clock of a chapter the group has
not opened (spoilers), as for a definition it cannot see. Refusals rise to
``config.api.exception_handler`` (400 at their field, 429 for the per-user limit)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import clock_or_404, get_group_for_user
from campaigns.definitions import community
from config.http import AuthenticatedRequest, api_view

NOT_SEEN = OpenApiResponse(
    description="Not a member, an unknown clock or definition, or a chapter not opened yet."
)


class SharedOut(serializers.Serializer):
    fingerprint = serializers.CharField(help_text="The short name of the canonical definition.")
    definition = serializers.JSONField(help_text="The clock definition, in canonical form.")
    groups = serializers.IntegerField(help_text="Tables that typed it themselves (not adopted).")
    confirmed = serializers.BooleanField(
        help_text=(
            f"At least {community.CONFIRMED_AT} tables with no person in common (owners, "
            "members who may write, and whoever typed it) typed it themselves: one person, "
            "or one table with several accounts, cannot confirm rules alone."
        )
    )
    mine = serializers.BooleanField(help_text="Your table's latest version is this definition.")


class AdoptIn(serializers.Serializer):
    clock = serializers.CharField(max_length=20)
    fingerprint = serializers.CharField(max_length=16)


class VersionOut(serializers.Serializer):
    clock = serializers.CharField(source="clock_id")
    version = serializers.IntegerField()
    definition = serializers.JSONField()
    fingerprint = serializers.CharField()
    adopted = serializers.BooleanField()
    created = serializers.DateTimeField()


class ReportIn(serializers.Serializer):
    reason = serializers.CharField(max_length=community.REASON_LENGTH)


@extend_schema(
    responses={200: SharedOut(many=True), 404: NOT_SEEN},
    summary="Definitions other tables transcribed for a clock",
    description="Most groups first; empty when your group does not share with other tables.",
    tags=["community"],
)
@api_view(["GET"])
def shared_list(request: AuthenticatedRequest, group_id: int, clock_id: str) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    shared = community.shared_definitions(group, clock_or_404(clock_id))
    return Response([item.to_json() for item in shared])


@extend_schema(
    request=AdoptIn,
    responses={
        201: VersionOut,
        400: OpenApiResponse(description="Bad input: {field: [reason]}."),
        403: OpenApiResponse(description="A viewer."),
        404: NOT_SEEN,
        429: OpenApiResponse(description="Too many new versions this hour."),
    },
    summary="Adopt another table's definition as your new version",
    tags=["community"],
)
@api_view(["POST"])
def adopt(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = AdoptIn(data=request.data)
    data.is_valid(raise_exception=True)
    clock_id = clock_or_404(data.validated_data["clock"])
    row = community.adopt(group, clock_id, data.validated_data["fingerprint"], request.user)
    return Response(VersionOut(row).data, status=status.HTTP_201_CREATED)


@extend_schema(
    request=ReportIn,
    responses={
        201: OpenApiResponse(
            inline_serializer("ReportOut", {"reason": serializers.CharField()}),
            description="Reported to the site's staff.",
        ),
        400: OpenApiResponse(description="Bad input: {field: [reason]}."),
        403: OpenApiResponse(description="A viewer."),
        404: NOT_SEEN,
    },
    summary="Report a definition that looks wrong",
    tags=["community"],
)
@api_view(["POST"])
def report(
    request: AuthenticatedRequest, group_id: int, clock_id: str, fingerprint: str
) -> Response:
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = ReportIn(data=request.data)
    data.is_valid(raise_exception=True)
    row = community.report(
        group, clock_or_404(clock_id), fingerprint, request.user, data.validated_data["reason"]
    )
    return Response({"reason": row.reason}, status=status.HTTP_201_CREATED)
