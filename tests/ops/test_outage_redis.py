"""Redis stops (for a few seconds here; the behaviour is the same for 60): recording, the
live board and the statistics keep working, with the throttles' counts in that Redis too
(CACHE_URL, as docker-compose sets it); a hint asked meanwhile answers 503 "the solver is
unreachable" in the API and a message on the page, never 500; once Redis is back, hints
work again with the same worker and web, restarted by nobody.

The Redis server is the test's own (tests/conftest.py ``redis_server``), the app's broker
and cache for the test; a real Celery worker runs the hints (in a thread of this process,
on the test database), at a small effort.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from accounts.models import ApiToken
from campaigns.groups.services import create_group
from config.celery import app as celery_app
from solver.models import HintRequest
from tests.conftest import use_broker
from tests.workers import running_worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HINT = {"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "face_up": 3}


@pytest.fixture
def redis(redis_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The test's own Redis, started: the app's broker (db 0) and cache (db 1)."""
    redis_server.start()
    settings.HINT_EFFORT = 0.2
    settings.HINT_ODDS_SAMPLES = 200
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.ForgivingRedisCache",
            "LOCATION": f"redis://127.0.0.1:{redis_server.port}/1",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    old_url = celery_app.conf.broker_url
    old_options = dict(celery_app.conf.broker_transport_options or {})
    monkeypatch.setenv("CELERY_BROKER_URL", redis_server.url)
    use_broker(redis_server.url, {"visibility_timeout": 3600})
    yield redis_server
    redis_server.stop()
    monkeypatch.undo()
    use_broker(old_url, old_options)


def _done(hint_id: int, timeout: float = 120) -> HintRequest:
    deadline = time.monotonic() + timeout
    while True:
        hint = HintRequest.objects.get(pk=hint_id)
        if hint.status not in (HintRequest.Status.QUEUED, HintRequest.Status.RUNNING):
            return hint
        assert time.monotonic() < deadline, (hint.status, hint.sent_at)
        time.sleep(0.1)


def test_while_redis_is_down_the_table_plays_on_and_hints_say_the_solver_is_unreachable(
    redis: Any, alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    api = Client(headers={"Authorization": f"Token {ApiToken.issue(alice)}"})
    page = login(alice)
    with running_worker(celery_app):
        asked = api.post("/api/hints/", {**HINT, "face_up": 2}, content_type="application/json")
        assert asked.status_code == 202, asked.content
        assert _done(asked.json()["id"]).status == HintRequest.Status.DONE
        assert cache.get("throttle:probe") is None and cache.add("throttle:probe", 1)

        redis.stop()
        started = time.monotonic()
        recorded = api.post(
            f"/api/groups/{group.pk}/attempts/",
            {"clock": "1-1", "outcome": "failed", "players": 3},
            content_type="application/json",
            headers={"Idempotency-Key": "while-redis-is-down"},
        )
        assert recorded.status_code == 201, recorded.content
        assert page.get(f"/groups/{group.pk}/live/").status_code == 200
        assert page.get(f"/groups/{group.pk}/").status_code == 200
        assert api.get(f"/api/groups/{group.pk}/statistics/").status_code == 200
        assert page.get(f"/groups/{group.pk}/statistics/").status_code == 200

        unreachable = api.post("/api/hints/", HINT, content_type="application/json")
        assert unreachable.status_code == 503, unreachable.content
        assert "solver is unreachable" in unreachable.json()["detail"]
        assert unreachable["Retry-After"] == "60"
        from_the_page = page.post("/hints/new/", {**HINT, "players": 3, "face_up": 4})
        assert from_the_page.status_code == 302
        shown = page.get(from_the_page["Location"]).content.decode()
        assert "The solver is unavailable right now" in shown
        print(f"while Redis was down: {time.monotonic() - started:.1f} s of requests")

        redis.start()
        again = api.post("/api/hints/", HINT, content_type="application/json")
        assert again.status_code == 200, again.content  # the same hint, sent this time
        assert again.json()["id"] == unreachable.json()["id"]
        assert _done(again.json()["id"]).status == HintRequest.Status.DONE
        assert cache.add("throttle:probe-after", 1) and cache.get("throttle:probe-after") == 1
