"""The community figures: how many attempts other tables took to pass each clock, rewritten
by a periodic task (``refresh_community``) and read per group without its own part
(``add_community_figures``), so no request ever scans every group's history."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db import transaction
from django.db.models import Count, JSONField, OuterRef, Q, Subquery
from django.utils import timezone

from campaigns.models import Attempt, CommunityClock, CommunityShare, Group
from campaigns.statistics.figures import (
    COMMUNITY_MIN_GROUPS,
    PASSED,
    ClockFigures,
    Community,
    histogram_lower_median,
)


def add_community_figures(group: Group, clocks: list[ClockFigures]) -> None:
    """Query 9: the refreshed figures, minus this group's own part of them (kept at the same
    refresh), so the comparison is with other tables only."""
    own = CommunityShare.objects.filter(group=group, clock_id=OuterRef("clock_id"))
    rows = CommunityClock.objects.annotate(
        own=Subquery(own.values("histogram")[:1], output_field=JSONField())
    ).values("clock_id", "groups", "histogram", "own")
    by_clock = {row["clock_id"]: row for row in rows}
    for clock in clocks:
        row = by_clock.get(clock.clock)
        if row is None or not clock.opened:
            continue
        histogram = Counter({int(k): v for k, v in row["histogram"].items()})
        groups = row["groups"]
        if row["own"]:
            histogram.subtract({int(k): v for k, v in row["own"].items()})
            groups -= 1
        median = histogram_lower_median(histogram)
        if groups >= COMMUNITY_MIN_GROUPS and median is not None:
            clock.community = Community(groups, median)


def refresh_community() -> int:
    """Rewrite the community figures from every sharing group's campaigns: per clock, how
    many attempts each campaign took to pass it (a histogram) and how many groups passed
    it, with each group's own part, so that a group sees the others' figures. Run by a
    periodic task; returns the number of clocks with figures."""
    # As for a group's own figures: a campaign's attempts at a clock it passed all come
    # up to and including that pass.
    up_to_first = (
        Attempt.objects.filter(campaign__group__share_with_community=True)
        .values("campaign__group_id", "campaign_id", "clock_id")
        .annotate(n=Count("id"), passes=Count("id", filter=Q(outcome=PASSED)))
        .filter(passes__gt=0)
        .order_by()
    )
    totals: dict[str, Counter[int]] = defaultdict(Counter)
    groups: dict[str, set[int]] = defaultdict(set)
    shares: dict[tuple[int, str], Counter[int]] = defaultdict(Counter)
    for row in up_to_first:
        group_id = row["campaign__group_id"]
        totals[row["clock_id"]][row["n"]] += 1
        groups[row["clock_id"]].add(group_id)
        shares[(group_id, row["clock_id"])][row["n"]] += 1
    now = timezone.now()
    with transaction.atomic():
        CommunityShare.objects.all().delete()
        CommunityClock.objects.all().delete()
        CommunityClock.objects.bulk_create(
            CommunityClock(
                clock_id=clock,
                groups=len(groups[clock]),
                histogram={str(k): v for k, v in sorted(histogram.items())},
                refreshed=now,
            )
            for clock, histogram in totals.items()
        )
        CommunityShare.objects.bulk_create(
            (
                CommunityShare(
                    group_id=group_id,
                    clock_id=clock,
                    histogram={str(k): v for k, v in sorted(histogram.items())},
                )
                for (group_id, clock), histogram in shares.items()
            ),
            batch_size=2000,
        )
    return len(totals)
