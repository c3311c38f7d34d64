"""The data a backup must keep, and what the API answers about it.

``build()`` makes a group with a campaign, attempts, a clock in the Sleeve, a finished hint
and a community transcription, through the API where one exists. ``answers()`` prints, as
JSON, the raw bytes (as text) of the progress, statistics, events, transcriptions and hint
answers. tests/ops/test_backup.py runs both in ``manage.py shell`` before a backup and
after a restore; tests/ops/test_upgrade.py compares them with a fixture.

The upgrade fixture (tests/ops/fixtures/upgrade/) was made at the commit before
solver/migrations/0007_plan_book.py, on an empty SQLite and an empty PostgreSQL database
(``migrate``, then
``python manage.py shell -c "from tests.ops.backup_scenario import fixture; fixture()"``).
Remake it the same way at a later release to move the upgrade test's starting point.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path

from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from rest_framework.test import APIClient

from campaigns.groups.services import create_group
from campaigns.models import Group
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.core.words import all_words
from solver.models import HintRequest
from solver.results import result_json

USERNAME = "keeper"
GROUP = "Backup table"
FINISHED = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "upgrade"


def _client() -> APIClient:
    client = APIClient()
    client.force_authenticate(User.objects.get(username=USERNAME))
    return client


def build() -> None:
    owner = User.objects.create_user(USERNAME)
    group = create_group(owner, GROUP, ["Ann", "Ben", "Cleo"])
    client = _client()
    base = f"/api/groups/{group.pk}/"

    def post(path: str, body: dict[str, object]) -> None:
        response = client.post(base + path, body, format="json")
        assert response.status_code == 201, (path, response.content)

    for clock, outcome in (("1-1", "failed"), ("1-1", "passed"), ("1-2", "failed")):
        post("attempts/", {"clock": clock, "outcome": outcome, "players": 3})
    post("sleeve/", {"clock": "1-2"})
    post("attempts/", {"clock": "1-3", "outcome": "passed", "players": 3})
    post(
        "transcriptions/",
        {"clock": "5-2", "rules": [{"kind": "card_count", "segment": 2, "count": 2}]},
    )
    definition, colours = get_clock("1-4"), "MMMM/SSMM/MMSS"
    seats = parse_colours(colours)
    plan = baseline_plan(definition, seats, 3)
    words = all_words(plan, definition, seats, 3)
    result = HintResult(plan, 0.6, (0.55, 0.65), 0.4, 0.9, 1000, words, False)
    HintRequest.objects.create(
        user=owner, group=group, campaign=group.current_campaign(), clock_id="1-4",
        clock_definition=definition.to_json(), colours=colours, players=3, face_up=3,
        names=["Ann", "Ben", "Cleo"], status=HintRequest.Status.DONE, progress=100,
        result=result_json(result, "en"), input_hash="backup-scenario", finished_at=FINISHED,
    )  # fmt: skip


def collect() -> dict[str, str]:
    group = Group.objects.get(name=GROUP)
    hint = HintRequest.objects.get(input_hash="backup-scenario")
    base = f"/api/groups/{group.pk}/"
    paths = [
        base + "progress/",
        base + "statistics/",
        base + "events/",
        base + "transcriptions/",
        f"/api/hints/{hint.pk}/",
    ]
    client = _client()
    found: dict[str, str] = {}
    for path in paths:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, (path, response.status_code)
        found[path] = response.content.decode()
    return found


def answers() -> None:
    sys.stdout.write(json.dumps(collect()))


def fixture() -> None:
    """The upgrade fixture, from an empty database at a release's migrations: those
    migrations, a backup of the scenario as ``manage.py backup`` makes it (gzipped; one per
    kind of database: run it on SQLite and on PostgreSQL) and the API's answers."""
    from dbbackup.db.base import get_connector

    build()
    FIXTURE.mkdir(parents=True, exist_ok=True)
    leaves = dict(MigrationLoader(connection).graph.leaf_nodes())
    (FIXTURE / "migrations.json").write_text(json.dumps(leaves, indent=1, sort_keys=True) + "\n")
    dump = get_connector().create_dump()
    dump.seek(0)
    with gzip.GzipFile(FIXTURE / f"{connection.vendor}.backup.gz", "wb", mtime=0) as out:
        shutil.copyfileobj(dump, out)
    answers_path = FIXTURE / f"answers-{connection.vendor}.json"
    answers_path.write_text(json.dumps(collect(), indent=1, ensure_ascii=False) + "\n")
