"""The one base class of refusals that the apps' services raise.

A service refuses a change by raising a ``DomainError`` worded for the person in the active
language. Forms show ``message`` at ``field``; the API answers ``status`` with
``{field: [message]}``. Campaign services (``CampaignError``) and hint services
(``HintError``, ``HintLimitReached``) subclass it. ``NotVisible`` is the services' 404.
``refusal_text`` is what a person reads of any refusal, a service's or the rules engine's:
the one wording the pages, forms and services use.
"""

from __future__ import annotations

from config.i18n import current_lang
from rules.errors import RulesError


class DomainError(Exception):
    """A refused change: ``message`` for people, ``field`` the input it concerns."""

    status = 400

    def __init__(self, message: str, field: str = "non_field_errors") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def body(self) -> dict[str, object]:
        """What the API answers with ``status``."""
        return {self.field: [self.message]}


class NotVisible(Exception):
    """What the caller asked for does not exist for them (another group's, a chapter not
    opened, a hidden definition): the page's and the API's handlers answer 404, as for an
    object that does not exist, so a service says so without speaking HTTP."""


class LimitReached(DomainError):
    """Too much asked of a shared resource in too short a time (429)."""

    status = 429


def refusal_text(error: DomainError | RulesError) -> str:
    """What a person reads for a refusal, in the active language (a DomainError is already
    worded in it; a RulesError carries its wording in every language)."""
    if isinstance(error, RulesError):
        return error.in_language(current_lang())
    return error.message
