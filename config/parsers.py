"""The API's one request parser: JSON, at most MAX_BODY_BYTES, nested at most
rules.jsontext.MAX_DEPTH levels, NaN and Infinity refused. Anything else is a 400 naming
the reason, never a server error."""

from __future__ import annotations

from typing import Any

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
        except ValueError as error:  # UnicodeDecodeError too
            raise ParseError(_("JSON parse error: %(reason)s") % {"reason": error}) from None
