"""The OpenAPI schema's account of errors: every status code an operation can answer, with
the body it really has.

Views document their successes (and any refusal with a body of its own); ``AutoSchema``
adds what follows from how every API view works, so that a new endpoint is documented
truthfully without repeating it:

- 400 when the operation reads a body or a query: the parser's ``{"detail": reason}`` or a
  serializer's or service's ``{field: [reason, ...]}`` (nested for nested input);
- 401 for a caller who is not signed in or whose token is not valid; 403 for one whose
  role may not do this;
- 404 when the path names an object: a group the caller does not belong to, or no such one;
- 415 when a body is not JSON; 429 when the view is throttled.

An error response a view documents without a body gets the real one.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

DETAIL: dict[str, Any] = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
REASONS: dict[str, Any] = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Why the value was refused, in the caller's language.",
}
# A serializer's errors mirror its input: a list of reasons per field, an object per nested
# object, and for a list an object keyed by the index of each refused item.
FIELD_ERRORS: dict[str, Any] = {
    "type": "object",
    "description": '{"field": [reason, ...]}, or {"detail": reason} when the body is not '
    "readable; nothing was recorded.",
    "additionalProperties": {
        "anyOf": [REASONS, {"type": "object"}, {"type": "string"}],
    },
}

BAD_REQUEST = OpenApiResponse(FIELD_ERRORS, description="Bad input: nothing was recorded.")
NOT_FOUND = OpenApiResponse(
    DETAIL, description="No such object, or it belongs to a group you are not a member of."
)
UNAUTHENTICATED = OpenApiResponse(
    DETAIL, description="Not signed in, or the token is not valid (WWW-Authenticate: Token)."
)
FORBIDDEN = OpenApiResponse(DETAIL, description="Your role in the group may not do this.")
UNSUPPORTED = OpenApiResponse(DETAIL, description="The body is not JSON.")
THROTTLED = OpenApiResponse(DETAIL, description="Too many requests: try again later.")

_DEFAULT_BODIES = {"400": FIELD_ERRORS}


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        implied: dict[str, OpenApiResponse] = {}
        takes_body = self.method in ("POST", "PUT", "PATCH")
        # A service may refuse any change, even one without a body (DELETE).
        changes = self.method not in ("GET", "HEAD", "OPTIONS")
        if changes or self._get_filter_parameters() or self._query_parameters():
            implied["400"] = BAD_REQUEST
        if self.view.get_authenticators() and self.view.get_permissions():
            implied["401"] = UNAUTHENTICATED
        if self.view.get_permissions() or self.view.get_authenticators():
            implied["403"] = FORBIDDEN
        if "{" in self.path:
            implied["404"] = NOT_FOUND
        if takes_body:
            implied["415"] = UNSUPPORTED
        if self.view.get_throttles():
            implied["429"] = THROTTLED
        for code, response in implied.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code, None, direction)
        for code, response in responses.items():
            if code >= "400" and "content" not in response:
                body = _DEFAULT_BODIES.get(code, DETAIL)
                filled = self._get_response_for_code(body, code, None, direction)
                responses[code] = {**filled, "description": response.get("description", "")}
        return responses

    def _query_parameters(self) -> list[OpenApiParameter]:
        return [
            p
            for p in self.get_override_parameters()
            if isinstance(p, OpenApiParameter) and p.location == OpenApiParameter.QUERY
        ]


def _clock_definition() -> dict[str, Any]:
    from rules.catalogue import CLOCK_IDS
    from rules.clock import MAX_RULES
    from rules.kinds import RULE_KINDS

    return {
        "type": "object",
        "description": "A clock definition: its id, where the hand points, the 24 limit "
        "(null: lifted) and its special rules.",
        "properties": {
            "id": {"type": "string", "enum": list(CLOCK_IDS)},
            "chapter": {"type": "integer", "minimum": 1, "maximum": 10, "nullable": True},
            "number": {"type": "integer", "minimum": 1, "maximum": 4, "nullable": True},
            "start": {"type": "integer", "minimum": 1, "maximum": 6},
            "cap": {"type": "integer", "minimum": 1, "nullable": True},
            "rules": {
                "type": "array",
                "maxItems": MAX_RULES,
                "items": {
                    "type": "object",
                    "properties": {"kind": {"type": "string", "enum": sorted(RULE_KINDS)}},
                    "required": ["kind"],
                },
            },
            "transcribed": {"type": "boolean"},
        },
        "required": ["id", "rules"],
        "additionalProperties": False,
    }


CLOCK_DEFINITION = _clock_definition()
# What a "clock" input takes: a catalogue id, or a definition of one's own.
CLOCK_VALUE: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "enum": CLOCK_DEFINITION["properties"]["id"]["enum"]},
        CLOCK_DEFINITION,
    ]
}
