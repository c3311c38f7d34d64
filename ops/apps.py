from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def make_cache_table(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """The shared cache's table (CACHE_URL=db://), made wherever migrate runs: make run, make
    serve, restore, the compose entrypoint. Does nothing when the cache is elsewhere or its
    table exists."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        # The worker's heartbeat lives with its model; the Celery app in config knows
        # nothing of ops. A worker sets Django up before it builds its bootsteps.
        from config.celery import app
        from ops.heartbeat import Heartbeat

        app.steps["worker"].add(Heartbeat)
        post_migrate.connect(make_cache_table, sender=self)
