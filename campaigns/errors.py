"""What the campaign services raise when they refuse a change, and who a row names as its
author."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from config.errors import DomainError
from config.i18n import current_lang
from rules.errors import RulesError


class CampaignError(DomainError):
    """A refused change to a group or its campaign (the API answers 400
    ``{field: [message]}``, forms show it at that field)."""


def error_text(error: CampaignError | RulesError) -> str:
    """What a person reads for a refusal, in the active language (a CampaignError is
    already worded in it; a RulesError carries its wording in every language)."""
    if isinstance(error, RulesError):
        return error.in_language(current_lang())
    return error.message


def signed_in(user: Any) -> User | None:
    """The user a row names as its author: nobody for an anonymous caller."""
    return user if user is not None and user.is_authenticated else None
