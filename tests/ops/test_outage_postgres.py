"""PostgreSQL restarts under load: requests meanwhile answer 503 with a reason (never 500),
the app recovers by itself once the server is back (no restart of gunicorn), and no record
is half-written or doubled.

The server is one of the test's own (tests/ops/conftest.py: a cluster in a temporary
folder, holding a copy of the test database), served by gunicorn as production runs it: two
workers, each keeping its connection (DB_CONN_MAX_AGE=60), so the restart cuts connections
that the app must notice and drop. A table records attempts the whole time, each with its
own Idempotency-Key, sending it again after a 503 (as the page's outbox does) until it is
acknowledged, and reads its progress and statistics.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.ops.conftest import (
    MAKE_TABLE,
    PostgresCluster,
    Web,
    copy_test_database,
    manage,
    production_env,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DOWN_FOR = 3.0  # seconds between the stop and the start


class Table(threading.Thread):
    """Records, reads progress and statistics in a loop until ``stop`` is set; keeps every
    answer as (time, what, status, body)."""

    def __init__(self, web: Web, token: str, group: int) -> None:
        super().__init__(daemon=True)
        self.web, self.token, self.group = web, token, group
        self.stop = threading.Event()
        self.answers: list[tuple[float, str, int, Any, dict[str, str]]] = []
        self.acknowledged: list[str] = []

    def call(self, what: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        status, headers, body = self.web.call(path, self.token, **kwargs)
        self.answers.append((time.monotonic(), what, status, body, headers))
        return status, body

    def run(self) -> None:
        api = f"/api/groups/{self.group}"
        key = ""
        while not self.stop.is_set():
            self.call("statistics", f"{api}/statistics/")
            status, progress = self.call("progress", f"{api}/progress/")
            if status != 200:
                time.sleep(0.2)
                continue
            key = key or uuid.uuid4().hex
            body = {"clock": progress["clock"], "outcome": "failed", "players": 3}
            status, _ = self.call(
                "record", f"{api}/attempts/", body=body, headers={"Idempotency-Key": key}
            )
            if status in (200, 201):
                self.acknowledged.append(key)
                key = ""
            elif status != 503:
                raise AssertionError(f"record answered {status}")
            time.sleep(0.1)


def test_requests_during_a_restart_get_503_and_the_app_recovers_without_half_records(
    postgres_cluster: PostgresCluster, tmp_path: Path
) -> None:
    copy_test_database(postgres_cluster)
    env = production_env(postgres_cluster.url, tmp_path)
    table = json.loads(manage(env, "shell", "-v", "0", "-c", MAKE_TABLE))
    web = Web(env, tmp_path / "gunicorn.log")
    load = Table(web, table["token"], table["group"])
    try:
        load.start()
        deadline = time.monotonic() + 30
        while len(load.acknowledged) < 3:  # both workers hold a connection by now
            assert time.monotonic() < deadline and load.is_alive(), load.answers[-3:]
            time.sleep(0.1)
        postgres_cluster.stop()
        stopped = time.monotonic()
        time.sleep(DOWN_FOR)
        postgres_cluster.start()
        back = time.monotonic()
        # Every kind of request succeeds again after the return, without restarting gunicorn.
        deadline = back + 30
        while True:
            after = [a for a in load.answers if a[0] > back]
            recovered = {what for _t, what, status, _b, _h in after if status == 200}
            if (
                {"progress", "statistics"} <= recovered
                and load.acknowledged[-1:]
                and any(a[1] == "record" and a[2] in (200, 201) for a in after)
            ):
                break
            assert time.monotonic() < deadline and load.is_alive(), after[-3:]
            time.sleep(0.1)
        first_ok = min(t for t, _w, status, _b, _h in after if status in (200, 201))
        acknowledged_before = len(load.acknowledged)
        while len(load.acknowledged) < acknowledged_before + 3:
            assert time.monotonic() < deadline + 30 and load.is_alive(), load.answers[-3:]
            time.sleep(0.1)
    finally:
        load.stop.set()
        load.join(timeout=60)
        web.stop()

    during = [a for a in load.answers if stopped <= a[0] <= back]
    statuses = Counter(status for _t, _w, status, _b, _h in load.answers)
    print(
        f"answers {dict(statuses)}; {len(during)} while PostgreSQL was down; first success "
        f"{first_ok - back:.2f} s after its return"
    )
    assert 500 not in statuses
    assert set(statuses) <= {200, 201, 503}, statuses
    unavailable = [a for a in load.answers if a[2] == 503]
    assert unavailable, "no request met the restart"
    for _t, _what, _status, body, headers in unavailable:
        assert "database cannot be reached" in body["detail"]
        assert headers["Retry-After"] == "5"
    # After a success following the return, nothing failed any more: recovered, for good.
    assert all(a[2] != 503 for a in load.answers if a[0] > first_ok)

    # Each acknowledged record is one event with its attempt; nothing else was written.
    with psycopg.connect(postgres_cluster.url.replace("postgres://", "postgresql://")) as db:
        events = db.execute(
            "SELECT e.request_key, a.id FROM campaigns_event e "
            "LEFT JOIN campaigns_attempt a ON a.event_id = e.id"
        ).fetchall()
        attempts = db.execute("SELECT count(*) FROM campaigns_attempt").fetchone()
        failures = db.execute("SELECT sum(failures) FROM campaigns_clockprogress").fetchone()
    keys = [key for key, _attempt in events]
    assert sorted(keys) == sorted(load.acknowledged)  # none lost, none doubled
    assert all(attempt is not None for _key, attempt in events)
    assert attempts is not None and attempts[0] == len(load.acknowledged)
    assert failures is not None and failures[0] == len(load.acknowledged)
