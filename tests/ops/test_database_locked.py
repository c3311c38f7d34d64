"""A database that stays locked answers 503 with a reason (and Retry-After), never 500;
the embedded SQLite lets readers read while a writer holds its lock."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from campaigns.groups.services import create_group

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def table_locked(table: str) -> Iterator[None]:
    """Another connection holds a write lock on ``table`` until the block ends, and this
    process's connection stops waiting for it quickly (as it would after its timeout)."""
    if connection.vendor == "sqlite":
        # The test database is SQLite's shared in-memory one: a second connection's open
        # write on a table locks it for every other connection at once.
        other = sqlite3.connect(connection.settings_dict["NAME"], uri=True, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute(f"DELETE FROM {table} WHERE 0")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    import psycopg

    with psycopg.connect(**connection.get_connection_params()) as holder:
        holder.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        try:
            yield
        finally:
            holder.rollback()
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")


def test_healthz_answers_503_when_the_database_is_locked(client: Client) -> None:
    with table_locked("ops_workerheartbeat"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "locked"


def test_an_api_call_on_a_locked_table_answers_503_with_a_reason(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben"])
    client = login(alice)
    with table_locked("campaigns_membership"):
        response = client.get(f"/api/groups/{group.pk}/")
    assert response.status_code == 503
    assert "busy" in response.json()["detail"]
    assert response["Retry-After"] == "5"


def test_a_page_on_a_locked_table_answers_503_with_a_reason(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben"])
    client = login(alice)
    with table_locked("campaigns_membership"):
        response = client.get(f"/groups/{group.pk}/")
    assert response.status_code == 503
    assert b"busy" in response.content


def test_the_embedded_database_lets_readers_read_while_a_writer_holds_its_lock(
    tmp_path: Path,
) -> None:
    """With the settings' own SQLite options (journal, busy timeout) on a file database,
    a reader that will not wait at all still reads while another connection writes."""
    script = textwrap.dedent(
        """
        import sqlite3
        from django.db import connection
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE clocks (id text)")
            cursor.execute("INSERT INTO clocks VALUES ('1-1')")
            cursor.execute("PRAGMA journal_mode")
            print(cursor.fetchone()[0])
            cursor.execute("PRAGMA busy_timeout")
            print(cursor.fetchone()[0])
        connection.close()
        writer = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("INSERT INTO clocks VALUES ('1-2')")
        connection.settings_dict["OPTIONS"]["timeout"] = 0  # a reader that never waits
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM clocks")
            print(cursor.fetchone()[0])
        writer.execute("ROLLBACK")
        """
    )
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "TIMEKEEPER_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    journal, busy_ms, readable = done.stdout.split()
    assert journal == "wal"
    assert int(busy_ms) >= 5000
    assert readable == "1"  # the committed row; the writer's is not visible yet
