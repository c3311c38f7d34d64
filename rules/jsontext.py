"""JSON text from outside (an API body, an uploaded history, a line of the clock editor),
parsed with a nesting limit.

``json.loads`` recurses once per ``[`` or ``{``: a few thousand of them raise RecursionError,
which no caller expects. Every real document here is shallow (a history is six levels deep,
a clock definition three), so anything nested deeper than MAX_DEPTH is refused as malformed
with a ValueError, like any other text that is not JSON.

JSON's ``\\uXXXX`` escapes can also spell what is not text: a lone surrogate (``"\\ud800"``),
which no encoder can write back, and NUL (``"\\u0000"``), which PostgreSQL refuses in text.
Either, in any key or string, is refused as ``BadText`` (a ValueError). Noncharacters
(U+FDD0, U+FFFE, …) are valid Unicode that every layer stores and encodes: they are let
through, to be judged by each field like any other character.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

MAX_DEPTH = 16


class TooDeep(ValueError):
    """The text nests arrays and objects more than MAX_DEPTH levels deep."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} levels deep")


class BadText(ValueError):
    """A key or string holds a lone surrogate or NUL (``char``, the first found)."""

    def __init__(self, char: str) -> None:
        self.char = char
        self.escape = f"\\u{ord(char):04x}"
        super().__init__(f"JSON text holds {self.escape}, which is not storable text")


_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def bad_char(text: str) -> str | None:
    """The first lone surrogate or NUL in ``text``, or None."""
    found = _NOT_TEXT.search(text)
    return None if found is None else found.group()


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads(text, **options)`` that raises ValueError (TooDeep) instead of
    RecursionError and for any document nested deeper than MAX_DEPTH, and BadText for a key
    or string holding a lone surrogate or NUL."""
    try:
        data = json.loads(text, **options)
    except RecursionError:
        raise TooDeep() from None
    if depth(data) > MAX_DEPTH:
        raise TooDeep()
    _check_text(data)
    return data


def _check_text(data: Any) -> None:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings: Iterable[str] = (item,)
        elif isinstance(item, dict):
            strings = item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for string in strings:
            char = bad_char(string)
            if char is not None:
                raise BadText(char)


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
