"""The API's one request parser: JSON, at most MAX_BODY_BYTES, nested at most
rules.jsontext.MAX_DEPTH levels, NaN and Infinity refused, and a lone surrogate or NUL in
any key or string refused (rules.jsontext.BadText: DRF could not even encode the 400 that
repeats such a value, and PostgreSQL refuses NUL in text). Anything else is a 400 naming
the reason, never a server error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import renderers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from rules import jsontext

# The largest body the API reads: an exported history of years of play is well under 1 MB.
MAX_BODY_BYTES = 5 * 1024 * 1024


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class JSONParser(BaseParser):
    media_type = "application/json"
    renderer_class = renderers.JSONRenderer

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(body) > MAX_BODY_BYTES:
            raise ParseError(
                _("The body is larger than %(mb)d MB.") % {"mb": MAX_BODY_BYTES // 2**20}
            )
        try:
            return jsontext.loads(body, parse_constant=_refuse_constant)
        except jsontext.TooDeep:
            raise ParseError(
                _("The JSON is nested more than %(n)d levels deep.") % {"n": jsontext.MAX_DEPTH}
            ) from None
        except jsontext.BadText as error:
            raise ParseError(
                _("The JSON holds %(escape)s, which is not text that can be stored.")
                % {"escape": error.escape}
            ) from None
        except ValueError as error:  # UnicodeDecodeError too
            raise ParseError(_("JSON parse error: %(reason)s") % {"reason": error}) from None


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseNulMiddleware:
    """NUL in a URL's path or query, or in a form's field, is a 400 with a reason before any
    view sees it: PostgreSQL refuses it in text, so a lookup by it would be a server error.
    (A form or query cannot carry a lone surrogate: Django decodes them with replacement.)
    JSON bodies are checked by ``JSONParser``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            reason = _("The request holds a NUL character (\\u0000), which no text may contain.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": reason}, status=400)
            return HttpResponse(reason, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    fields = [request.GET]
    # Not the API's: it takes JSON only (a form there is a 415), and reading the form here
    # would hand it to DRF before its parsers could refuse it.
    api = request.path.startswith("/api/")
    if request.method == "POST" and request.content_type in _FORM_TYPES and not api:
        fields.append(request.POST)
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for data in fields
        for key, values in data.lists()
    )
