"""JSON text from outside (an API body, an uploaded history, a line of the clock editor),
parsed with a nesting limit.

``json.loads`` recurses once per ``[`` or ``{``: a few thousand of them raise RecursionError,
which no caller expects. Every real document here is shallow (a history is six levels deep,
a clock definition three), so anything nested deeper than MAX_DEPTH is refused as malformed
with a ValueError, like any other text that is not JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

MAX_DEPTH = 16


class TooDeep(ValueError):
    """The text nests arrays and objects more than MAX_DEPTH levels deep."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} levels deep")


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads(text, **options)`` that raises ValueError (TooDeep) instead of
    RecursionError and for any document nested deeper than MAX_DEPTH."""
    try:
        data = json.loads(text, **options)
    except RecursionError:
        raise TooDeep() from None
    if depth(data) > MAX_DEPTH:
        raise TooDeep()
    return data


def depth(data: Any) -> int:
    """How many arrays and objects deep ``data`` nests (a number or string: 0)."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest
