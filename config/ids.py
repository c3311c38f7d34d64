"""Database ids as they arrive from outside: in a URL, a query string, a form or a JSON body.

Every id column is a 64-bit integer. A larger number, or a "digit" that is not one of 0–9
(``"²".isdigit()`` is true, ``int("²")`` fails), would otherwise reach the database driver
and end as a server error; here it is simply an id that cannot exist.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

MAX_ID = 2**63 - 1  # BigAutoField: a signed 64-bit integer

_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_natural(raw: object, maximum: int = MAX_ID) -> int | None:
    """The number from 0 to ``maximum`` that ``raw`` spells in ASCII digits (or is), else
    None: empty, signed, another script's digits, or too large."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _ASCII_DIGITS.fullmatch(raw):
        value = int(raw)
    else:
        return None
    return value if 0 <= value <= maximum else None


def parse_id(raw: object) -> int | None:
    """The id that ``raw`` spells, or None when no row could have it."""
    value = parse_natural(raw)
    return value if value else None


class IdConverter:
    """``<id:group_id>`` in a URL: like ``<int:…>``, but a number beyond 64 bits does not
    match, so the route answers 404 instead of passing it to a query."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # Django reads this as "no match"
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def id_field(**options: Any) -> serializers.IntegerField:
    """A serializer field for an id in a JSON body: 1 to MAX_ID, so a larger number is a 400
    naming the field rather than a query the database cannot run."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **options)
