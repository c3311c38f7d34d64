"""config.api.exception_handler: one way for every app's API to answer a refusal."""

from __future__ import annotations

from django.utils import translation
from rest_framework.exceptions import NotFound

from config.api import exception_handler
from config.errors import DomainError, LimitReached
from rules.catalogue import get_clock
from rules.errors import RulesError


def _rules_error() -> RulesError:
    try:
        get_clock("11-1")
    except RulesError as error:
        return error
    raise AssertionError("11-1 is not a clock")


def test_a_domain_error_answers_its_field_and_message() -> None:
    response = exception_handler(DomainError("Give a name.", "name"), {})
    assert response is not None
    assert (response.status_code, response.data) == (400, {"name": ["Give a name."]})


def test_a_refusal_without_a_field_is_a_non_field_error() -> None:
    response = exception_handler(DomainError("There is nothing to undo."), {})
    assert response is not None
    assert response.data == {"non_field_errors": ["There is nothing to undo."]}


def test_a_limit_answers_429_with_a_detail() -> None:
    response = exception_handler(LimitReached("Wait a minute."), {})
    assert response is not None
    assert (response.status_code, response.data) == (429, {"detail": "Wait a minute."})


def test_a_rules_error_answers_400_in_the_active_language() -> None:
    error = _rules_error()
    with translation.override("ja"):
        response = exception_handler(error, {})
    assert response is not None and response.status_code == 400
    [message] = next(iter(response.data.values()))
    assert message == error.in_language("ja") and message != error.message


def test_other_errors_are_left_to_drf() -> None:
    response = exception_handler(NotFound(), {})
    assert response is not None and response.status_code == 404
