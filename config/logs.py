"""What the logs may say: an invite link's token never (it lets anyone join the group), and
a refusal (403) once, as one line.

- ``redact`` hides the token of every ``/join/<token>/`` in a text, written plainly or
  URL-encoded once or twice (the log-in page's ``next=%2Fjoin%2F<token>%2F``, which the
  app's own htmx log-in redirect makes); ``RedactingFilter`` does it
  to Django's request logs (``django.request``, ``django.server``), and
  ``GunicornLogger`` to gunicorn's access log (``gunicorn.conf.py`` at the repository root
  makes gunicorn use it, whoever starts it there).
- ``QuietRefusals`` drops the traceback Django attaches to a ``PermissionDenied`` (a 403 is
  an answer, not a failure) and to a request it found suspicious (``django.security.*``: a
  foreign Host header, sent by every scanner on the network, is one line, not a traceback);
  ``settings.LOGGING`` gives the ``django`` loggers one handler and stops them there, so a
  record is not printed again by the root logger.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

# A slash as written, URL-encoded (%2F) or encoded twice (%252F), in any case; the token runs
# to the next separator of a path, a query or a quoted log field.
_SLASH = r"(?:/|%2F|%252F)"
_INVITE = re.compile(rf"({_SLASH}join{_SLASH})[^/?#&%\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    return _INVITE.sub(r"\1[token]", text)


def _mentions_join(text: str) -> bool:
    return "join" in text.lower()


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _mentions_join(message):
            record.msg, record.args = redact(message), ()
        return True


class QuietRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403 or record.name.startswith(
            "django.security."
        ):
            record.exc_info = None
            record.exc_text = None
        return True


class GunicornLogger(Logger):
    """gunicorn's logger, its access log's request line, path, query and referrer redacted."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {
            key: redact(value) if isinstance(value, str) and _mentions_join(value) else value
            for key, value in atoms.items()
        }
