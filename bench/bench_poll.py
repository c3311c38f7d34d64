"""``python -m bench.bench_poll``: what one live-board poll costs the server, in CPU and
queries, and where that goes.

A phone at the table polls ``GET /groups/{id}/live/`` every 2.5 s (static/js/live.js) and
fetches the board partial again when the version changed. Through the whole Django stack
(Django's test Client, all middleware, one process), for a group with a history of 60
attempts, it prints for each of

- the poll when nothing changed (``If-None-Match`` with the current version),
- the poll when something changed (no ``If-None-Match``: 200 with the new version),
- the board partial (``HX-Request``), as a phone fetches it after a change,

the CPU time per request (p50 / p95 of this process, not wall time: other work on the
machine does not count), the queries per request and their SQL, the time inside the view
and, of that, in templates; the rest is the middleware and the handler. The CPU times of a
poll with only the session and auth middleware follow, and the load average.

It works in a database of its own (Django's test database next to the configured one, so
PostgreSQL when ``DATABASE_URL`` points there), created and dropped by the run; the cache
is the configured one (``CACHE_URL``). It never asserts anything about time.
``--profile`` adds cProfile's top functions of the "nothing changed" poll.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import django

from bench.stats import percentile

SETUP_ATTEMPTS = 30  # each a failure then a pass: 60 attempts on the board's history


class Clock:
    """CPU seconds spent inside whatever it wraps (reentrant: nested calls count once)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.depth = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.depth += 1
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.seconds += time.process_time() - started

        return timed


@contextmanager
def _timing_views_and_templates(view_clock: Clock, template_clock: Clock) -> Iterator[None]:
    """Wrap every URL pattern's view and the template backend's ``render`` in a clock."""
    from django.template.backends.django import Template
    from django.urls import URLPattern, URLResolver, get_resolver

    patterns: list[tuple[URLPattern, Callable[..., Any]]] = []

    def walk(resolver: URLResolver) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry)
            else:
                patterns.append((entry, entry.callback))

    walk(get_resolver())
    render = Template.render
    for pattern, callback in patterns:
        pattern.callback = view_clock.wrap(callback)
    Template.render = template_clock.wrap(render)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for pattern, callback in patterns:
            pattern.callback = callback
        Template.render = render  # type: ignore[method-assign]


def _measure(label: str, request: Callable[[], Any], status: int, repeats: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as capture:
        response = request()
    queries = [query["sql"] for query in capture.captured_queries]  # before the log resets
    assert response.status_code == status, (label, response.status_code)
    view_clock, template_clock = Clock(), Clock()
    cpu = []
    with _timing_views_and_templates(view_clock, template_clock):
        for _ in range(repeats):
            started = time.process_time()
            request()
            cpu.append((time.process_time() - started) * 1000)
    view_ms = view_clock.seconds * 1000 / repeats
    template_ms = template_clock.seconds * 1000 / repeats
    mean = sum(cpu) / len(cpu)
    print(f"{label}: {status}")
    print(
        f"  CPU per request p50 {percentile(cpu, 50):.2f} ms, p95 {percentile(cpu, 95):.2f} ms "
        f"(mean {mean:.2f}; view {view_ms:.2f}, of which templates {template_ms:.2f}; "
        f"middleware and handler {mean - view_ms:.2f}); {len(queries)} queries"
    )
    for sql in queries:
        print(f"    {sql[:160]}")


def _cpu_ms(work: Callable[[], Any], repeats: int) -> float:
    started = time.process_time()
    for _ in range(repeats):
        work()
    return (time.process_time() - started) * 1000 / repeats


def _lookups(client: Any, group_id: int, user_id: int, repeats: int) -> None:
    """What the poll's two lookups cost apart: the session, and the membership."""
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore

    from campaigns.models import Membership

    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    session = _cpu_ms(lambda: SessionStore(key).load(), repeats)
    member = Membership.objects.filter(group_id=group_id, user_id=user_id, user__is_active=True)
    membership = _cpu_ms(lambda: member.values_list("user__password", flat=True).first(), repeats)
    print(
        f"of the poll: the session read and decoded {session:.2f} ms, the membership "
        f"query {membership:.2f} ms CPU"
    )


def _connections(settings_dict: dict[str, Any], repeats: int) -> None:
    """What CONN_MAX_AGE=0 adds to every request: a new connection to the configured
    database (with SQLite's PRAGMAs), against a query on a kept one. CPU of this process
    only: a PostgreSQL server also starts a backend process for each connection."""
    from django.db.utils import load_backend

    wrapper = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict)

    def query() -> None:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")

    def connect_and_query() -> None:
        wrapper.close()
        query()

    kept = _cpu_ms(query, repeats)
    fresh = _cpu_ms(connect_and_query, max(20, repeats // 5))
    wrapper.close()
    print(f"a query on a kept connection {kept:.2f} ms CPU; on a new one {fresh:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300, help="requests per measurement")
    parser.add_argument("--profile", action="store_true", help="cProfile the unchanged poll")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # As make serve runs it: DEBUG off (no query log, no debug cursor in the CPU times).
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throw-away one
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    django.setup()

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment, teardown_test_environment

    from campaigns.groups.services import add_member, create_group
    from campaigns.play.services import record_attempt
    from campaigns.play.state import campaign_state

    original = dict(connection.settings_dict)  # the configured database, not the test one
    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        backend = str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]
        print(f"database: {connection.vendor} ({name}); cache: {backend}")
        owner = User.objects.create_user("bench-poll-owner")
        phone = User.objects.create_user("bench-poll-phone")
        group = create_group(owner, "bench-poll", ["Ann", "Ben", "Cleo"])
        add_member(group, phone.username, "member")
        campaign = group.current_campaign()
        for _ in range(SETUP_ATTEMPTS):
            campaign.refresh_from_db()
            clock = campaign_state(campaign).next_clock
            record_attempt(campaign, owner, clock, "failed", 3)
            record_attempt(campaign, owner, clock, "passed", 3)
        # Over HTTPS, as Caddy forwards it (DEBUG off makes the session cookie Secure).
        client = Client(headers={"Host": "localhost"})
        client.force_login(phone)
        live = f"/groups/{group.pk}/live/"
        first = client.get(live, secure=True)
        assert first.status_code == 200, (first.status_code, first.headers)
        etag = first["ETag"]

        def unchanged() -> Any:
            return client.get(live, headers={"If-None-Match": etag}, secure=True)

        def changed() -> Any:
            return client.get(live, secure=True)

        def board() -> Any:
            return client.get(f"/groups/{group.pk}/", headers={"HX-Request": "true"}, secure=True)

        for request in (unchanged, changed, board):  # warm up: imports, template loading
            for _ in range(5):
                request()
        _measure("poll, nothing changed", unchanged, unchanged().status_code, args.repeats)
        _measure("poll, something changed", changed, 200, args.repeats)
        _measure("board partial (htmx)", board, 200, max(20, args.repeats // 5))

        bare = [
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
        ]
        with override_settings(MIDDLEWARE=bare):
            cpu = []
            for _ in range(args.repeats):
                started = time.process_time()
                unchanged()
                cpu.append((time.process_time() - started) * 1000)
            print(
                "poll, nothing changed, session and auth middleware only: CPU per request "
                f"p50 {percentile(cpu, 50):.2f} ms, p95 {percentile(cpu, 95):.2f} ms"
            )

        _lookups(client, group.pk, phone.pk, args.repeats)
        _connections(original, args.repeats)

        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(args.repeats):
                unchanged()
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        cache.clear()
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
