"""A group's statistics: one computation that the statistics page, the API and the CSV read.

``group_statistics(group, campaign, players)`` answers in ten queries whatever the size of
the history (a test counts them at 10 and at 2,000 attempts):

1. the group's campaigns, with how far each has opened the chapters;
2. attempts grouped by campaign, clock, table size and Bonus tokens face up;
3. skips and Sleeve retrievals grouped by campaign and clock;
4. the sessions, each with its attempts, passes, newly passed clocks and minutes;
5. the players, each with the attempts of the sessions they sat at;
6. the openers, each with the attempts they opened and passed;
7. runs of the same outcome (streaks), grouped in the database;
8. finished hints of the scope with their predicted pass rate and matched outcome (one row
   per hint, binned in Python);
9. the community figures (a table ``refresh_community`` rewrites; never a scan of others);
10. the table's own slip rate: query 8 over all the group's campaigns and sizes, with each
    hint's stored pass curve (``hints.table_rate``; the engine never runs here).

Definitions (the public contract of ``GET /api/groups/{id}/statistics/``):

- an attempt is a recorded pass or failure; an undone attempt is deleted, so it is gone from
  every figure. A skip is not an attempt. Skips carry no table size: the ``players`` filter
  does not apply to them;
- order is recording order, the attempt's id within its campaign (campaigns in id order);
- a clock's ``attempts_to_pass`` counts its attempts in one campaign up to and including the
  first pass; over several campaigns it is the lower median of those that passed it;
- a player took part in the attempts of every session they are listed on;
- "failed, but winnable" (``failed_winnable``) counts the failed attempts recorded with a
  layout whose 12 cards could have passed the clock by every rule known of it, as if
  everyone had seen every card (``campaigns.winnable``; judged by the layout rules only when
  the layout was typed in segment form);
- a session counts when it holds an attempt in scope;
- a hint is rated when it can be matched to an outcome: the attempt it was asked for, or
  else the group's next attempt at the same clock and table size recorded within 24 hours
  after the hint finished;
- community figures per clock come from other groups' campaigns that passed it; hidden until
  ``COMMUNITY_MIN_GROUPS`` groups have, never shown for a chapter the group has not opened
  (chapter contents are secret in the box), and absent for a group that does not share.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    F,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    Window,
)
from django.db.models.functions import RowNumber

from campaigns.models import Attempt, Campaign, ClockProgress, Event, Group, Session, whole_minutes
from campaigns.statistics.community import add_community_figures
from campaigns.statistics.figures import (
    NUMBERED,
    PASSED,
    TABLE_SIZES,
    TOKENS_FACE_UP,
    CampaignLine,
    ChapterFigures,
    ClockFigures,
    PlayerFigures,
    Run,
    SessionFigures,
    Statistics,
    Streaks,
    Tally,
    UnknownCampaign,
    lower_median,
)
from campaigns.statistics.hints import hint_figures, table_rate
from campaigns.winnable import winnable_but_unknown_rules, winnable_failures
from rules.clock import REBIRTH
from rules.game import CHAPTERS, chapter_of


def group_statistics(
    group: Group, campaign: int | str | None = None, players: int | None = None
) -> Statistics:
    """The statistics of ``group`` over ``campaign`` (an id of the group's, ``"all"``, or
    None for the current campaign), at table size ``players`` (2-4) or every size.

    UnknownCampaign when ``campaign`` is not the group's."""
    campaigns = _campaigns(group)
    if not campaigns:  # only for groups made outside services.create_group
        group.current_campaign()
        campaigns = _campaigns(group)
    if campaign == "all":
        scope = [row["id"] for row in campaigns]
    elif campaign is None:
        scope = [campaigns[-1]["id"]]
    elif isinstance(campaign, int) and any(row["id"] == campaign for row in campaigns):
        scope = [campaign]
    else:
        raise UnknownCampaign(campaign)
    opened = _opened_chapters(campaigns)
    in_scope = Q(campaign_id__in=scope)
    if players is not None:
        in_scope &= Q(players=players)
    attempts = Attempt.objects.filter(in_scope)

    per_campaign_clock, by_players, by_tokens, minutes = _attempt_groups(attempts)
    skips, retrievals, clocks_retrieved = _sleeve(scope)
    rebirth_in_scope = any(
        row["kind"] == Campaign.Kind.REBIRTH for row in campaigns if row["id"] in scope
    )
    clocks = _clocks(per_campaign_clock, skips, rebirth_in_scope, opened)
    chapters = _chapters(clocks, per_campaign_clock, opened)
    lines = _sessions(group, campaigns, players)
    sessions = sorted(
        (s for line in lines if line.id in scope for s in line.sessions),
        key=lambda s: (s.date, s.id),
    )
    if group.share_with_community:
        add_community_figures(group, clocks)

    totals: dict[str, int | None] = {
        "sessions": len(sessions),
        "attempts": sum(c.attempts for c in clocks),
        "passed": sum(c.passes for c in clocks),
        "failed": sum(c.attempts - c.passes for c in clocks),
        "skips": sum(c.skips for c in clocks),
        "clocks_passed": sum(1 for v in per_campaign_clock.values() if v["to_pass"] is not None),
        "first_try_passes": sum(1 for v in per_campaign_clock.values() if v["to_pass"] == 1),
        "failed_winnable": sum(v["failed_winnable"] for v in per_campaign_clock.values()),
        # Shown as winnable on the pages but not counted: the clock is not transcribed.
        "failed_winnable_unknown": sum(
            v["failed_winnable_unknown"] for v in per_campaign_clock.values()
        ),
        "minutes": minutes,
    }
    table = table_rate(group)
    return Statistics(
        campaigns=scope,
        players_filter=players,
        totals=totals,
        clocks=clocks,
        chapters=chapters,
        players=_players(group, attempts, scope, players),
        by_players=by_players,
        by_bonus_tokens=by_tokens,
        sessions=sessions,
        streaks=_streaks(attempts),
        hints=hint_figures(
            group, [row["id"] for row in campaigns], scope, players, table.slip_rate
        ),
        table=table,
        all_campaigns=lines,
        retrievals=retrievals,
        clocks_retrieved=clocks_retrieved,
        sharing=group.share_with_community,
    )


def _campaigns(group: Group) -> list[dict[str, Any]]:
    """The group's campaigns in id order, with the first clock still upcoming and the
    furthest clock attempted: together they say which chapters the campaign opened."""
    upcoming = Q(progress__status=ClockProgress.Status.UPCOMING)
    attempted = Q(progress__attempts__gt=0) | Q(progress__status=ClockProgress.Status.PASSED)
    rows = (
        Campaign.objects.filter(group=group)
        .annotate(
            first_upcoming=Min("progress__position", filter=upcoming),
            furthest=Max("progress__position", filter=attempted),
        )
        .order_by("id")
        .values("id", "kind", "first_upcoming", "furthest")
    )
    return [dict(row) for row in rows]


def _opened_chapters(campaigns: list[dict[str, Any]]) -> int:
    """The highest chapter any campaign of the group opened. Chapters open in order: one is
    open once every clock before it is passed or in the Sleeve (positions 0-39 are 1-1 to
    10-4), and a chapter stays seen when a clock of it goes back on the stack later."""
    highest = 1
    for row in campaigns:
        first_upcoming = 40 if row["first_upcoming"] is None else row["first_upcoming"]
        furthest = -1 if row["furthest"] is None else row["furthest"]
        highest = max(highest, min(max(first_upcoming, furthest), 39) // 4 + 1)
    return highest


def _attempt_groups(
    attempts: QuerySet[Attempt],
) -> tuple[dict[tuple[int, str], dict[str, Any]], dict[str, Tally], dict[str, Tally], int | None]:
    """Query 2: per campaign and clock (attempts, passes, durations), and the same rows
    summed by table size and by Bonus tokens face up.

    A passed clock leaves its campaign: the services refuse another attempt at it, and an
    undone pass deletes its attempt. So every attempt of a campaign at a clock it passed
    comes before that pass, and ``attempts_to_pass`` is their number (within the scope's
    table size, when one is chosen)."""
    passed = Q(outcome=PASSED)
    # Table sizes and Bonus tokens as conditional counts: one row per campaign and clock.
    columns = {
        **{f"size_{n}": Count("id", filter=Q(players=n)) for n in TABLE_SIZES},
        **{f"size_{n}_passed": Count("id", filter=Q(players=n) & passed) for n in TABLE_SIZES},
        **{f"tokens_{n}": Count("id", filter=Q(bonus_tokens=n)) for n in TOKENS_FACE_UP},
        **{
            f"tokens_{n}_passed": Count("id", filter=Q(bonus_tokens=n) & passed)
            for n in TOKENS_FACE_UP
        },
        # Failed, but the cards were winnable (the answer stored with the attempt).
        "failed_winnable": Count("id", filter=winnable_failures()),
        "failed_winnable_unknown": Count("id", filter=winnable_but_unknown_rules()),
    }
    rows = (
        attempts.values("campaign_id", "clock_id")
        .annotate(
            n=Count("id"),
            passes=Count("id", filter=passed),
            spent=Sum("duration"),
            typed=Count("duration"),
            **columns,
        )
        .order_by()
    )
    per: dict[tuple[int, str], dict[str, Any]] = {}
    sums: Counter[str] = Counter()
    total = timedelta(0)
    typed_any = False
    row: dict[str, Any]
    for row in rows:  # type: ignore[assignment]  # the conditional columns are dynamic
        per[(row["campaign_id"], row["clock_id"])] = {
            "n": row["n"],
            "passes": row["passes"],
            "duration": row["spent"] if row["typed"] else timedelta(0),
            "typed": row["typed"],
            "to_pass": row["n"] if row["passes"] else None,
            "failed_winnable": row["failed_winnable"],
            "failed_winnable_unknown": row["failed_winnable_unknown"],
        }
        if row["typed"]:
            total += row["spent"]
            typed_any = True
        sums.update({name: row[name] for name in columns})
    by_players = {str(n): Tally(sums[f"size_{n}"], sums[f"size_{n}_passed"]) for n in TABLE_SIZES}
    by_tokens = {
        str(n): Tally(sums[f"tokens_{n}"], sums[f"tokens_{n}_passed"]) for n in TOKENS_FACE_UP
    }
    return per, by_players, by_tokens, whole_minutes(total) if typed_any else None


def _sleeve(scope: list[int]) -> tuple[dict[str, int], int, int]:
    """Query 3: skips per clock, and the retrievals from the Sleeve (events not undone)."""
    skips: Counter[str] = Counter()
    retrievals = clocks_retrieved = 0
    rows = (
        Event.objects.filter(
            campaign_id__in=scope,
            kind__in=[Event.Kind.SKIPPED, Event.Kind.RETRIEVED],
            undone__isnull=True,
        )
        .values("kind", "clock_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        if row["kind"] == Event.Kind.SKIPPED:
            skips[row["clock_id"]] += row["n"]
        else:  # a retrieval event names the clocks put back, comma-separated
            retrievals += row["n"]
            clocks_retrieved += row["n"] * len(row["clock_id"].split(","))
    return skips, retrievals, clocks_retrieved


def _clocks(
    per: dict[tuple[int, str], dict[str, Any]],
    skips: dict[str, int],
    rebirth: bool,
    opened: int,
) -> list[ClockFigures]:
    by_clock: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (_campaign, clock), entry in per.items():
        by_clock[clock].append(entry)
    clocks = []
    for clock in [*NUMBERED, REBIRTH] if rebirth else NUMBERED:
        entries = by_clock.get(clock, [])
        passed = [e["to_pass"] for e in entries if e["to_pass"] is not None]
        typed = [e for e in entries if e["typed"]]
        chapter = chapter_of(clock)
        clocks.append(
            ClockFigures(
                clock=clock,
                chapter=chapter,
                attempts=sum(e["n"] for e in entries),
                passes=sum(e["passes"] for e in entries),
                skips=skips.get(clock, 0),
                attempts_to_pass=lower_median(passed),
                first_try=1 in passed,
                minutes=whole_minutes(sum((e["duration"] for e in typed), timedelta(0)))
                if typed
                else None,
                # Rebirth is only in a campaign once all 40 clocks have been played.
                opened=chapter is None or chapter <= opened,
            )
        )
    return clocks


def _chapters(
    clocks: list[ClockFigures], per: dict[tuple[int, str], dict[str, Any]], opened: int
) -> list[ChapterFigures]:
    chapters = {c: ChapterFigures(c, opened=c <= opened) for c in CHAPTERS}
    for clock in clocks:
        if clock.chapter is not None:
            chapters[clock.chapter].attempts += clock.attempts
            chapters[clock.chapter].passes += clock.passes
    for (_campaign, clock_id), entry in per.items():
        chapter = chapter_of(clock_id)
        if chapter is not None and entry["to_pass"] is not None:
            chapters[chapter].clocks_passed += 1
    return list(chapters.values())


def _sessions(
    group: Group, campaigns: list[dict[str, Any]], players: int | None
) -> list[CampaignLine]:
    """Query 4: every session of the group with its figures; the progress chart draws every
    campaign, the ``sessions`` field keeps those of the scope.

    A clock leaves its campaign's stack when passed, so the distinct clocks passed at a
    session are the clocks newly passed there."""
    counted = Q(attempts__players=players) if players is not None else Q()
    passed = counted & Q(attempts__outcome=PASSED)
    rows = (
        Session.objects.filter(campaign__group=group)
        .annotate(
            n=Count("attempts", filter=counted),
            passes=Count("attempts", filter=passed),
            new_clocks=Count("attempts__clock_id", filter=passed, distinct=True),
            duration=Sum("attempts__duration", filter=counted),
            typed=Count("attempts__duration", filter=counted),
        )
        .filter(n__gt=0)
        .order_by("campaign_id", "date", "id")
        .values("id", "campaign_id", "date", "n", "passes", "new_clocks", "duration", "typed")
    )
    by_campaign: dict[int, list[SessionFigures]] = defaultdict(list)
    passed_so_far: Counter[int] = Counter()
    for row in rows:
        passed_so_far[row["campaign_id"]] += row["new_clocks"]
        by_campaign[row["campaign_id"]].append(
            SessionFigures(
                id=row["id"],
                campaign=row["campaign_id"],
                date=row["date"],
                attempts=row["n"],
                passes=row["passes"],
                clocks_passed_after=passed_so_far[row["campaign_id"]],
                minutes=whole_minutes(row["duration"]) if row["typed"] else None,
            )
        )
    return [
        CampaignLine(row["id"], number, row["kind"], by_campaign.get(row["id"], []))
        for number, row in enumerate(campaigns, start=1)
    ]


def _players(
    group: Group, attempts: QuerySet[Attempt], scope: list[int], players: int | None
) -> list[PlayerFigures]:
    """Queries 5 and 6: a player took part in the attempts of the sessions they are listed
    on; openings are counted on their own, so the two joins do not multiply each other (and
    an opener counts even on a session whose players were not listed)."""
    took_part = Q(sessions__attempts__campaign_id__in=scope)
    if players is not None:
        took_part &= Q(sessions__attempts__players=players)
    rows = (
        group.players.annotate(
            n=Count("sessions__attempts", filter=took_part),
            passes=Count(
                "sessions__attempts", filter=took_part & Q(sessions__attempts__outcome=PASSED)
            ),
        )
        .order_by("id")
        .values("id", "name", "n", "passes")
    )
    openings = {
        row["opener_id"]: (row["n"], row["passes"])
        for row in attempts.filter(opener__isnull=False)
        .values("opener_id")
        .annotate(n=Count("id"), passes=Count("id", filter=Q(outcome=PASSED)))
        .order_by()
    }
    return [
        PlayerFigures(r["id"], r["name"], r["n"], r["passes"], *openings.get(r["id"], (0, 0)))
        for r in rows
    ]


def _streaks(attempts: QuerySet[Attempt]) -> Streaks:
    """Query 7: runs of one outcome, found in the database ("gaps and islands": along the
    recording order, the position minus the position among the same outcome is constant
    within a run)."""
    order = [F("campaign_id").asc(), F("id").asc()]
    numbered = (
        attempts.annotate(
            k=Window(RowNumber(), order_by=order),
            j=Window(RowNumber(), partition_by=[F("outcome")], order_by=order),
        )
        .order_by()
        .values("outcome", "k", "j")
    )
    sql, params = numbered.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH numbered AS ({sql}), "  # the ORM's own SQL and parameters
            "runs AS (SELECT outcome, COUNT(*) AS length, MAX(k) AS last "
            "FROM numbered GROUP BY outcome, k - j) "
            "SELECT outcome, MAX(length), MAX(last), "
            "(SELECT length FROM runs ORDER BY last DESC LIMIT 1) "
            "FROM runs GROUP BY outcome",
            params,
        )
        rows = cursor.fetchall()
    streaks = Streaks()
    last = 0
    for outcome, longest, run_last, current_length in rows:
        if outcome == PASSED:
            streaks.longest_pass = longest
        else:
            streaks.longest_fail = longest
        if run_last > last:
            last = run_last
            streaks.current = Run(outcome, current_length)
    return streaks
