"""Load test: an evening peak against the production topology on this machine (`make load`).

Starts what scripts/topology.py starts (gunicorn with 2 workers, two Celery worker nodes, a
separate beat; not Caddy: locust talks to gunicorn as Caddy does) on the PostgreSQL and Redis
of DATABASE_URL and CELERY_BROKER_URL, in docker-compose's app environment (DEBUG off, a
database connection kept per process, throttle counts in Redis through CACHE_URL), prepares
N tables (groups) of 3 phones (accounts), and runs locust headless
(scripts/locustfile.py): every phone polls the live board every 2.5 s, each table records an
attempt every 60 s, opens its statistics every 5 minutes and asks for a hint every 5 minutes.

It prints p50/p95/p99 per endpoint and the error count, then checks that nothing was lost or
doubled: every record the load sent and the app acknowledged is one event in the database,
with its attempt, and there is no event the load did not send. With ``--steps 25,50,100`` it
runs one stage per table count against the same servers and reports the capacity: the
largest table count whose live poll p95 stays ≤ 50 ms and record p95 ≤ 300 ms.

Usage: DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… .venv/bin/python scripts/load.py
       [--tables 50] [--duration 300] [--steps 25,50,100 --step-duration 120]
Only 127.0.0.1 is loaded. It creates and deletes its own accounts and groups (load-*). The
exit code is 0 when there were no errors and nothing lost or doubled; it never judges the
latencies (they are figures of this machine at this moment: read them with the load average
it prints).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PHONES_PER_TABLE = 3
POLL_P95_LINE_MS = 50.0
RECORD_P95_LINE_MS = 300.0
PREFIX = "load-"


def _topology() -> ModuleType:
    spec = importlib.util.spec_from_file_location("topology", ROOT / "scripts" / "topology.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} CPUs"


@dataclass
class Row:
    name: str
    requests: int
    failures: int
    p50: float
    p95: float
    p99: float


def _stats(prefix: Path) -> list[Row]:
    """locust's ``<prefix>_stats.csv``: one row per endpoint (the Aggregated row last)."""
    rows = []
    with open(f"{prefix}_stats.csv", newline="") as file:
        for line in csv.DictReader(file):
            if not int(line["Request Count"]):
                continue
            rows.append(
                Row(
                    line["Name"],
                    int(line["Request Count"]),
                    int(line["Failure Count"]),
                    float(line["50%"]),
                    float(line["95%"]),
                    float(line["99%"]),
                )
            )
    return rows


def _failures(prefix: Path) -> list[str]:
    with open(f"{prefix}_failures.csv", newline="") as file:
        return [
            f"{line['Occurrences']:>6} × {line['Method']} {line['Name']}: {line['Error']}"
            for line in csv.DictReader(file)
        ]


def _print_table(rows: list[Row]) -> None:
    print(f"  {'endpoint':<20} {'requests':>8} {'errors':>6} {'p50':>7} {'p95':>7} {'p99':>7}")
    for row in rows:
        print(
            f"  {row.name:<20} {row.requests:>8} {row.failures:>6} "
            f"{row.p50:>5.0f}ms {row.p95:>5.0f}ms {row.p99:>5.0f}ms"
        )


def _prepare(tables: int) -> dict[str, Any]:
    """N groups of 3 accounts (a session cookie and an API token each)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from accounts.models import ApiToken
    from campaigns.groups.services import add_member, create_group

    _clean()
    out = []
    for t in range(tables):
        phones = []
        users = [User.objects.create_user(f"{PREFIX}{t}-{p}") for p in range(PHONES_PER_TABLE)]
        group = create_group(users[0], f"{PREFIX}{t}", ["Ann", "Ben", "Cleo"])
        for user in users[1:]:
            add_member(group, user.username, "member")
        for user in users:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            phones.append(
                {
                    "cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}",
                    "token": ApiToken.issue(user),
                }
            )
        out.append({"group": group.pk, "phones": phones})
    return {"tables": out, "host": os.environ["DOMAIN"]}


def _clean() -> None:
    from django.contrib.auth.models import User

    from campaigns.models import Group

    Group.objects.filter(memberships__user__username__startswith=PREFIX).delete()
    User.objects.filter(username__startswith=PREFIX).delete()


def _check_records(keys_file: Path, group_ids: list[int]) -> tuple[bool, list[str]]:
    """Records sent (and acknowledged) against the events and attempts the database holds."""
    from campaigns.models import Attempt, Event

    sent: dict[str, int] = {}
    for line in keys_file.read_text().splitlines():
        group, key, status = line.split()
        if int(group) in group_ids:
            sent[key] = int(status)
    acked = {key for key, status in sent.items() if status in (200, 201)}
    unacked = set(sent) - acked
    events = Event.objects.filter(campaign__group__in=group_ids).exclude(kind=Event.Kind.UNDONE)
    per_key = Counter(events.values_list("request_key", flat=True))
    stored = set(per_key)
    lost = acked - stored
    doubled = [key for key, n in per_key.items() if n > 1 or not key]
    strangers = stored - set(sent)
    attempts = Attempt.objects.filter(campaign__group__in=group_ids)
    without_attempt = events.filter(attempt__isnull=True).count()
    lines = [
        f"records sent {len(sent)}: acknowledged {len(acked)}, refused or unanswered "
        f"{len(unacked)} (of which stored {len(unacked & stored)})",
        f"events in the database {events.count()}, attempts {attempts.count()}",
        f"lost (acknowledged, not stored) {len(lost)}; doubled {len(doubled)}; "
        f"stored but never sent {len(strangers)}; events without their attempt "
        f"{without_attempt}",
    ]
    ok = not lost and not doubled and not strangers and not without_attempt
    ok = ok and attempts.count() == events.count()
    return ok, lines


def _hints(group_ids: list[int]) -> str:
    from django.db.models import F

    from solver.models import HintRequest

    hints = HintRequest.objects.filter(group__in=group_ids)
    statuses = Counter(hints.values_list("status", flat=True))
    waits = sorted(
        (row.total_seconds())
        for row in hints.filter(status=HintRequest.Status.DONE)
        .annotate(took=F("finished_at") - F("queued_at"))
        .values_list("took", flat=True)
    )
    took = ""
    if waits:
        from bench.stats import summary

        took = f"; asked → done {summary(waits, unit='s')}"
    return f"hints asked {sum(statuses.values())}: {dict(statuses)}{took}"


def _stage(
    base: str, tables: dict[str, Any], count: int, seconds: int, var: Path, label: str
) -> tuple[list[Row], bool]:
    """One locust run with ``count`` tables for ``seconds``; prints its table and checks."""
    chosen = {**tables, "tables": tables["tables"][:count]}
    group_ids = [table["group"] for table in chosen["tables"]]
    tables_file = var / f"{label}-tables.json"
    tables_file.write_text(json.dumps(chosen))
    keys_file = var / "keys.txt"  # every stage's: a stage plays on the tables of the last
    keys_file.touch()
    prefix = var / label
    users = count * PHONES_PER_TABLE
    print(f"\n== {count} tables ({users} phones), {seconds} s; before: {_load()}", flush=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(ROOT / "scripts" / "locustfile.py"),
            "--headless",
            "--only-summary",
            "--users",
            str(users),
            "--spawn-rate",
            str(max(10, users // 10)),
            "--run-time",
            f"{seconds}s",
            "--stop-timeout",
            "10",
            "--host",
            base,
            "--csv",
            str(prefix),
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "LOAD_TABLES": str(tables_file),
            "LOAD_KEYS": str(keys_file),
        },
        stdout=subprocess.DEVNULL,
        stderr=open(var / f"{label}-locust.log", "wb"),  # noqa: SIM115
        check=False,
    )
    print(f"   after: {_load()}")
    rows = _stats(prefix)
    _print_table(rows)
    total = next((row for row in rows if row.name == "Aggregated"), None)
    errors = total.failures if total else 0
    print(f"  errors: {errors}")
    for failure in _failures(prefix):
        print(f"    {failure}")
    ok, lines = _check_records(keys_file, group_ids)
    for line in lines:
        print(f"  {line}")
    print(f"  {_hints(group_ids)}")
    return rows, ok and errors == 0


def _within_lines(rows: list[Row]) -> bool:
    by_name = {row.name: row for row in rows}
    poll, record = by_name.get("live poll"), by_name.get("record attempt")
    return (poll is None or poll.p95 <= POLL_P95_LINE_MS) and (
        record is None or record.p95 <= RECORD_P95_LINE_MS
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of 3 phones (50)")
    parser.add_argument("--duration", type=int, default=300, help="seconds of load (300)")
    parser.add_argument(
        "--steps",
        default="",
        help="table counts, one stage each (e.g. 25,50,100): finds the capacity",
    )
    parser.add_argument("--step-duration", type=int, default=120, help="seconds per stage")
    args = parser.parse_args()
    steps = [int(n) for n in args.steps.split(",") if n.strip()] if args.steps else []
    if any(n < 1 for n in [args.tables, args.duration, args.step_duration, *steps]):
        print("load: tables, durations and steps must be positive", file=sys.stderr)
        return 2
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("load: set DATABASE_URL to a PostgreSQL database", file=sys.stderr)
        return 2
    if not broker.startswith("redis"):
        print("load: set CELERY_BROKER_URL to a Redis database", file=sys.stderr)
        return 2
    topology = _topology()
    var = Path(tempfile.mkdtemp(prefix="load-"))
    port, https_port, http_port = (topology._free_port() for _ in range(3))
    # As docker-compose runs the web (topology.ENVIRONMENT: DEBUG off, a database connection
    # kept per process), with throttle counts shared through Redis as compose's CACHE_URL
    # does (here the broker's database; Django's keys have a prefix of their own). This
    # process makes the phones' sessions, so it shares the web's secret key.
    cache_url = os.environ.get("CACHE_URL", broker)
    app = topology.environment(var, port, https_port, http_port)["web"]
    os.environ.update({**app, "CACHE_URL": cache_url})
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import logging

    from django.core.management import call_command

    logging.getLogger("axes").setLevel(logging.WARNING)  # a line per force_login otherwise
    base = f"http://127.0.0.1:{port}"
    print(f"logs and locust's CSV files: {var}", flush=True)
    call_command("migrate", verbosity=0)
    tables = _prepare(max([args.tables, *steps]))
    results: list[tuple[int, list[Row]]] = []
    ok = True
    try:
        # Straight to gunicorn, as Caddy reaches it (locust cannot resolve the proxy's name).
        services = [service for service in topology.SERVICES if service != "proxy"]
        with (
            open(var / "processes.log", "wb") as logs,
            topology.running(
                var,
                port,
                logs,
                {"CACHE_URL": cache_url},
                https_port=https_port,
                http_port=http_port,
                services=services,
                migrate=False,
            ),
        ):
            print(f"running: gunicorn (2 workers), two worker nodes, beat; {_load()}")
            if not steps:
                rows, ok = _stage(base, tables, args.tables, args.duration, var, "run")
                results.append((args.tables, rows))
            for count in steps:
                rows, stage_ok = _stage(base, tables, count, args.step_duration, var, f"{count}")
                ok = ok and stage_ok
                results.append((count, rows))
    finally:
        _clean()
    if steps:
        print("\ncapacity (live poll p95 ≤ 50 ms and record p95 ≤ 300 ms):")
        capacity = 0
        for count, rows in results:
            by_name = {row.name: row for row in rows}
            poll, record = by_name.get("live poll"), by_name.get("record attempt")
            within = _within_lines(rows)
            print(
                f"  {count:>4} tables: poll p95 {poll.p95 if poll else 0:.0f} ms, record p95 "
                f"{record.p95 if record else 0:.0f} ms {'within' if within else 'OVER'}"
            )
            if within and all(_within_lines(r) for c, r in results if c <= count):
                capacity = count
        print(f"  capacity of this machine now: {capacity} tables ({_load()})")
    print("\nok: no errors, nothing lost or doubled" if ok else "\nFAIL: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
