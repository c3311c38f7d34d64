"""A database that is locked, unreachable or out of disk answers with a reason, never a 500.

- **Locked.** SQLite waits ``timeout`` seconds for another connection's write lock, then
  gives up with "database is locked"; PostgreSQL gives up on a lock after ``lock_timeout``.
  503 with Retry-After: the request did nothing and may simply be tried again.
- **Unreachable.** PostgreSQL restarting (or gone): the connection is refused, or the server
  closes it under a request. 503 with Retry-After; the broken connection is dropped at
  once, so the next request opens a new one when the server is back.
- **Disk full.** The database (SQLite "database or disk is full", PostgreSQL's ``53100``)
  or a file under var/ cannot grow. 507: trying again does not help until someone frees
  space; what was recorded before is untouched (a transaction is written whole or not at
  all).

``DatabaseUnavailableMiddleware`` answers the errors a view raises; ``server_error`` (the
project's ``handler500``) answers those raised outside a view (a session saved as the
response leaves), so neither path ends in a 500.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

RETRY_AFTER_SECONDS = 5
_LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock wait that timed out
_DISK_FULL = "53100"
# PostgreSQL shutting down or starting up: admin_shutdown, crash_shutdown, cannot_connect_now.
_SHUTTING_DOWN = ("57P01", "57P02", "57P03")


def database_is_locked(error: BaseException) -> bool:
    """Whether ``error`` is the database refusing to wait any longer for a lock."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
        return True
    return "is locked" in str(error)  # SQLite: "database is locked", "database table is locked"


def disk_is_full(error: BaseException) -> bool:
    """Whether ``error`` is the database or a file under var/ out of space."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) == _DISK_FULL:
        return True
    return getattr(cause, "sqlite_errorname", "") == "SQLITE_FULL" or "disk is full" in str(error)


def database_is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` is the connection to the database failing (refused, closed under a
    request, the server shutting down), not a mistake in a query."""
    if isinstance(error, InterfaceError):  # Django: "connection already closed"
        return True
    if not isinstance(error, OperationalError) or database_is_locked(error):
        return False
    cause = error.__cause__
    if disk_is_full(error):
        return False
    sqlite_name = str(getattr(cause, "sqlite_errorname", ""))
    if sqlite_name:
        return sqlite_name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR"))
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate is None:
        # psycopg's own errors about the connection (refused, lost, closed) carry none.
        return type(cause).__module__.startswith("psycopg")
    return str(sqlstate).startswith("08") or sqlstate in _SHUTTING_DOWN


def _answer(request: HttpRequest, reason: str, status: int, retry_after: int = 0) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": reason}, status=status)
    else:
        response = HttpResponse(reason, status=status, content_type="text/plain; charset=utf-8")
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def busy_response(request: HttpRequest) -> HttpResponse:
    reason = _("The database is busy with another change. Try again in a few seconds.")
    return _answer(request, reason, 503, RETRY_AFTER_SECONDS)


def unreachable_response(request: HttpRequest) -> HttpResponse:
    reason = _("The database cannot be reached right now. Try again in a few seconds.")
    return _answer(request, reason, 503, RETRY_AFTER_SECONDS)


def disk_full_response(request: HttpRequest) -> HttpResponse:
    reason = _(
        "The server's disk is full, so nothing new can be saved. What was recorded before "
        "is safe. Please tell whoever runs this Timekeeper."
    )
    return _answer(request, reason, 507)


def drop_broken_connections() -> None:
    """Close each database connection that failed and cannot be used again, so the next
    request opens a new one (Django would close it only at the end of the request)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def answer_for(request: HttpRequest, error: BaseException) -> HttpResponse | None:
    """The 503/507 for ``error``, or None when it is not about the database or the disk."""
    if database_is_locked(error):
        return busy_response(request)
    if disk_is_full(error):
        return disk_full_response(request)
    if database_is_unreachable(error):
        drop_broken_connections()
        return unreachable_response(request)
    return None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return answer_for(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an error raised outside a view (by a middleware) about the database
    or the disk gets its 503/507 too; anything else, Django's own 500 page."""
    error = sys.exc_info()[1]
    if error is not None:
        response = answer_for(request, error)
        if response is not None:
            return response
    return defaults.server_error(request)


class PlainHttpHeadersMiddleware:
    """Over plain HTTP (make serve's HTTP port, reached by a phone on the local network),
    drop Cross-Origin-Opener-Policy: browsers ignore it on an origin that is not
    trustworthy and log an error on every page saying so. Over HTTPS it stays."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.is_secure():
            del response["Cross-Origin-Opener-Policy"]
        return response
