"""A database that stays locked is a 503 with a reason, never a 500.

SQLite waits ``timeout`` seconds for another connection's write lock, then gives up with
"database is locked"; PostgreSQL gives up on a lock after ``lock_timeout``. Either way the
request did nothing and may simply be tried again, which is what 503 and Retry-After say.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

RETRY_AFTER_SECONDS = 5
_LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock wait that timed out


def database_is_locked(error: BaseException) -> bool:
    """Whether ``error`` is the database refusing to wait any longer for a lock."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
        return True
    return "is locked" in str(error)  # SQLite: "database is locked", "database table is locked"


def busy_response(request: HttpRequest) -> HttpResponse:
    reason = _("The database is busy with another change. Try again in a few seconds.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": reason}, status=503)
    else:
        response = HttpResponse(reason, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseLockedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if database_is_locked(exception):
            return busy_response(request)
        return None
