from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def make_cache_table(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """The shared cache's table (CACHE_URL=db://), made wherever migrate runs: make run, make
    serve, restore, the compose entrypoint, and a test database, whatever cache the process
    that migrates uses itself: a database migrated under one setting is served under another
    (a test database copied for a production-settings process, a host switching CACHE_URL
    back to db://). Does nothing when the table exists."""
    from django.core.management.commands.createcachetable import Command

    from config.cache import SHARED_TABLE

    command = Command()
    command.verbosity = 0  # create_table reads it; handle() would have set it
    command.create_table(using, SHARED_TABLE, dry_run=False)


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        # The worker's heartbeat lives with its model; the Celery app in config knows
        # nothing of ops. A worker sets Django up before it builds its bootsteps.
        from config.celery import app
        from ops.heartbeat import Heartbeat

        app.steps["worker"].add(Heartbeat)
        post_migrate.connect(make_cache_table, sender=self)
