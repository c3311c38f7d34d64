"""The REST API of a group's history (docs/api.md, "REST API"): exports (JSON, CSV, a
session for BG Stats) and imports (a short history at once, a long one by the worker).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import get_group_for_user
from campaigns.groups.api import GroupOut
from campaigns.history import exports, import_jobs
from campaigns.models import HistoryImport, Session
from config.http import AuthenticatedRequest, api_view, attachment
from config.openapi import THROTTLED


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
    return attachment(
        exports.attempts_csv(group), "text/csv; charset=utf-8", exports.attempts_csv_name(group)
    )


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
    started = import_jobs.start_import(request.user, request.data)
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
