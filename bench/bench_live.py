"""Benchmark of the live board: the poll's latency, and what 60 polling phones cost the page.

Runs the app under gunicorn (2 workers, as in production) against the database of
DATABASE_URL (PostgreSQL for figures that mean something), makes a group with a history of
attempts, then prints:

1. the poll endpoint's latency (p50, p95) with nothing changed (304), one client;
2. the group page's latency (p50, p95) alone, then again while 60 phones poll every 3 s,
   measured in the same run against the same server, and the ratio of the two p95s.

gunicorn gets DB_CONN_MAX_AGE=60, as docker-compose sets (DB_CONN_MAX_AGE=0 in the
environment measures a new connection per request instead).

Usage: DATABASE_URL=postgres://… .venv/bin/python bench/bench_live.py [--requests N]
It creates and drops its own users and group (named bench-live-*); it never asserts.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from bench.stats import percentile, summary  # noqa: E402
from campaigns.groups.services import add_member, create_group  # noqa: E402
from campaigns.models import Group  # noqa: E402
from campaigns.play.services import record_attempt  # noqa: E402
from campaigns.play.state import campaign_state  # noqa: E402

PHONES = 60
POLL_EVERY = 3.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _get(url: str, cookie: str, etag: str = "") -> tuple[int, float, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie})
    if etag:
        request.add_header("If-None-Match", etag)
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status, tag = response.status, response.headers.get("ETag", "")
    except urllib.error.HTTPError as answer:  # urllib counts a 304 (nothing changed) as one
        if answer.code != 304:
            raise
        status, tag = answer.code, answer.headers.get("ETag", "")
    return status, (time.perf_counter() - start) * 1000, tag


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per measurement")
    args = parser.parse_args()
    vendor = django.db.connection.vendor
    print(f"database: {vendor}" + ("" if vendor == "postgresql" else " (set DATABASE_URL)"))
    call_command("migrate", verbosity=0)

    users = []
    for n in range(PHONES + 1):
        user, _ = User.objects.get_or_create(username=f"bench-live-{n}")
        users.append(user)
    group = create_group(users[0], "bench-live", ["Ann", "Ben", "Cleo"])
    for user in users[1:]:
        add_member(group, user.username, "member")
    campaign = group.current_campaign()
    for _ in range(30):  # a history: the board and its poll read real rows
        campaign.refresh_from_db()
        clock = campaign_state(campaign).next_clock
        record_attempt(campaign, users[0], clock, "failed", 3)
        record_attempt(campaign, users[0], clock, "passed", 3)
    cookies = [_session_cookie(user) for user in users]

    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        # As docker-compose runs it: a database connection per worker process, kept.
        env={**os.environ, "DB_CONN_MAX_AGE": os.environ.get("DB_CONN_MAX_AGE", "60")},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                _get(f"{base}/healthz", "")
                break
            except OSError:
                time.sleep(0.2)
        live = f"{base}/groups/{group.pk}/live/"
        page = f"{base}/groups/{group.pk}/"
        _status, _ms, etag = _get(live, cookies[0])
        for _ in range(20):  # warm both workers
            _get(live, cookies[0], etag)
            _get(page, cookies[0])

        polls = [_get(live, cookies[0], etag) for _ in range(args.requests)]
        assert all(status == 304 for status, _ms, _tag in polls), "the board changed meanwhile"
        print(f"poll (304, nothing changed): {summary([ms for _s, ms, _t in polls])}")

        alone = [_get(page, cookies[0])[1] for _ in range(args.requests)]
        print(f"group page alone: {summary(alone)}")

        stop = threading.Event()
        polled = [0]

        def phone(cookie: str, offset: float) -> None:
            time.sleep(offset)
            while not stop.is_set():
                _get(live, cookie, etag)
                polled[0] += 1
                stop.wait(POLL_EVERY)

        threads = [
            threading.Thread(target=phone, args=(cookies[n + 1], POLL_EVERY * n / PHONES))
            for n in range(PHONES)
        ]
        for thread in threads:
            thread.start()
        time.sleep(POLL_EVERY)
        started = time.perf_counter()
        loaded = [_get(page, cookies[0])[1] for _ in range(args.requests)]
        seconds = time.perf_counter() - started
        stop.set()
        for thread in threads:
            thread.join()
        print(
            f"group page with {PHONES} phones polling every {POLL_EVERY:.0f} s: "
            f"{summary(loaded)}; {polled[0] / (seconds + POLL_EVERY):.1f} polls/s"
        )
        print(
            f"p95 with the phones / p95 alone: {percentile(loaded, 95) / percentile(alone, 95):.2f}"
        )
    finally:
        server.terminate()
        server.wait(10)
        Group.objects.filter(pk=group.pk).delete()
        User.objects.filter(username__startswith="bench-live-").delete()


if __name__ == "__main__":
    main()
