"""The statistics page: the questions a table asks, answered from ``campaigns.statistics.compute``.

The filters (campaign, table size) are a plain GET form, so the page works without
JavaScript; with htmx, changing a filter swaps the ``body`` partial of the same template.
Charts are SVG written by the template from ``campaigns.statistics.charts``; each has a
table or sentences beside it that say the same.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from campaigns.access import get_group_for_user
from campaigns.forms import StatisticsFilterForm
from campaigns.models import Group
from campaigns.statistics import charts
from campaigns.statistics.compute import group_statistics
from campaigns.statistics.figures import CampaignLine, Statistics, Tally, UnknownCampaign
from campaigns.statistics.table_rate import TableRate, one_in
from config.http import AuthenticatedHttpRequest

TEMPLATE = "campaigns/statistics.html"


@login_required
@require_GET
@vary_on_headers("HX-Request")
def statistics_page(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    group, _membership = get_group_for_user(request.user, group_id)
    form = StatisticsFilterForm(request.GET)
    if not form.is_valid():
        lines = [
            CampaignLine(c.pk, n, c.kind, [])
            for n, c in enumerate(group.campaigns.order_by("id"), start=1)
        ]
        context = {"group": group, "form": form, "campaign_options": _options(lines)}
        return render(request, TEMPLATE, context, status=400)
    campaign, players = form.cleaned_data["campaign"], form.cleaned_data["players"]
    try:
        stats = group_statistics(group, campaign, players)
    except UnknownCampaign:
        raise Http404 from None
    context = _context(group, form, stats, campaign, players)
    template = f"{TEMPLATE}#body" if request.htmx else TEMPLATE
    return render(request, template, context)


def _options(lines: list[CampaignLine]) -> list[tuple[str, str]]:
    """The campaign filter's choices: the newest (current) campaign first, then older ones,
    then every campaign together."""
    options = []
    for index, line in enumerate(reversed(lines)):
        name = charts.campaign_name(line)
        if index == 0:
            name = _("%(name)s, current") % {"name": name}
        options.append((str(line.id), name))
    options.append(("all", _("All campaigns")))
    return options


def _context(
    group: Group,
    form: StatisticsFilterForm,
    stats: Statistics,
    campaign: int | str | None,
    players: int | None,
) -> dict[str, Any]:
    lines = stats.all_campaigns
    selected = "all" if campaign == "all" else str(stats.campaigns[0])
    if campaign == "all":
        scope = _("All campaigns")
    else:
        scope = next(charts.campaign_name(line) for line in lines if line.id == stats.campaigns[0])
    if players is not None:
        scope = _("%(scope)s, %(n)d players") % {"scope": scope, "n": players}
    most = max((s.attempts for s in stats.sessions), default=0) or 1
    comparisons = charts.comparisons(stats)
    numbers = {line.id: line.number for line in lines}
    return {
        "group": group,
        "form": form,
        "stats": stats,
        "scope": scope,
        "selected_campaign": selected,
        "selected_players": "" if players is None else str(players),
        "campaign_options": _options(lines),
        "heat": charts.heat_map(stats),
        "progress": charts.progress_chart(stats),
        "player_rows": [(p, charts.rate_bar(Tally(p.attempts, p.passes))) for p in stats.players],
        "size_rows": [
            (size, tally, charts.rate_bar(tally)) for size, tally in stats.by_players.items()
        ],
        "token_bars": charts.token_bars(stats),
        "evenings": [
            (
                s,
                numbers[s.campaign],
                round(100 * s.attempts / most, 1),
                round(100 * s.passes / most, 1),
            )
            for s in reversed(stats.sessions)
        ],
        "several_campaigns": len(stats.campaigns) > 1,
        "reliability": charts.reliability_points(stats.hints),
        "table_reliability": charts.table_reliability_points(stats.hints),
        "table_every": None
        if stats.hints.at_table is None
        else one_in(stats.hints.at_table.slip_rate),
        "comparisons": comparisons,
        "hardest": charts.hardest_for_us(comparisons),
        "hint_bins": [(b, _percent(b.predicted), _percent(b.actual)) for b in stats.hints.bins],
        "table_words": table_words(stats.table),
    }


def table_words(table: TableRate) -> str:
    """The table's own slip rate in plain words, or how many more hinted clocks it needs."""
    if table.slip_rate is None or table.interval is None:
        return ngettext(
            "After %(needed)d more hinted clock, Timekeeper can tell how often your table "
            "misplaces a card (%(have)d so far).",
            "After %(needed)d more hinted clocks, Timekeeper can tell how often your table "
            "misplaces a card (%(have)d so far).",
            table.needed,
        ) % {"needed": table.needed, "have": table.hinted_attempts}
    return ngettext(
        "Your table plays like one that misplaces about 1 card in %(every)d (between 1 in "
        "%(rarely)d and 1 in %(often)d), from %(n)d hinted clock.",
        "Your table plays like one that misplaces about 1 card in %(every)d (between 1 in "
        "%(rarely)d and 1 in %(often)d), from %(n)d hinted clocks.",
        table.hinted_attempts,
    ) % {
        "every": one_in(table.slip_rate),
        "rarely": one_in(table.interval[0]),
        "often": one_in(table.interval[1]),
        "n": table.hinted_attempts,
    }


def _percent(share: float | None) -> int | None:
    return None if share is None else round(share * 100)
