"""Backups, restore and upgrades as an operator runs them (``manage.py backup`` / ``restore``,
what make backup / make restore call), each in its own process on a database of its own:
SQLite in a temporary folder, and PostgreSQL in a database made for the test where
DATABASE_URL names a PostgreSQL server (as on CI).

Round trip: the scenario's group (tests/ops/backup_scenario.py) is backed up, the database
dropped, the backup restored; the API then answers byte for byte as before. Upgrade: a
backup of the same scenario made at an earlier release's migrations
(tests/ops/fixtures/upgrade/) is restored and so migrated forward; everything the API
answered then is answered the same (later releases may add to an answer).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.ops.backup_scenario import FIXTURE

pytestmark = [pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Database:
    vendor: str
    env: dict[str, str]
    drop: Any  # () -> None: the database gone, then made again empty
    folder: Path

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check:
            assert result.returncode == 0, result.stderr[-2000:]
        return result

    def scenario(self, function: str) -> str:
        code = f"from tests.ops.backup_scenario import {function}; {function}()"
        return self.manage("shell", "-v", "0", "-c", code).stdout

    def answers(self) -> dict[str, str]:
        return dict(json.loads(self.scenario("answers")))


def _environment(folder: Path, database_url: str) -> dict[str, str]:
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "ALLOWED_HOSTS", "DOMAIN"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    return env | {
        "DATABASE_URL": database_url,
        "TIMEKEEPER_VAR_DIR": str(folder),
        "BACKUP_DIR": str(folder / "backups"),
        "ALLOWED_HOSTS": "testserver",
        "CELERY_BROKER_URL": "memory://",
    }


def _sqlite(folder: Path) -> Iterator[Database]:
    path = folder / "db.sqlite3"

    def drop() -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    yield Database("sqlite", _environment(folder, f"sqlite:///{path}"), drop, folder)


def _postgresql(folder: Path) -> Iterator[Database]:
    server = os.environ.get("DATABASE_URL", "")
    if not server.startswith("postgres"):
        pytest.skip("the PostgreSQL round trip needs DATABASE_URL=postgres://… (CI sets it)")
    import psycopg

    base, _, _ = server.rpartition("/")
    name = f"tk_backup_{uuid.uuid4().hex[:10]}"

    def admin(sql: str) -> None:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(sql)

    def drop() -> None:
        admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin(f'CREATE DATABASE "{name}"')

    admin(f'CREATE DATABASE "{name}"')
    try:
        yield Database("postgresql", _environment(folder, f"{base}/{name}"), drop, folder)
    finally:
        admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    yield from (_sqlite if request.param == "sqlite" else _postgresql)(tmp_path)


def _backups(database: Database) -> list[Path]:
    return sorted(
        p for p in (database.folder / "backups").glob("timekeeper-*") if p.suffix != ".metadata"
    )


def test_a_backup_restored_into_a_dropped_database_answers_as_before(database: Database) -> None:
    database.manage("migrate", "--no-input", "-v", "0")
    database.scenario("build")
    before = database.answers()
    made = database.manage("backup").stdout
    [backup] = _backups(database)
    assert made.startswith(f"backup: {backup} (")
    database.drop()
    database.manage("restore", str(backup))
    assert database.answers() == before
    # A second restore finds the data there: refused in one line, exit code 2.
    refused = database.manage("restore", str(backup), check=False)
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "already holds 1 accounts and 1 groups; give FORCE=1" in refused.stderr
    database.manage("restore", str(backup), "--force")
    assert database.answers() == before


def test_restore_refuses_a_missing_file_or_one_that_is_no_backup(database: Database) -> None:
    missing = database.manage("restore", str(database.folder / "nothing.bin"), check=False)
    assert missing.returncode == 2 and "restore: no backup at" in missing.stderr
    other = database.folder / "notes.txt"
    other.write_text("not a backup")
    wrong = database.manage("restore", str(other), check=False)
    assert wrong.returncode == 2 and "is not a" in wrong.stderr


def _damaged(backup: Path, how: str) -> Path:
    """The backup cut short (the first 40 %) or with 4 KB overwritten in its middle."""
    data = bytearray(backup.read_bytes())
    if how == "cut short":
        data = data[: len(data) * 2 // 5]
    else:
        middle = len(data) // 2
        data[middle : middle + 4096] = bytes(range(256)) * 16
    damaged = backup.with_name(f"damaged-{how.replace(' ', '-')}{backup.suffix}")
    damaged.write_bytes(bytes(data))
    return damaged


@pytest.mark.parametrize("how", ["cut short", "overwritten"])
def test_a_damaged_backup_is_refused_in_one_line_and_the_database_is_untouched(
    database: Database, how: str
) -> None:
    database.manage("migrate", "--no-input", "-v", "0")
    database.scenario("build")
    before = database.answers()
    database.manage("backup")
    [backup] = _backups(database)
    refused = database.manage("restore", str(_damaged(backup, how)), "--force", check=False)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "the database was not touched" in refused.stderr
    assert database.answers() == before
    assert _backups(database) == [backup]  # nothing kept: nothing was replaced


def test_a_foreign_sqlite_file_is_refused_and_the_database_is_untouched(tmp_path: Path) -> None:
    import sqlite3

    [database] = list(_sqlite(tmp_path))
    database.manage("migrate", "--no-input", "-v", "0")
    database.scenario("build")
    before = database.answers()
    foreign = tmp_path / "recipes.sqlite3"
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE django_migrations (app TEXT, name TEXT)")
        other.execute("CREATE TABLE recipes (name TEXT)")
    refused = database.manage("restore", str(foreign), "--force", check=False)
    assert refused.returncode == 2
    assert "is not a Timekeeper database" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert database.answers() == before


def test_a_forced_restore_first_keeps_the_database_it_replaces(database: Database) -> None:
    database.manage("migrate", "--no-input", "-v", "0")
    database.scenario("build")
    database.manage("backup")
    [backup] = _backups(database)
    code = "from django.contrib.auth.models import User; User.objects.create_user('late-joiner')"
    database.manage("shell", "-c", code)
    restored = database.manage("restore", str(backup), "--force").stdout
    [kept] = [p for p in _backups(database) if "-before-restore" in p.name]
    assert f"kept in {kept}" in restored
    assert kept.stat().st_mode & 0o777 == 0o600
    count = "from django.contrib.auth.models import User; print(User.objects.count())"
    assert database.manage("shell", "-v", "0", "-c", count).stdout.split() == ["1"]
    database.manage("restore", str(kept), "--force")  # the late joiner is back
    assert database.manage("shell", "-v", "0", "-c", count).stdout.split() == ["2"]


def make_restore(database: Database, *args: str) -> subprocess.CompletedProcess[str]:
    """``make restore`` as an operator types it (``-o install``: the shared .venv is ready)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-o", "install", "restore", *args],
        cwd=ROOT,
        env=database.env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_make_restore_says_a_refusal_once_and_restores_a_good_backup(tmp_path: Path) -> None:
    [database] = list(_sqlite(tmp_path))
    database.manage("migrate", "--no-input", "-v", "0")
    database.manage("backup")
    [backup] = _backups(database)
    for args in ([f"FILE={_damaged(backup, 'cut short')}", "FORCE=1"], []):
        refused = make_restore(database, *args)
        lines = (refused.stdout + refused.stderr).strip().splitlines()
        assert refused.returncode == 2
        assert len(lines) == 1 and "Error 2" not in lines[0], lines
        assert "restore: " in lines[0]
    database.drop()
    restored = make_restore(database, f"FILE={backup}")
    assert restored.returncode == 0, restored.stderr
    assert f"restore: {backup} restored (0 accounts, 0 groups)" in restored.stderr


def test_backups_keep_the_newest_backup_keep(tmp_path: Path) -> None:
    [database] = list(_sqlite(tmp_path))
    database.env["BACKUP_KEEP"] = "2"
    database.manage("migrate", "--no-input", "-v", "0")
    for _ in range(3):
        database.manage("backup")
        time.sleep(1.1)  # backups are named by the second
    kept = _backups(database)
    assert len(kept) == 2
    metadata = sorted((tmp_path / "backups").glob("*.metadata"))
    assert metadata == [Path(f"{path}.metadata") for path in kept]


def test_a_backup_and_its_folder_are_private_to_their_user(tmp_path: Path) -> None:
    [database] = list(_sqlite(tmp_path))
    database.manage("migrate", "--no-input", "-v", "0")
    (tmp_path / "backups").mkdir(mode=0o755)
    (tmp_path / "backups").chmod(0o755)  # as an earlier release left it
    old_umask = os.umask(0o022)  # as a person's shell has it
    try:
        database.manage("backup")
    finally:
        os.umask(old_umask)
    [backup] = _backups(database)
    assert backup.stat().st_mode & 0o777 == 0o600
    assert Path(f"{backup}.metadata").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "backups").stat().st_mode & 0o777 == 0o700


def test_an_earlier_release_is_migrated_forward_without_losing_anything(
    database: Database,
) -> None:
    # A backup made at an earlier release's migrations (tests/ops/backup_scenario.py says
    # which), restored as an operator would: restore migrates it forward.
    backup = database.folder / "earlier.backup"
    with gzip.open(FIXTURE / f"{database.vendor}.backup.gz") as packed:
        backup.write_bytes(packed.read())
    recorded = json.loads((FIXTURE / "migrations.json").read_text())
    database.manage("restore", str(backup))
    applied = database.manage("showmigrations", "solver", "--plan").stdout
    assert f"[X]  solver.{recorded['solver']}" in applied
    assert "[ ]" not in applied
    expected = json.loads((FIXTURE / f"answers-{database.vendor}.json").read_text())
    found = database.answers()
    assert found.keys() == expected.keys()
    for path, answer in expected.items():
        _contains(json.loads(found[path]), json.loads(answer), path)


def _contains(found: Any, expected: Any, where: str) -> None:
    """Everything the release answered is still answered the same (a later release may
    answer more: new keys are allowed, nothing else)."""
    if isinstance(expected, dict):
        assert isinstance(found, dict), where
        for key, value in expected.items():
            assert key in found, f"{where}: {key} is gone"
            _contains(found[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(found, list) and len(found) == len(expected), where
        for number, (a, b) in enumerate(zip(found, expected, strict=True)):
            _contains(a, b, f"{where}[{number}]")
    else:
        assert found == expected, where
