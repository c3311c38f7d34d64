"""The evening peak, as locust plays it (run by scripts/load.py, which prepares the tables).

Each locust user is one phone; three phones sit at a table (a group). Every phone polls the
live board every 2.5 s (``If-None-Match`` with the version it shows) and, when the version
changed, fetches the board partial again, as static/js/live.js does. One phone per table
also records an attempt every 60 s (through the API, with an ``Idempotency-Key``, retried
with the same key after a 5xx or a broken connection), opens the statistics page every
5 minutes and asks for a hint every 5 minutes; each table starts its timers at a random
point of their period, so the tables do not all record in the same second.

The tables come from the JSON file named by ``LOAD_TABLES``; each acknowledged record's key
is appended to the file named by ``LOAD_KEYS`` ("group key status" lines), which load.py
compares with the events in the database.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import uuid
from typing import Any

from locust import HttpUser, constant_pacing, task

POLL_EVERY = 2.5
RECORD_EVERY = 60.0
STATISTICS_EVERY = 300.0
HINT_EVERY = 300.0
RECORD_TRIES = 3

with open(os.environ["LOAD_TABLES"]) as _file:
    _LOADED = json.load(_file)
TABLES: list[dict[str, Any]] = _LOADED["tables"]
# Straight to gunicorn, as the TLS proxy reaches it: its host name, forwarded over HTTPS.
AS_THE_PROXY = {"Host": _LOADED["host"], "X-Forwarded-Proto": "https"}
_PHONES = itertools.count()  # gevent: one thread, so no lock is needed


def _colours() -> str:
    """Three seats of four cards, two Suns and two Moons in a random order each."""
    return "/".join("".join(random.sample("SSMM", 4)) for _ in range(3))


class Phone(HttpUser):
    wait_time = constant_pacing(POLL_EVERY)

    def on_start(self) -> None:
        self.client.headers.update(AS_THE_PROXY)
        n = next(_PHONES)
        self.table = TABLES[(n // 3) % len(TABLES)]
        self.seat = n % 3
        phone = self.table["phones"][self.seat]
        self.group_id = self.table["group"]
        self.cookie = {"Cookie": phone["cookie"]}
        self.token = {"Authorization": f"Token {phone['token']}"}
        self.version = ""
        now = time.monotonic()
        self.next_record = now + random.uniform(0, RECORD_EVERY)
        self.next_statistics = now + random.uniform(0, STATISTICS_EVERY)
        self.next_hint = now + random.uniform(0, HINT_EVERY)
        self.keys = open(os.environ["LOAD_KEYS"], "a")  # noqa: SIM115

    def on_stop(self) -> None:
        self.keys.close()

    @task
    def evening(self) -> None:
        self.poll()
        if self.seat != 0:
            return
        now = time.monotonic()
        if now >= self.next_record:
            self.next_record += RECORD_EVERY
            self.record()
        if now >= self.next_statistics:
            self.next_statistics += STATISTICS_EVERY
            self.client.get(
                f"/groups/{self.group_id}/statistics/", headers=self.cookie, name="statistics page"
            )
        if now >= self.next_hint:
            self.next_hint += HINT_EVERY
            self.hint()

    def poll(self) -> None:
        headers = dict(self.cookie, Accept="application/json")
        if self.version:
            headers["If-None-Match"] = self.version
        with self.client.get(
            f"/groups/{self.group_id}/live/", headers=headers, name="live poll", catch_response=True
        ) as response:
            if response.status_code == 304:
                response.success()
                return
            if response.status_code != 200:
                response.failure(f"live poll answered {response.status_code}")
                return
            response.success()
            changed = bool(self.version)
            self.version = response.headers.get("ETag", "")
        if changed:  # as live.js: the board partial, fetched again through htmx
            self.client.get(
                f"/groups/{self.group_id}/",
                headers=dict(self.cookie, **{"HX-Request": "true"}),
                name="board partial",
            )

    def record(self) -> None:
        progress = self.client.get(
            f"/api/groups/{self.group_id}/progress/", headers=self.token, name="api progress"
        )
        if progress.status_code != 200:
            return
        state = progress.json()
        if state["clock"] is None:
            return
        key = uuid.uuid4().hex
        body = {
            "clock": state["clock"],
            "outcome": "passed" if random.random() < 0.4 else "failed",
            "players": 3,
            "expected_event": state["version"],
        }
        headers = dict(self.token, **{"Idempotency-Key": key})
        status = 0
        for _try in range(RECORD_TRIES):
            with self.client.post(
                f"/api/groups/{self.group_id}/attempts/",
                json=body,
                headers=headers,
                name="record attempt",
                catch_response=True,
            ) as response:
                status = response.status_code
                if status in (200, 201):
                    response.success()
                    break
                response.failure(f"record answered {status}")
                if status != 0 and status < 500:
                    break  # refused: sending it again would be refused again
        self.keys.write(f"{self.group_id} {key} {status}\n")
        self.keys.flush()

    def hint(self) -> None:
        progress = self.client.get(
            f"/api/groups/{self.group_id}/progress/", headers=self.token, name="api progress"
        )
        clock = progress.json()["clock"] if progress.status_code == 200 else None
        self.client.post(
            "/api/hints/",
            json={"clock": clock or "1-1", "colours": _colours(), "group": self.group_id},
            headers=self.token,
            name="ask hint",
        )
