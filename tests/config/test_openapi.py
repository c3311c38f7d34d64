"""The schema's account of errors (config.openapi.AutoSchema), checked on the generated
schema for every operation: the fast complement of the schemathesis run."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from config.ids import MAX_ID


@pytest.fixture(scope="module")
def operations() -> list[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_operation_documents_refusals_with_their_body(
    operations: list[tuple[str, str, dict[str, Any]]],
) -> None:
    for path, method, operation in operations:
        responses = operation["responses"]
        assert "403" in responses, (method, path)  # not signed in
        if "{" in path:
            assert "404" in responses, (method, path)
        if method != "get":
            assert "400" in responses, (method, path)
        for code, response in responses.items():
            if code >= "400":
                assert "application/json" in response.get("content", {}), (method, path, code)


def test_every_id_in_a_path_is_a_64_bit_integer(
    operations: list[tuple[str, str, dict[str, Any]]],
) -> None:
    for path, _method, operation in operations:
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"].endswith("_id"):
                if parameter["name"] == "clock_id":
                    continue
                assert parameter["schema"]["maximum"] == MAX_ID, path


def test_the_hint_request_is_documented_as_strictly_as_it_is_checked() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    hint_in = schema["components"]["schemas"]["HintInRequest"]["properties"]
    assert hint_in["face_up"]["maximum"] == 7
    assert hint_in["group"]["maximum"] == MAX_ID
    assert "pattern" in hint_in["colours"]
    clock = hint_in["clock"]["oneOf"]
    assert clock[0]["enum"][0] == "1-1"
    assert clock[1]["properties"]["rules"]["maxItems"] == 40
    assert clock[1]["additionalProperties"] is False
