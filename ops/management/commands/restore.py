"""``manage.py restore FILE`` (``make restore FILE=…``): a backup made by ``manage.py backup``
back into the database, then migrated forward (a backup of an older release comes back at
today's schema). Stop the app first (make serve, or the compose services but the database).

Nothing is touched until the whole file has been read and found to be a Timekeeper backup of
this database's kind: SQLite's integrity check passes and the file holds Timekeeper's tables
and migrations; pg_restore reads a PostgreSQL dump to its end and lists Timekeeper's tables.
A bad, truncated or foreign file is refused in one line (exit code 2). A database that holds
accounts or groups is replaced only with ``--force`` (``FORCE=1``), and is first kept as
``BACKUP_DIR/timekeeper-…-before-restore…``. SQLite: the backup is copied into a new file
beside the database and migrated there, then renamed over it (atomic), so a crash part-way
leaves the old database whole.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection, connections

from campaigns.models import Group

# How each kind of backup begins (pg_dump's custom format; an SQLite database file).
MAGIC = {"postgresql": b"PGDMP", "sqlite": b"SQLite format 3\x00"}
# What makes a database Timekeeper's: these tables, and migrations of these apps applied.
TABLES = ("django_migrations", "auth_user", "campaigns_group")
MIGRATED_APPS = ("auth", "campaigns")


def held() -> tuple[int, int]:
    """(accounts, groups) in the database; (0, 0) where it has no tables yet."""
    try:
        return User.objects.count(), Group.objects.count()
    except DatabaseError:
        return 0, 0


def sqlite_problem(path: Path) -> str | None:
    """Why ``path`` is not a whole Timekeeper SQLite database, or None. Opened read-only and
    immutable: checking a file writes nothing, not even a -wal or -shm beside it."""
    try:
        backup = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            verdict = [row[0] for row in backup.execute("PRAGMA integrity_check")]
            if verdict != ["ok"]:
                return f"is damaged (SQLite's integrity check: {verdict[0]})"
            tables = {row[0] for row in backup.execute("SELECT name FROM sqlite_master")}
            if missing := [table for table in TABLES if table not in tables]:
                return f"is not a Timekeeper database (it has no {missing[0]} table)"
            apps = {row[0] for row in backup.execute("SELECT DISTINCT app FROM django_migrations")}
            if missing := [app for app in MIGRATED_APPS if app not in apps]:
                return f"is not a Timekeeper database (no {missing[0]} migrations applied)"
        finally:
            backup.close()
    except sqlite3.DatabaseError as error:
        return f"is not a whole SQLite database ({error})"
    return None


def postgresql_problem(path: Path) -> str | None:
    """Why ``path`` is not a whole Timekeeper pg_dump, or None: pg_restore lists its contents,
    then reads every part of it (writing the script it would run to nowhere)."""
    listed = subprocess.run(["pg_restore", "--list", str(path)], capture_output=True, text=True)
    if listed.returncode != 0:
        return f"is not a readable pg_dump ({_last_line(listed.stderr)})"
    if " TABLE public campaigns_group " not in listed.stdout:
        return "is not a Timekeeper database (it has no campaigns_group table)"
    read = subprocess.run(
        ["pg_restore", "--file", os.devnull, str(path)], capture_output=True, text=True
    )
    if read.returncode != 0:
        return f"is damaged or cut short ({_last_line(read.stderr)})"
    return None


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "no reason given"


class Command(BaseCommand):
    help = "Restore a backup into an empty database (--force: replace what it holds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a file made by manage.py backup (var/backups/…)")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that already holds data"
        )

    def handle(self, *args: Any, file: str, force: bool, **options: Any) -> None:
        os.umask(0o077)  # the copy kept and the restored database hold tokens and sessions
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"restore: no backup at {file}", returncode=2)
        vendor = connection.vendor
        with path.open("rb") as backup:
            if backup.read(len(MAGIC[vendor])) != MAGIC[vendor]:
                raise CommandError(
                    f"restore: {file} is not a {vendor} backup made by manage.py backup",
                    returncode=2,
                )
        problem = sqlite_problem(path) if vendor == "sqlite" else postgresql_problem(path)
        if problem:
            raise CommandError(
                f"restore: refused, {file} {problem}; the database was not touched", returncode=2
            )
        accounts, groups = held()
        if (accounts or groups) and not force:
            raise CommandError(
                f"restore: refused, the database already holds {accounts} accounts and "
                f"{groups} groups; give FORCE=1 (--force) to replace them with the backup",
                returncode=2,
            )
        if accounts or groups:
            kept = self._keep_current(vendor)
            self.stdout.write(f"restore: the database as it was is kept in {kept}")
        if vendor == "sqlite":
            self._sqlite_restore(path)
        else:
            call_command("dbrestore", "--input-path", str(path), "--noinput", verbosity=0)
            connections.close_all()
            call_command("migrate", "--no-input", verbosity=0)
        accounts, groups = held()
        self.stdout.write(f"restore: {path} restored ({accounts} accounts, {groups} groups)")

    def _keep_current(self, vendor: str) -> Path:
        folder = Path(settings.BACKUP_DIR)
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime(settings.DBBACKUP_DATE_FORMAT)
        if vendor == "sqlite":
            kept = folder / f"timekeeper-{stamp}-before-restore.sqlite3"
            live = sqlite3.connect(connection.settings_dict["NAME"])
            copy = sqlite3.connect(kept)
            try:
                live.backup(copy)
            finally:
                copy.close()
                live.close()
        else:
            kept = folder / f"timekeeper-{stamp}-before-restore.psql.bin"
            call_command("dbbackup", "--noinput", "--output-filename", kept.name, verbosity=0)
        kept.chmod(0o600)
        return kept

    def _sqlite_restore(self, path: Path) -> None:
        """The backup is copied into a new file beside the database and migrated there; only
        then does it replace the database, by a rename. The database's write-ahead log is
        emptied into it and removed first: SQLite would otherwise replay that log onto the
        restored file and corrupt it."""
        live = Path(connection.settings_dict["NAME"])
        fresh = live.with_name(f"{live.name}.restoring")
        _remove_with_log(fresh)
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        target = sqlite3.connect(fresh)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        migrated = subprocess.run(
            [sys.executable, str(settings.BASE_DIR / "manage.py"), "migrate", "--no-input"],
            env={**os.environ, "DATABASE_URL": f"sqlite:///{fresh}"},
            capture_output=True,
            text=True,
        )
        if migrated.returncode != 0:
            _remove_with_log(fresh)
            raise CommandError(
                f"restore: migrating {path} failed ({_last_line(migrated.stderr)}); "
                "the database was not touched"
            )
        settled = sqlite3.connect(fresh)  # its own log emptied into it before the rename
        settled.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        settled.close()
        if live.exists():
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connections.close_all()
        for suffix in ("-wal", "-shm"):
            Path(f"{live}{suffix}").unlink(missing_ok=True)
        os.replace(fresh, live)
        _remove_with_log(fresh)


def _remove_with_log(database: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
