"""The one exception the rules engine raises for bad input."""

from __future__ import annotations


class RulesError(ValueError):
    """Bad input to the rules engine: a card, a layout, colours, a clock definition...

    ``message`` is one English sentence a player or an API client can read as is;
    ``field`` names the input it concerns (``"layout"``, ``"colours"``, ``"rules[0].segment"``)
    or is ``None``. The CLI prints the message and exits 2; the API answers 400 with it.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message

    def within(self, prefix: str) -> RulesError:
        """The same error with its field nested under ``prefix`` (``rules[2]`` + ``count``)."""
        field = prefix if self.field is None else f"{prefix}.{self.field}"
        return RulesError(self.message, field)
