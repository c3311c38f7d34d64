"""The refusals of the hint services: bad input (400) and the per-user limits (429)."""

from config.errors import DomainError, LimitReached


class HintError(DomainError):
    """Bad input for a hint: ``message`` is for the user, ``field`` names the input (400)."""


class HintLimitReached(LimitReached):
    """Too many hints in progress or in the last hour (429)."""
