"""Throttles: who a request comes from, the API's rate scopes, and the sign-up limit.

Rates are settings (``THROTTLE_RATES``, from the environment), read when a request is
counted, so a deployment and the tests can change them without touching code. Counts live
in the default cache: per process by default, shared by every process when ``CACHE_URL``
points at Redis (as docker-compose does).

Every scope counts with one atomic step (``count``): ``cache.add`` then ``cache.incr`` on
the caller's key, which expires a period after its first request, so concurrent requests
never read the same count and each write back "one more" (DRF's own throttle reads a
history, appends and writes it back, and let more than the limit through under
concurrency).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle


def client_ip(request: HttpRequest) -> str:
    """The caller's address (see ``login_ip``), or "unknown" when there is none. Used for
    the API's anonymous scope and the sign-up limit."""
    return login_ip(request) or "unknown"


def login_ip(request: HttpRequest) -> str | None:
    """The caller's address, for django-axes too, which stores it in an address column.

    ``REMOTE_ADDR`` when no proxy stands in front of the app (``settings.PROXY_COUNT`` 0,
    the default without ``BEHIND_TLS_PROXY``): then ``X-Forwarded-For`` is anyone's to forge
    and never read. Behind ``PROXY_COUNT`` proxies, each appending to the header, the caller
    is that many entries from its right (entries further left are the caller's to forge).
    ``None`` when that is not a valid address: a log-in made by code, such as the test
    client's ``force_login``, has no ``REMOTE_ADDR``, and PostgreSQL refuses "unknown" as an
    address.
    """
    candidate = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "PROXY_COUNT", 0))
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    if proxies > 0 and forwarded.strip():
        hops = forwarded.split(",")
        candidate = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate.strip()))
    except ValueError:
        return None


def _rate(scope: str) -> tuple[int, int]:
    """``"10/hour"`` → (10, 3600), from ``settings.THROTTLE_RATES``."""
    count, _, period = settings.THROTTLE_RATES[scope].partition("/")
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[:1]]
    return int(count), seconds


def count(key: str, seconds: int) -> int:
    """Count one request on ``key``: how many so far in its window, this one included. A
    window opens at the first request and lasts ``seconds``. Atomic on Redis and on the
    per-process cache alike."""
    cache.add(key, 0, timeout=seconds)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 0, timeout=seconds)
        used = cache.incr(key)
    if used == 1:
        # The window's first request. Should the key have expired just between the cache's
        # existence check and its increment, Redis made it anew without an expiry: give it one.
        cache.touch(key, timeout=seconds)
    return int(used)


class _AtomicThrottle(SimpleRateThrottle):
    """A DRF scope counted with ``count``; its rate read from the settings at each request,
    its caller's address from ``client_ip``."""

    _wait: float | None = None

    def get_rate(self) -> str:
        return str(settings.THROTTLE_RATES[str(self.scope)])

    def get_ident(self, request: Any) -> str:
        return client_ip(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        limit, seconds = _rate(str(self.scope))
        self._wait = seconds  # at most: the window opened at its first request
        return count(key, seconds) <= limit

    def wait(self) -> float | None:
        return self._wait


class AnonThrottle(_AtomicThrottle):
    """Anonymous callers, per address."""

    scope = "anon"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return f"throttle:{self.scope}:{self.get_ident(request)}"


class UserThrottle(_AtomicThrottle):
    """Signed-in or token callers, per account (per address for the others)."""

    scope = "user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            ident = str(request.user.pk)
        else:
            ident = self.get_ident(request)
        return f"throttle:{self.scope}:{ident}"


def signup_allowed(request: HttpRequest) -> bool:
    """Count one sign-up attempt from the caller's address; False once the ``signup`` rate
    (``THROTTLE_RATES["signup"]``) is used up in the current window."""
    limit, seconds = _rate("signup")
    return count(f"throttle:signup:{client_ip(request)}", seconds) <= limit
