"""The hints API (docs/api.md, "REST API"): ask for a hint, watch it, cancel it.

The serializer checks the shape; the hint services decide, exactly as for the pages:
the same validation (400 field by field), the same dedupe and reuse, the same limits
(429), the same visibility (404 for hints the caller may not see).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import get_group_for_user
from config.http import AuthenticatedRequest, api_view
from config.i18n import current_lang
from config.ids import id_field
from config.openapi import CLOCK_VALUE
from solver import services
from solver.access import get_hint_for_user
from solver.hint_inputs import parse_input
from solver.models import HintRequest

# The colour notation's letters (case and spaces do not matter); rules.seats says the rest.
COLOURS_PATTERN = r"^[SMsm+/ ]+$"
MOST_FACE_UP = 4 + 3  # four players, and three Bonus tokens flipped
UNREACHABLE = gettext_noop(
    "The solver is unreachable right now. Your hint is kept and starts by itself when the "
    "solver is back; or ask again in a minute."
)


@extend_schema_field(CLOCK_VALUE)
class ClockField(serializers.JSONField):
    """A catalogue id or a clock definition; the rules engine checks which (400 at ``clock``)."""


@extend_schema_field({"type": "array", "items": {"type": "string"}, "maxItems": 4})
class NamesField(serializers.JSONField):
    """The players' names in seat order; the hint services check them (400 at ``names``)."""


class HintIn(serializers.Serializer):
    clock = ClockField(
        help_text='A clock id like "1-1" (the group\'s own transcription when `group` is '
        "given), or a clock definition object."
    )
    colours = serializers.RegexField(
        COLOURS_PATTERN,
        max_length=40,
        help_text="The seats' colours, like SSMM/MMSS/SMSM or SSMM+SM/SMMM+SS.",
    )
    face_up = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MOST_FACE_UP,
        help_text="Face-up cards allowed, 0..players+3 (default: the player count).",
    )
    base_rules = serializers.BooleanField(
        default=False,
        help_text="Never use other tables' definitions: a clock whose special rules your "
        "table does not know is played by the base rules only. (Without any known "
        "definition, the base rules are used anyway; `result.definition` says which.)",
    )
    group = id_field(
        required=False, allow_null=True, help_text="A group you belong to (its members see it)."
    )
    names = NamesField(
        required=False,
        allow_null=True,
        help_text="The players' names in seat (play) order, one per seat, as in `colours`; the "
        "words then speak to them by name. A wrong count, an empty or a repeated name is a 400.",
    )
    slip_rate = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="The chance, 0 to 0.5, that a simulated decision slips (half misread a "
        "face-down card by 2, half play a random move). Default: with `group`, the table's own "
        "rate (as `table.slip_rate` of the group's statistics) rounded to 0.02, 0.05, 0.08, "
        "0.12 or 0.18 once it has one; else 0.05. The search selects on the rate with slips; "
        "`slip_rate_source` says which was used.",
    )
    community = serializers.BooleanField(
        default=True,
        help_text="With `group`, for a clock the group has not transcribed: use the definition "
        "other tables confirmed, if there is one (see `definition_source`); false: the base "
        "rules instead.",
    )


class HintOut(serializers.ModelSerializer):
    clock = serializers.CharField(source="clock_id")
    stage = serializers.CharField(source="stage_label")
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()
    failure = serializers.CharField(source="get_failure_display")
    answered = serializers.ChoiceField(
        choices=["plan_book", "computed"],
        allow_null=True,
        read_only=True,
        help_text="When done: `plan_book` (answered at once from a result stored before, for "
        "these colours or the same game seated another way) or `computed` (solved now).",
    )
    slip_rate_source = serializers.ChoiceField(
        choices=["request", "table", "default"],
        read_only=True,
        help_text="Why the hint planned at `slip_rate`: `request` (given), `table` (the "
        "group's own rate, learned from its hinted clocks) or `default` (0.05).",
    )
    result = serializers.SerializerMethodField(
        help_text="When done: {plan, pass_rate, interval, baseline_rate, odds, games, words, "
        "lines, details, words_all, partial, definition, slip_rate, slip_rate_source, "
        "pass_rate_with_slips, "
        "interval_with_slips, alternatives, ignored_rules, odds_upper_bound}; "
        "`ignored_rules` are the words of the rules the plan does not know (kind "
        "'described'); with any, `odds_upper_bound` is true: the rates and odds are at most "
        "those. The words speak to `names` in the caller's language; `definition` {source, "
        "fingerprint, base_rules, words} says which rules the hint played by.",
    )

    class Meta:
        model = HintRequest
        fields = [
            "id",
            "url",
            "page",
            "clock",
            "colours",
            "players",
            "names",
            "face_up",
            "slip_rate",
            "slip_rate_source",
            "base_rules",
            "definition_source",
            "definition_fingerprint",
            "group",
            "status",
            "progress",
            "stage",
            "result",
            "partial",
            "answered",
            "failure",
            "queued_at",
            "started_at",
            "finished_at",
        ]

    @extend_schema_field({"type": "object", "nullable": True})
    def get_result(self, hint: HintRequest) -> dict[str, Any] | None:
        return hint.result_for(current_lang())

    def get_url(self, hint: HintRequest) -> str:
        return reverse("solver:api-detail", args=[hint.pk])

    def get_page(self, hint: HintRequest) -> str:
        return reverse("solver:detail", args=[hint.pk])


ERRORS = inline_serializer(
    "HintErrors",
    {"detail": serializers.CharField(required=False)},
)


@extend_schema(
    request=HintIn,
    responses={
        202: HintOut,
        200: OpenApiResponse(HintOut, description="The same request is already in progress."),
        400: OpenApiResponse(description="Bad input: {field: [reason]}."),
        404: OpenApiResponse(description="`group` is not a group you belong to."),
        429: OpenApiResponse(ERRORS, description="Too many hints in progress or this hour."),
        503: OpenApiResponse(
            HintOut,
            description="The solver is unreachable (its broker is down): the hint is kept, "
            "queued, and starts by itself when the solver is back; `detail` says so. "
            "Retry-After: 60. Asking again sends it at once.",
        ),
    },
    examples=[
        OpenApiExample(
            "Clock 1-1 at three players",
            value={"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "face_up": 3},
            request_only=True,
        ),
        OpenApiExample(
            "With the players' names in seat order",
            value={"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "names": ["Ann", "Bea", "Cas"]},
            request_only=True,
        ),
    ],
    summary="Ask for a hint",
    description="Queues a solver job (202). The same input already in progress answers that "
    "job (200); the same input finished within a day is reused at once (202, status done).",
    tags=["hints"],
)
@api_view(["POST"])
def hint_create(request: AuthenticatedRequest) -> Response:
    shape = HintIn(data=request.data)
    shape.is_valid(raise_exception=True)
    data: dict[str, Any] = shape.validated_data
    group = None
    if data.get("group"):  # an outsider: 404; a viewer, who may not attach hints to it: 403
        group = get_group_for_user(request.user, data["group"], write=True)[0]
    # A HintError (400) or HintLimitReached (429) rises to config.api.exception_handler.
    hint_input = parse_input(
        data["clock"],
        data["colours"],
        data.get("face_up"),
        data["base_rules"],
        group,
        community=data["community"],
        names=data.get("names"),
        slip_rate=data.get("slip_rate"),
    )
    hint, created = services.request_hint(
        request.user,
        hint_input,
        group=group,
        campaign=group.current_campaign() if group else None,
        lang=current_lang(),
    )
    hint.refresh_from_db()  # sent_at, as the send after the commit left it
    headers = {"Location": HintOut().get_url(hint)}
    if hint.waiting_for_broker:
        # The broker could not take the job: the row stays queued and starts by itself once
        # the broker is back (jobs.resend_queued); asking again sends it at once.
        body = {**HintOut(hint).data, "detail": _(UNREACHABLE)}
        return Response(body, status=503, headers={**headers, "Retry-After": "60"})
    code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
    return Response(HintOut(hint).data, status=code, headers=headers)


@extend_schema(
    responses={200: HintOut, 404: OpenApiResponse(description="Not yours to see.")},
    summary="A hint's status, progress and result",
    tags=["hints"],
)
@api_view(["GET"])
def hint_status(request: AuthenticatedRequest, hint_id: int) -> Response:
    hint = get_hint_for_user(request.user, hint_id)
    return Response(HintOut(hint).data)


@extend_schema(
    request=None,
    responses={
        200: HintOut,
        403: OpenApiResponse(description="Only the asker may cancel."),
        404: OpenApiResponse(description="Not yours to see."),
    },
    summary="Cancel a queued or running hint",
    description="Cancelling a hint that has already ended changes nothing.",
    tags=["hints"],
)
@api_view(["POST"])
def hint_cancel(request: AuthenticatedRequest, hint_id: int) -> Response:
    hint = get_hint_for_user(request.user, hint_id)
    if hint.user_id != request.user.pk:
        return Response(
            {"detail": _("Only the player who asked for this hint can cancel it.")},
            status=status.HTTP_403_FORBIDDEN,
        )
    services.cancel(hint)
    return Response(HintOut(hint).data)
