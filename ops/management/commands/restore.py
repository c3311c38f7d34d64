"""``manage.py restore FILE`` (``make restore FILE=…``): a backup made by ``manage.py backup``
back into the database, then migrated forward (a backup of an older release comes back at
today's schema). It refuses a database that already holds accounts or groups unless
``--force`` (``FORCE=1``) is given, and a file that is not a backup of this database's kind.
Stop the app first (make serve, or the compose services but the database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection, connections

from campaigns.models import Group

# How each kind of backup begins (pg_dump's custom format; an SQLite database file).
MAGIC = {"postgresql": b"PGDMP", "sqlite": b"SQLite format 3\x00"}


def held() -> tuple[int, int]:
    """(accounts, groups) in the database; (0, 0) where it has no tables yet."""
    try:
        return User.objects.count(), Group.objects.count()
    except DatabaseError:
        return 0, 0


class Command(BaseCommand):
    help = "Restore a backup into an empty database (--force: replace what it holds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a file made by manage.py backup (var/backups/…)")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that already holds data"
        )

    def handle(self, *args: Any, file: str, force: bool, **options: Any) -> None:
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"restore: no backup at {file}", returncode=2)
        magic = MAGIC[connection.vendor]
        with path.open("rb") as backup:
            if backup.read(len(magic)) != magic:
                raise CommandError(
                    f"restore: {file} is not a {connection.vendor} backup made by manage.py backup",
                    returncode=2,
                )
        accounts, groups = held()
        if (accounts or groups) and not force:
            raise CommandError(
                f"restore: refused, the database already holds {accounts} accounts and "
                f"{groups} groups; give FORCE=1 (--force) to replace them with the backup",
                returncode=2,
            )
        if connection.vendor == "sqlite":
            self._sqlite_restore(path)
        else:
            call_command("dbrestore", "--input-path", str(path), "--noinput", verbosity=0)
        connections.close_all()
        call_command("migrate", "--no-input", verbosity=0)
        accounts, groups = held()
        self.stdout.write(f"restore: {path} restored ({accounts} accounts, {groups} groups)")

    def _sqlite_restore(self, path: Path) -> None:
        """The backup's bytes become the database file. The write-ahead log of the database
        it replaces must go with it: SQLite would otherwise replay that log onto the
        restored file and corrupt it."""
        name = Path(connection.settings_dict["NAME"])
        if name.exists():
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connections.close_all()
        call_command("dbrestore", "--input-path", str(path), "--noinput", verbosity=0)
        for suffix in ("-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
