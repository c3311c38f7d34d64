"""How the REST API answers a refusal, for every app (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

API functions call the services and let their refusals rise, so that no function repeats the
translation of an exception into a response (pretix's ``api/exception.py`` does the same):

- a ``DomainError`` (a service refusing a change) answers its ``status`` with its
  ``body()``, ``{field: [message]}`` unless the error says more (a stale write answers 409
  with the current progress), the message already worded in the reader's language;
- a ``LimitReached`` (too many hints at once or this hour) answers 429 with
  ``{"detail": message}``, DRF's shape for throttling;
- a ``RulesError`` (the rules engine refusing a card, a layout or a clock definition) answers
  400 with ``{field: [message]}`` in the reader's language (``config.i18n.current_lang``).

Anything else goes to DRF's own handler (its ``ValidationError``, 403, 404, 405...).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import DomainError, LimitReached, NotVisible, refusal_text
from rules.errors import RulesError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, NotVisible):
        return drf_exception_handler(NotFound(), context)
    if isinstance(exc, LimitReached):
        return Response({"detail": exc.message}, status=exc.status)
    if isinstance(exc, DomainError):
        return Response(exc.body(), status=exc.status)
    if isinstance(exc, RulesError):
        field = exc.field or "non_field_errors"
        return Response({field: [refusal_text(exc)]}, status=400)
    return drf_exception_handler(exc, context)
