from __future__ import annotations

import logging
import os

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app
from ops.heartbeat import live_workers

logger = logging.getLogger(__name__)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        logger.warning("healthz: database unavailable", exc_info=True)
        return False


def _broker_ok() -> bool:
    if settings.BROKER_IS_FILESYSTEM:
        # kombu's filesystem transport "connects" even to a folder that is gone or read-only.
        folder = str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
        return os.path.isdir(folder) and os.access(folder, os.W_OK)
    try:
        with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            # Virtual transports (Redis) connect lazily: ask the server itself.
            client = getattr(conn.default_channel, "client", None)
            if client is not None and hasattr(client, "ping"):
                client.ping()
        return True
    except Exception:  # kombu raises many kinds (OSError, OperationalError, …)
        logger.warning("healthz: broker unavailable", exc_info=True)
        return False


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the app can serve; 503 naming the failing part. Used by compose and CI."""
    database = _database_ok()
    broker = _broker_ok()
    body: dict[str, object] = {
        "database": "ok" if database else "down",
        "broker": "ok" if broker else "down",
        "workers": live_workers() if database else 0,
    }
    return JsonResponse(body, status=200 if database and broker else 503)
