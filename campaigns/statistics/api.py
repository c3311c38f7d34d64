"""``GET /api/groups/{id}/statistics/`` and ``…/statistics.csv``: the outlets of
``campaigns.statistics.compute`` for programs. Every field of the answer is declared here, so the
OpenAPI schema documents exactly what is sent.

Query parameters, the same as the statistics page: ``campaign`` (an id of the group's, or
``all``; default the current campaign) and ``players`` (2, 3 or 4). A malformed value is a
400 naming the parameter; a campaign that is not the group's is a 404, like the group of
someone else.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import get_group_for_user
from campaigns.forms import StatisticsFilterForm
from campaigns.models import Group
from campaigns.statistics.compute import group_statistics
from campaigns.statistics.figures import Statistics, UnknownCampaign
from config.http import AuthenticatedRequest, api_view
from config.spreadsheet import SafeWriter

# --- the answer, field by field ---------------------------------------------------------------


class StatisticsScopeOut(serializers.Serializer):
    campaigns = serializers.ListField(
        child=serializers.IntegerField(), help_text="The campaigns counted, by id."
    )
    players = serializers.IntegerField(
        source="players_filter", allow_null=True, help_text="The table size counted, or null."
    )


class StatisticsTotalsOut(serializers.Serializer):
    sessions = serializers.IntegerField(help_text="Sessions with an attempt in scope.")
    attempts = serializers.IntegerField(help_text="Recorded passes and failures.")
    passed = serializers.IntegerField()
    failed = serializers.IntegerField()
    skips = serializers.IntegerField(
        help_text="Clocks put into the Sleeve of Regrets (not attempts; any table size)."
    )
    clocks_passed = serializers.IntegerField(help_text="Clocks passed, counted per campaign.")
    first_try_passes = serializers.IntegerField(help_text="Clocks passed at the first attempt.")
    failed_winnable = serializers.IntegerField(
        help_text="Failed attempts recorded with a layout whose 12 cards could have passed "
        "(as if everyone had seen every card: POST /api/layouts/postmortem/)."
    )
    failed_winnable_unknown = serializers.IntegerField(
        help_text="Failed attempts that look winnable by the rules known of a clock whose "
        "special rules are not transcribed: not in failed_winnable (they may forbid it)."
    )
    minutes = serializers.IntegerField(
        allow_null=True, help_text="Sum of the durations typed; null when none was typed."
    )


class StatisticsCommunityOut(serializers.Serializer):
    groups = serializers.IntegerField(help_text="Other groups that passed the clock (5 or more).")
    median_attempts_to_pass = serializers.IntegerField(
        help_text="Lower median of their campaigns' attempts to pass it."
    )


class StatisticsClockOut(serializers.Serializer):
    clock = serializers.CharField(help_text="1-1 … 10-4, then rebirth when in scope.")
    chapter = serializers.IntegerField(allow_null=True, help_text="Null for rebirth.")
    attempts = serializers.IntegerField()
    passes = serializers.IntegerField()
    skips = serializers.IntegerField()
    attempts_to_pass = serializers.IntegerField(
        allow_null=True,
        help_text="Attempts within one campaign up to and including the first pass; with "
        "campaign=all the lower median over the campaigns that passed it. Null if not passed.",
    )
    first_try = serializers.BooleanField(help_text="Passed at the first attempt (any campaign).")
    minutes = serializers.IntegerField(allow_null=True)
    community = StatisticsCommunityOut(
        allow_null=True,
        help_text="Other tables' figures: null until 5 groups passed the clock, for a chapter "
        "this group has not opened, and for a group that does not share.",
    )


class StatisticsChapterOut(serializers.Serializer):
    chapter = serializers.IntegerField()
    attempts = serializers.IntegerField()
    passes = serializers.IntegerField()
    clocks_passed = serializers.IntegerField()


def interval_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="Wilson 95 % interval of the rate [low, high]; null without attempts.",
    )


class StatisticsPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    attempts = serializers.IntegerField(help_text="Attempts of the sessions the player sat at.")
    passes = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True, help_text="passes ÷ attempts.")
    interval = interval_field()
    opened = serializers.IntegerField(help_text="Attempts the player opened.")
    opened_passes = serializers.IntegerField(help_text="Of those, the ones passed.")


class StatisticsRateOut(serializers.Serializer):
    attempts = serializers.IntegerField()
    passes = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True)
    interval = interval_field()


class StatisticsCountOut(serializers.Serializer):
    attempts = serializers.IntegerField()
    passes = serializers.IntegerField()


StatisticsByPlayersOut = type(
    "StatisticsByPlayersOut",
    (serializers.Serializer,),
    {str(n): StatisticsRateOut(help_text=f"{n} players.") for n in (2, 3, 4)},
)
StatisticsByTokensOut = type(
    "StatisticsByTokensOut",
    (serializers.Serializer,),
    {
        str(n): StatisticsCountOut(help_text=f"{n} Bonus tokens face up during the attempt.")
        for n in (0, 1, 2, 3)
    },
)


class StatisticsSessionOut(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    attempts = serializers.IntegerField()
    passes = serializers.IntegerField()
    clocks_passed_after = serializers.IntegerField(
        help_text="Distinct clocks of the campaign passed up to and including this session."
    )
    minutes = serializers.IntegerField(allow_null=True)


class StatisticsRunOut(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["passed", "failed"])
    length = serializers.IntegerField()


class StatisticsStreaksOut(serializers.Serializer):
    longest_pass = serializers.IntegerField()
    longest_fail = serializers.IntegerField()
    current = StatisticsRunOut(
        allow_null=True, help_text="The run the last attempt belongs to; null without attempts."
    )


StatisticsHintBinOut = type(
    "StatisticsHintBinOut",
    (serializers.Serializer,),
    {
        "from": serializers.FloatField(source="start", help_text="Predicted rate from …"),
        "to": serializers.FloatField(source="end", help_text="… to (the last bin includes 1)."),
        "hints": serializers.IntegerField(help_text="Rated hints in the bin."),
        "predicted": serializers.FloatField(allow_null=True),
        "actual": serializers.FloatField(allow_null=True),
    },
)


class StatisticsHintsAtTableOut(serializers.Serializer):
    slip_rate = serializers.FloatField(help_text="The table's own rate (as `table.slip_rate`).")
    rated = serializers.IntegerField(
        help_text="Rated hints (as in `hints.rated`) whose pass curve is computed."
    )
    predicted_mean = serializers.FloatField(allow_null=True)
    actual_rate = serializers.FloatField(allow_null=True)
    brier = serializers.FloatField(
        allow_null=True,
        help_text="Mean of (predicted − outcome)², each hint predicted by its pass curve read "
        "at `slip_rate`.",
    )
    brier_default = serializers.FloatField(
        allow_null=True,
        help_text="The same hints' Brier score with their curves read at the default 0.05.",
    )
    bins = StatisticsHintBinOut(many=True, help_text="Five bins of width 0.2.")


class StatisticsHintsOut(serializers.Serializer):
    asked = serializers.IntegerField(help_text="Hints finished with a plan.")
    rated = serializers.IntegerField(
        help_text="Hints matched to an outcome: the attempt asked for, else the next attempt "
        "at the same clock and table size within 24 hours after the hint finished."
    )
    predicted_mean = serializers.FloatField(allow_null=True)
    actual_rate = serializers.FloatField(allow_null=True)
    brier = serializers.FloatField(
        allow_null=True, help_text="Mean of (predicted − outcome)²: 0 is perfect."
    )
    bins = StatisticsHintBinOut(many=True, help_text="Five bins of width 0.2.")
    at_table = StatisticsHintsAtTableOut(
        allow_null=True,
        help_text="The same calibration with each hint's prediction read off its pass curve "
        "at the table's own slip rate; null while the table has no estimate.",
    )


class StatisticsTableOut(serializers.Serializer):
    slip_rate = serializers.FloatField(
        allow_null=True,
        help_text="The table's own slip rate (the chance that one of its decisions slips), "
        "learned from every hinted attempt of the group (all campaigns and table sizes, "
        "whatever the filter): the posterior median under a prior with median 0.05. Null "
        "below 8 hinted attempts.",
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="Central 90 % credible interval [low, high]; null below 8 hinted attempts.",
    )
    hinted_attempts = serializers.IntegerField(
        help_text="Attempts matched with a finished hint (as in `hints.rated`) whose pass "
        "curve is computed."
    )
    needed = serializers.IntegerField(help_text="How many more are needed for an estimate.")


class StatisticsOut(serializers.Serializer):
    scope = StatisticsScopeOut(source="*")
    totals = StatisticsTotalsOut()
    clocks = StatisticsClockOut(many=True)
    chapters = StatisticsChapterOut(many=True)
    players = StatisticsPlayerOut(many=True)
    by_players = StatisticsByPlayersOut()
    by_bonus_tokens = StatisticsByTokensOut()
    sessions = StatisticsSessionOut(many=True)
    streaks = StatisticsStreaksOut()
    hints = StatisticsHintsOut()
    table = StatisticsTableOut()


# --- the views ---------------------------------------------------------------------------------

PARAMETERS = [
    OpenApiParameter(
        "campaign",
        OpenApiTypes.STR,
        description="A campaign id of this group, or `all`. Default: the current campaign.",
    ),
    OpenApiParameter("players", OpenApiTypes.INT, enum=[2, 3, 4], description="Table size."),
]
ERRORS = {
    400: OpenApiResponse(description="A malformed parameter: {parameter: [reason]}."),
    404: OpenApiResponse(description="Not a member of this group, or not its campaign."),
}


def _statistics(group: Group, request: AuthenticatedRequest) -> Statistics | Response:
    """The statistics the query parameters ask for, or the 400 that says what is wrong."""
    form = StatisticsFilterForm(request.query_params)
    if not form.is_valid():
        return Response(form.errors, status=status.HTTP_400_BAD_REQUEST)
    try:
        return group_statistics(group, form.cleaned_data["campaign"], form.cleaned_data["players"])
    except UnknownCampaign:
        raise Http404 from None


@extend_schema(
    parameters=PARAMETERS,
    responses={200: StatisticsOut, **ERRORS},
    summary="Statistics",
)
@api_view(["GET"])
def statistics(request: AuthenticatedRequest, group_id: int) -> Response:
    """A group's statistics: clocks, chapters, players, table sizes, Bonus tokens, sessions,
    streaks, hint calibration and other tables' figures."""
    group, _membership = get_group_for_user(request.user, group_id)
    computed = _statistics(group, request)
    if isinstance(computed, Response):
        return computed
    return Response(StatisticsOut(computed).data)


CLOCK_COLUMNS = [
    "clock",
    "chapter",
    "attempts",
    "passes",
    "skips",
    "attempts_to_pass",
    "first_try",
    "minutes",
    "community_groups",
    "community_median_attempts_to_pass",
]
PLAYER_COLUMNS = [
    "player",
    "name",
    "attempts",
    "passes",
    "rate",
    "interval_low",
    "interval_high",
    "opened",
    "opened_passes",
]


def statistics_csv_text(computed: Statistics) -> str:
    """The per-clock table, a blank line, then the per-player table (each with its header)."""
    writer = SafeWriter()
    writer.writerow(CLOCK_COLUMNS)
    for clock in computed.clocks:
        community = clock.community
        writer.writerow(
            _cells(
                clock.clock,
                clock.chapter,
                clock.attempts,
                clock.passes,
                clock.skips,
                clock.attempts_to_pass,
                clock.first_try,
                clock.minutes,
                community and community.groups,
                community and community.median_attempts_to_pass,
            )
        )
    writer.writerow([])
    writer.writerow(PLAYER_COLUMNS)
    for player in computed.players:
        low, high = player.interval or (None, None)
        writer.writerow(
            _cells(
                player.id,
                player.name,
                player.attempts,
                player.passes,
                player.rate,
                low,
                high,
                player.opened,
                player.opened_passes,
            )
        )
    return writer.getvalue()


def _cells(*values: Any) -> list[Any]:
    """Empty for null, 4 decimals for rates, true/false for yes-no (names are guarded against
    spreadsheet formulas by ``config.spreadsheet``, as in every CSV)."""
    cells: list[Any] = []
    for value in values:
        if value is None:
            cells.append("")
        elif isinstance(value, bool):
            cells.append("true" if value else "false")
        elif isinstance(value, float):
            cells.append(f"{value:.4f}")
        else:
            cells.append(value)
    return cells


@extend_schema(
    parameters=PARAMETERS,
    responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS},
    summary="Statistics as CSV",
)
@api_view(["GET"])
def statistics_csv(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The per-clock and per-player tables of the statistics, for a spreadsheet."""
    group, _membership = get_group_for_user(request.user, group_id)
    computed = _statistics(group, request)
    if isinstance(computed, Response):
        return computed
    response = HttpResponse(statistics_csv_text(computed), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="statistics-{group.pk}.csv"'
    return response
