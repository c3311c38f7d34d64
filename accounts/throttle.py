"""Throttles: who a request comes from, the API's rate scopes, and the sign-up limit.

Rates are settings (``THROTTLE_RATES``, from the environment), read when a request is
counted, so a deployment and the tests can change them without touching code. Counts live
in the default cache: per process by default, shared by every process when ``CACHE_URL``
points at Redis (as docker-compose does).
"""

from __future__ import annotations

import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


def client_ip(request: HttpRequest) -> str:
    """The caller's address: ``REMOTE_ADDR``, or behind our TLS proxy the address that proxy
    added last to ``X-Forwarded-For`` (earlier entries are the caller's to forge); "unknown"
    when there is none, or it is not an address. Used for the sign-up limit."""
    return login_ip(request) or "unknown"


def login_ip(request: HttpRequest) -> str | None:
    """``client_ip`` for django-axes, which stores it in an address column: ``None`` when the
    request carries no valid address (a log-in made by code, such as the test client's
    ``force_login``, has no ``REMOTE_ADDR``; PostgreSQL refuses "unknown" as an address)."""
    candidate = str(request.META.get("REMOTE_ADDR") or "")
    if getattr(settings, "BEHIND_TLS_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        candidate = forwarded.rsplit(",", 1)[-1].strip() or candidate
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def _rate(scope: str) -> tuple[int, int]:
    """``"10/hour"`` → (10, 3600), from ``settings.THROTTLE_RATES``."""
    count, _, period = settings.THROTTLE_RATES[scope].partition("/")
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[:1]]
    return int(count), seconds


class AnonThrottle(AnonRateThrottle):
    """DRF's anonymous scope, its rate read from the settings at each request."""

    def get_rate(self) -> str:
        return str(settings.THROTTLE_RATES[str(self.scope)])


class UserThrottle(UserRateThrottle):
    """DRF's per-user scope (signed-in or token callers), its rate read at each request."""

    def get_rate(self) -> str:
        return str(settings.THROTTLE_RATES[str(self.scope)])


def signup_allowed(request: HttpRequest) -> bool:
    """Count one sign-up attempt from the caller's address; False once the ``signup`` rate
    (``THROTTLE_RATES["signup"]``) is used up in the current window."""
    limit, seconds = _rate("signup")
    window = int(time.time() // seconds)
    key = f"throttle:signup:{client_ip(request)}:{window}"
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=seconds)
        count = 1
    return count <= limit
