"""The one exception the rules engine raises for bad input."""

from __future__ import annotations

from collections.abc import Mapping

_LANGUAGES = ("en", "nl", "ja")  # rules.i18n.LANGUAGES (that module imports this one)


class Phrase(dict[str, str]):
    """A parameter of an error's wording that is itself worded per language
    (``Phrase(en="number of cards", nl="aantal kaarten", ja="カードの枚数")``)."""

    def __init__(self, **words: str) -> None:
        super().__init__(words)

    def __str__(self) -> str:
        return self["en"]


def _fill(wording: Mapping[str, str], lang: str, params: Mapping[str, object]) -> str:
    template = wording.get(lang) or wording["en"]
    values = {
        key: (value.get(lang) or value["en"]) if isinstance(value, Phrase) else value
        for key, value in params.items()
    }
    return template.format(**values)


class RulesError(ValueError):
    """Bad input to the rules engine: a card, a layout, colours, a clock definition...

    ``message`` is one English sentence a player or an API client can read as is;
    ``field`` names the input it concerns (``"layout"``, ``"colours"``, ``"rules[0].segment"``)
    or is ``None``. The CLI prints the message and exits 2; the API answers 400 with it.

    Errors raised by the engine carry their wording in every language: build them with
    ``RulesError.from_wording({"en": ..., "nl": ..., "ja": ...}, field, **params)`` and read
    them with ``error.in_language(lang)``. An error built from a plain message (by a caller
    that already translated it) answers that message in every language.
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        wording: Mapping[str, str] | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.wording = wording
        self.params: dict[str, object] = dict(params or {})

    @classmethod
    def from_wording(
        cls, wording: Mapping[str, str], field: str | None = None, /, **params: object
    ) -> RulesError:
        """The error worded by ``wording`` (``str.format`` templates per language) filled with
        ``params``; values that are a Phrase are picked per language."""
        return cls(_fill(wording, "en", params), field, wording=wording, params=params)

    def in_language(self, lang: str | None) -> str:
        """The sentence in ``lang`` (en/nl/ja; English for anything else)."""
        if self.wording is None or lang not in _LANGUAGES or lang == "en":
            return self.message
        return _fill(self.wording, lang, self.params)

    def __str__(self) -> str:
        return self.message

    def with_field(self, field: str | None) -> RulesError:
        """The same error (same wording) about another input."""
        return RulesError(self.message, field, wording=self.wording, params=self.params)

    def within(self, prefix: str) -> RulesError:
        """The same error with its field nested under ``prefix`` (``rules[2]`` + ``count``)."""
        return self.with_field(prefix if self.field is None else f"{prefix}.{self.field}")
