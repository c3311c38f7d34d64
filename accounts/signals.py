"""A new password revokes the account's API token.

Whatever sets it (the password change page, a reset link, the admin, ``changepassword``)
calls ``User.set_password``, which leaves the new raw password on ``_password`` until the
save; a hash upgrade at log-in clears it first (Django does not count that as a change), so
it keeps the token. Sessions elsewhere end anyway: their hash no longer matches.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import ApiToken


@receiver(post_save, sender=User, dispatch_uid="accounts.revoke_token_on_new_password")
def revoke_token_on_new_password(
    sender: type[User], instance: User, created: bool, **kwargs: Any
) -> None:
    if not created and getattr(instance, "_password", None) is not None:
        ApiToken.objects.filter(user=instance).delete()
