"""``Authorization: Token <key>`` against the hashed tokens of ``accounts.models``.

A subclass of DRF's TokenAuthentication: the same header, the same refusals (401 with
``WWW-Authenticate: Token``), and drf-spectacular describes it as the same scheme. Only the
lookup differs: the presented key is hashed and its digest looked up.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.models import ApiToken


class HashedTokenAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.find(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
