from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        # The worker's heartbeat lives with its model; the Celery app in config knows
        # nothing of ops. A worker sets Django up before it builds its bootsteps.
        from config.celery import app
        from ops.heartbeat import Heartbeat

        app.steps["worker"].add(Heartbeat)
