"""Schemathesis hooks for tests/config/test_api_schema_fuzz.py (loaded through
SCHEMATHESIS_HOOKS): every string in a generated JSON body may be replaced by, or extended
with, text that is not text (lone surrogates, NUL) or noncharacters. The body is sent as
JSON, so these travel as ``\\uXXXX`` escapes, as a hostile client would write them. The
API must answer such a body with a 400 naming the reason (config.parsers), never a 500."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import strategies as st

AWKWARD = ["\ud800", "\udfff", "a\udc00b", "\x00", "a\x00", "\ufdd0", "\ufffe", "\U0010ffff"]
_AWKWARD = st.sampled_from(AWKWARD)


def _spoil(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, str):
        return st.one_of(st.just(value), _AWKWARD, _AWKWARD.map(lambda awkward: value + awkward))
    if isinstance(value, dict):
        return st.fixed_dictionaries({key: _spoil(item) for key, item in value.items()})
    if isinstance(value, list):
        return st.tuples(*(_spoil(item) for item in value)).map(list)
    return st.just(value)


@schemathesis.hook
def flatmap_body(context: Any, body: Any) -> st.SearchStrategy[Any]:
    return _spoil(body)
