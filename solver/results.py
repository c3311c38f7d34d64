"""What a hint's row keeps as its result, and how a reused result speaks its new asker's
language. The pages and the API read this object back; its keys are a public contract."""

from __future__ import annotations

from typing import Any

from solver.core.search import HintResult


def result_json(result: HintResult, lang: str) -> dict[str, Any]:
    """The ``hint --json`` object in the asker's language, the words in every language
    (``words_all``), and whether the plan is a best-so-far (``partial``)."""
    data = result.to_json(lang)
    data["words_all"] = dict(result.words)
    data["partial"] = result.partial
    return data


def in_language(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """A stored result with its ``words`` in ``lang`` (a result reused for another asker)."""
    words = result.get("words_all", {})
    return {**result, "words": words.get(lang, result.get("words", ""))}
