"""The Celery app. Configuration comes from Django settings (CELERY_* names).

The apps add to it themselves: their tasks are autodiscovered, and ``ops`` adds the
workers' heartbeat bootstep when Django loads it.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("timekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
