"""``POST /api/layouts/postmortem/``: was it winnable? (docs/api.md, "REST API").

The same object as ``python manage.py postmortem --json``: both read their input with
``solver.core.oracle.postmortem.postmortem_of_text``. Open to every signed-in user, like
``POST /api/layouts/check/``, whose input (``clock`` an id or a definition, ``layout`` in
either form) it takes, with an optional table size.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from config.http import AuthenticatedRequest, api_view
from config.openapi import BAD_REQUEST
from rules.game import PLAYER_COUNTS
from rules.inputs import clock_from_value
from solver.api import ClockField
from solver.core.oracle.postmortem import postmortem_of_text


class PostmortemIn(serializers.Serializer):
    clock = ClockField(help_text='A clock id like "1-1", or a clock definition.')
    layout = serializers.CharField(
        max_length=1000,
        trim_whitespace=False,
        help_text="All 12 cards, in segment form (S3 | M5 | …: the layout rules are judged) "
        "or move form (S3@1 M5@2 …: the placement rules too).",
    )
    players = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=PLAYER_COUNTS[0],
        max_value=PLAYER_COUNTS[-1],
        help_text="The table size. With a layout in move form, the seats follow from the "
        "order (one card per turn from the opener); without it anyone may have held any card.",
    )


POSTMORTEM = inline_serializer(
    "Postmortem",
    {
        "winnable": serializers.BooleanField(
            help_text="Some arrangement of these 12 cards passes the clock."
        ),
        "witness": serializers.CharField(
            allow_null=True,
            help_text="One such arrangement, in the layout's form (check_layout accepts it); "
            "null when not winnable.",
        ),
        "placement_checked": serializers.BooleanField(
            help_text="Placement rules were judged too: the layout was in move form."
        ),
        "special_rules_known": serializers.BooleanField(
            help_text="False for a clock not transcribed yet: only its known rules were used."
        ),
        "unchecked": serializers.ListField(
            child=serializers.CharField(),
            help_text="The words of the rules Timekeeper cannot judge (kind 'described'): "
            "winnable as far as the known rules go.",
        ),
    },
)


@extend_schema(
    request=PostmortemIn,
    responses={200: POSTMORTEM, 400: BAD_REQUEST},
    examples=[
        OpenApiExample(
            "A failed layout of clock 1-1",
            value={"clock": "1-1", "layout": "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"},
            request_only=True,
        )
    ],
    summary="Was it winnable?",
)
@api_view(["POST"])
def layout_postmortem(request: AuthenticatedRequest) -> Response:
    """Could the 12 cards of ``layout`` have passed the clock, and one arrangement that
    would have; 400 with the reason on bad input (a layout without all 12 cards among it)."""
    data = PostmortemIn(data=request.data)
    data.is_valid(raise_exception=True)
    clock = clock_from_value(data.validated_data["clock"])
    answer = postmortem_of_text(
        clock, data.validated_data["layout"], data.validated_data.get("players")
    )
    return Response(answer.to_json())
