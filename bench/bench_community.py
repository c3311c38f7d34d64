"""``python -m bench.bench_community``: how fast other tables' definitions
of a clock are listed.

Builds a throw-away test database (SQLite, or PostgreSQL when ``DATABASE_URL`` points at
it; the real database is not touched) holding ``--groups`` groups (10,000 by default) that
transcribed four clocks, some in several versions, some adopted, across a few hundred
distinct definitions. Then times, without asserting anything:
- ``community.shared_definitions`` for one group (the service: spoiler check, aggregate,
  definitions), and
- ``GET /api/groups/{id}/community/2-1/`` through the whole Django stack,
and prints p50 / p95 / max in milliseconds, the queries per call and the query plan of the
aggregate (which should use ``transcription_community_idx``).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from bench.stats import percentile


def _percentiles(samples: list[float]) -> str:
    return (
        f"p50 {percentile(samples, 50):.2f} ms, p95 {percentile(samples, 95):.2f} ms, "
        f"max {max(samples):.2f} ms ({len(samples)} calls)"
    )


def _time(call: Callable[[], object], repeats: int) -> tuple[list[float], list[float]]:
    """Wall-clock and this process's CPU milliseconds per call. On a machine shared with
    other work the wall clock includes waiting for a core; the CPU time does not (with
    SQLite it includes the database's work, with PostgreSQL that runs in the server)."""
    for _ in range(10):  # warm the caches and the connection
        call()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def _populate(groups: int, seed: int) -> int:
    """The groups and their transcriptions; returns the id of the group that looks."""
    from django.contrib.auth.models import User

    from campaigns.groups.services import create_group, new_campaign
    from campaigns.models import ClockTranscription, CommunityDefinition, Group
    from rules.canonical import canonical_json, fingerprint
    from rules.clock import Clock

    rnd = random.Random(seed)
    clocks = ("2-1", "2-2", "3-1", "4-3")
    # A few definitions most tables agree on, and a long tail of typos and variants.
    variants: dict[str, list[tuple[str, dict[str, object]]]] = {}
    for clock_id in clocks:
        options = []
        for n in range(300):
            rules: list[dict[str, object]] = [
                {"kind": "card_count", "segment": 6, "count": 1 + n % 3},
                {"kind": "value_range", "segment": 1 + n % 6, "min": n % 20, "max": 20 + n % 100},
            ]
            if n % 2:
                rules.append({"kind": "forbidden_values", "segment": 2, "values": [3, 7]})
            clock = Clock.from_json({"id": clock_id, "rules": rules})
            options.append((fingerprint(clock), canonical_json(clock)))
        variants[clock_id] = options
    CommunityDefinition.objects.bulk_create(
        CommunityDefinition(clock_id=clock_id, fingerprint=print_, definition=definition)
        for clock_id, options in variants.items()
        for print_, definition in options
    )
    Group.objects.bulk_create(Group(name=f"Table {n}") for n in range(groups))
    rows = []
    for group_id in Group.objects.values_list("id", flat=True):
        for clock_id in clocks:
            pick = rnd.random()
            index = 0 if pick < 0.5 else 1 if pick < 0.7 else rnd.randrange(2, 300)
            versions = 1 if rnd.random() < 0.8 else 2  # some tables corrected themselves
            for version in range(1, versions + 1):
                print_, definition = variants[clock_id][
                    index if version == versions else rnd.randrange(300)
                ]
                rows.append(
                    ClockTranscription(
                        group_id=group_id,
                        clock_id=clock_id,
                        version=version,
                        definition=definition,
                        fingerprint=print_,
                        latest=version == versions,
                        adopted=rnd.random() < 0.1,
                    )
                )
    ClockTranscription.objects.bulk_create(rows, batch_size=5000)
    owner = User.objects.create_user("bench-owner")
    viewer = create_group(owner, "The table that looks", first_campaign=False)
    new_campaign(viewer, start_chapter=2)
    print(f"{groups:,} groups, {len(rows):,} transcription versions of {len(clocks)} clocks")
    return viewer.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print where a list call spends")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        from django.contrib.auth.models import User
        from rest_framework.test import APIClient

        from campaigns.definitions import community
        from campaigns.models import ClockTranscription, Group

        print(f"database: {connection.vendor}")
        viewer = Group.objects.get(pk=_populate(args.groups, args.seed))
        with connection.cursor() as cursor:
            # Fresh planner statistics for the new rows, and (PostgreSQL) the visibility map
            # autovacuum would have written by now, so the count can read the index alone.
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        shared = community.shared_definitions(viewer, "2-1")
        print(
            f"clock 2-1: {len(shared)} distinct definitions listed, top typed by "
            f"{shared[0].groups:,} tables"
        )

        with CaptureQueriesContext(connection) as captured:
            community.shared_definitions(viewer, "2-1")
        print(f"queries per list: {len(captured.captured_queries)}")
        aggregate = next(q["sql"] for q in captured.captured_queries if "GROUP BY" in q["sql"])
        explain = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN ANALYZE "
        with connection.cursor() as cursor:
            cursor.execute(explain + aggregate)
            plan = [" ".join(str(part) for part in row) for row in cursor.fetchall()]
        print("plan of the aggregate:\n  " + "\n  ".join(plan))
        uses_index = any("transcription_community_idx" in line for line in plan)
        print(f"uses transcription_community_idx: {uses_index}")

        if args.profile:
            import cProfile
            import pstats

            with cProfile.Profile() as profiler:
                for _ in range(20):
                    community.shared_definitions(viewer, "2-1")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        wall, cpu = _time(lambda: community.shared_definitions(viewer, "2-1"), args.repeats)
        print(f"service community.shared_definitions, wall: {_percentiles(wall)}")
        print(f"service community.shared_definitions, CPU:  {_percentiles(cpu)}")

        client = APIClient()
        client.force_authenticate(User.objects.get(username="bench-owner"))
        url = f"/api/groups/{viewer.pk}/community/2-1/"
        assert client.get(url).status_code == 200
        wall, cpu = _time(lambda: client.get(url), args.repeats)
        shown = url.replace(str(viewer.pk), "{id}")
        print(f"GET {shown}, wall: {_percentiles(wall)}")
        print(f"GET {shown}, CPU:  {_percentiles(cpu)}")
        print(f"(rows in the table: {ClockTranscription.objects.count():,})")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
