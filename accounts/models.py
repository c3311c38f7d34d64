"""API tokens, stored as Django stores passwords: never the key itself.

A token is 160 random bits (40 hex digits, the format DRF's authtoken used, so a key made
before is still one of ours). The database keeps only its SHA-256 and the first few digits
(``prefix``) that tell its owner which token it is. Anyone who reads the database, or a
backup of it, learns no key that works.

Why a plain, fast SHA-256 and not a password hasher (PBKDF2, with a salt): a slow, salted
hash protects a secret a person chose, which an attacker can guess from a list; nobody can
guess 160 random bits, however fast each try, so slowness buys nothing here while it would
cost every API request tens of milliseconds of CPU. Being unsalted, the digest is also the
index the key is looked up by, in one query.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import models, transaction

KEY_BYTES = 20  # 160 bits, 40 hex digits
PREFIX_LENGTH = 6  # shown to the owner; the other 136 bits stay secret


def digest_of(key: str) -> str:
    """The SHA-256 of a key, in hex: what the database stores and looks keys up by."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    """An account's API token (at most one): its key's digest and the key's first digits."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.prefix}…"

    @classmethod
    def issue(cls, user: models.Model) -> str:
        """A new token for ``user``, replacing any earlier one; returns its key, the only
        time anyone sees it."""
        key = secrets.token_hex(KEY_BYTES)
        with transaction.atomic():
            cls.objects.filter(user=user).delete()
            cls.objects.create(user=user, digest=digest_of(key), prefix=key[:PREFIX_LENGTH])
        return key

    @classmethod
    def find(cls, key: str) -> ApiToken | None:
        """The token whose key this is, with its user; None when no token has this key."""
        digest = digest_of(key)
        token = cls.objects.select_related("user").filter(digest=digest).first()
        # The lookup is by the digest, which a caller cannot steer; compare it in constant
        # time all the same, so no part of the check depends on how much of it matched.
        if token is None or not hmac.compare_digest(token.digest, digest):
            return None
        return token
