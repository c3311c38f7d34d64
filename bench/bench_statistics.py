"""``python -m bench.bench_statistics``: the statistics numbers on this
machine and database.

Prints, without asserting anything about time:
- the p50 / p95 of ``GET /api/groups/{id}/statistics/`` (one client, the whole Django
  stack) for a demo group of 2,000 attempts;
- (wall-clock times depend on what else the machine runs: the CPU time of the Django
  process and the load average are printed beside them);
- the time the community refresh takes once ``seed_demo`` has filled the database up to
  1,000 groups and 100,000 attempts, and the same API's p50 / p95 afterwards.

It works in a database of its own (Django's test database next to the configured one, so
PostgreSQL when ``DATABASE_URL`` points there), created and dropped by the run.
``--quick`` runs a smaller version (for a smoke test).
"""

from __future__ import annotations

import argparse
import os
import time

import django

from bench.stats import percentile


def _percentiles(samples: list[float]) -> tuple[float, float]:
    return percentile(samples, 50), percentile(samples, 95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller run (smoke test)")
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment
    from rest_framework.test import APIClient

    from campaigns import demo
    from campaigns.models import Group, Membership
    from campaigns.statistics.community import refresh_community
    from campaigns.statistics.compute import group_statistics

    groups, attempts, requests = (1000, 100_000, 200) if not options.quick else (50, 5_000, 20)
    one_group = 2000 if not options.quick else 500
    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        print(f"database: {connection.vendor} ({name})")
        demo.seed(1, one_group, seed=1)
        group = Group.objects.get()
        reader = User.objects.create_user("bench-reader")
        Membership.objects.create(group=group, user=reader, role=Membership.Role.VIEWER)
        client = APIClient()
        client.force_authenticate(reader)
        url = f"/api/groups/{group.pk}/statistics/"

        def api_numbers(label: str) -> None:
            for params in ({}, {"campaign": "all"}):
                client.get(url, params)  # warm up
                samples, cpu = [], []
                for _ in range(requests):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    response = client.get(url, params)
                    samples.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.process_time() - started_cpu) * 1000)
                    assert response.status_code == 200
                p50, p95 = _percentiles(samples)
                cpu50, cpu95 = _percentiles(cpu)
                scope = params.get("campaign", "current")
                print(
                    f"statistics API, {one_group:,} attempts, campaign={scope}, {label}: "
                    f"p50 {p50:.1f} ms, p95 {p95:.1f} ms ({requests} requests); "
                    f"CPU of this process p50 {cpu50:.1f} ms, p95 {cpu95:.1f} ms"
                )
            started = time.perf_counter()
            group_statistics(group, "all")
            computed = (time.perf_counter() - started) * 1000
            print(f"  of which the computation alone (campaign=all): {computed:.1f} ms")

        api_numbers("no other group")
        started = time.perf_counter()
        counts = demo.seed(groups - 1, attempts - one_group, seed=2)
        seeded = time.perf_counter() - started
        print(
            f"seed_demo: {counts.groups + 1:,} groups, {Group.objects.count():,} in the "
            f"database, {attempts:,} attempts in {seeded:.1f} s"
        )
        started = time.perf_counter()
        clocks = refresh_community()
        refreshed = time.perf_counter() - started
        print(
            f"community refresh: {refreshed:.2f} s for {groups:,} groups and {attempts:,} "
            f"attempts ({clocks} clocks)"
        )
        api_numbers(f"after the refresh ({groups:,} groups)")
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"load average (1, 5, 15 min) at the end: {load} on {os.cpu_count()} CPUs")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
