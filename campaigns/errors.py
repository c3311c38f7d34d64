"""What the campaign services raise when they refuse a change, and who a row names as its
author."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from config.errors import DomainError


class CampaignError(DomainError):
    """A refused change to a group or its campaign (the API answers 400
    ``{field: [message]}``, forms show it at that field)."""


def signed_in(user: Any) -> User | None:
    """The user a row names as its author: nobody for an anonymous caller."""
    return user if user is not None and user.is_authenticated else None
