"""``manage.py backup`` (``make backup``): one dated backup of the database in BACKUP_DIR
(var/backups/ by default), through django-dbbackup (PostgreSQL: pg_dump's custom format;
SQLite: its online backup API, safe while the app runs), keeping the newest BACKUP_KEEP.
A backup holds sessions and API tokens: it and its folder are readable by this user only."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Back up the database into BACKUP_DIR, keeping the newest BACKUP_KEEP backups."

    def handle(self, *args: Any, **options: Any) -> None:
        os.umask(0o077)  # pg_dump and SQLite write the file: theirs follows ours
        folder = Path(settings.BACKUP_DIR)
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        before = set(_backups(folder))
        call_command("dbbackup", "--noinput", verbosity=0)
        for path in sorted(set(_backups(folder)) - before):
            self.stdout.write(f"backup: {path} ({path.stat().st_size / 1e6:.1f} MB)")
        # The newest BACKUP_KEEP stay (their names sort by date), with their metadata.
        for old in _backups(folder)[: -settings.DBBACKUP_CLEANUP_KEEP]:
            old.unlink()
            Path(f"{old}.metadata").unlink(missing_ok=True)


def _backups(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("timekeeper-*") if p.suffix != ".metadata")
