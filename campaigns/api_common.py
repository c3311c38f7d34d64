"""What the campaigns API modules share: the documented errors of a write and the
``Idempotency-Key`` header (docs/api.md, "REST API")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request

from config.ids import MAX_ID
from config.openapi import BAD_REQUEST

# 400, 403, 404 and 415 are documented for every operation by config.openapi.AutoSchema.
FIELD_ERRORS = BAD_REQUEST


WRITE_ERRORS = {400: BAD_REQUEST}


IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any string up to 64 characters; a repeated key records nothing new.",
)


def request_key(request: Request, data: dict[str, Any]) -> str:
    """The idempotency key of a write: ``request_key`` in the body, else the header."""
    return str(data.get("request_key") or request.headers.get("Idempotency-Key", ""))[:65]


def expected_event_field() -> serializers.IntegerField:
    """The optional ``expected_event`` of a write (the stale-write guard)."""
    return serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_ID,
        help_text="The `version` your view of the campaign was drawn from (optional). If a "
        "newer change touched the same clock, nothing is recorded and the answer is 409 with "
        "the current progress.",
    )
