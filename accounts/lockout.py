"""Log-in lockouts (django-axes' handler): wrong passwords lock the pair (account, address),
never an account for everyone, and an address across accounts only at a much higher count.

- django-axes counts failures per (username, address) in the database
  (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``) and locks that pair after
  ``AXES_FAILURE_LIMIT`` (10) in a row, for ``AXES_COOLOFF_TIME``. A prankster who knows a
  player's username locks only themself out: the player logs in from their own address.
- This handler also counts every failure per address in the cache (``accounts.throttle
  .count``, atomic) and refuses that address, for any account, once it reaches
  ``LOGIN_ADDRESS_FAILURE_LIMIT`` (50) within ``LOGIN_ADDRESS_WINDOW_SECONDS`` (an hour):
  password spraying from one address is stopped, while a café whose players mistype a few
  passwords stays open.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from accounts.throttle import count, login_ip

LOGIN_ADDRESS_WINDOW_SECONDS = 3600


def _address_key(address: str) -> str:
    return f"login-failures:{address}"


def address_locked(request: HttpRequest) -> bool:
    """Whether the caller's address has used up its failed log-ins across accounts."""
    address = login_ip(request)
    if address is None:
        return False
    failures = cache.get(_address_key(address)) or 0
    return int(failures) >= int(settings.LOGIN_ADDRESS_FAILURE_LIMIT)


class LoginHandler(AxesDatabaseHandler):
    """axes' database handler, plus the per-address limit across accounts."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        return bool(super().is_locked(request, credentials)) or address_locked(request)

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        address = None if request is None else login_ip(request)
        if address is not None and not getattr(request, "axes_locked_out", False):
            count(_address_key(address), LOGIN_ADDRESS_WINDOW_SECONDS)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and address_locked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials
