"""What the logs may say: an invite link's token never (it lets anyone join the group), and
a refusal (403) once, as one line.

- ``redact`` hides the token of every ``/join/<token>/`` in a text; ``RedactingFilter`` does it
  to Django's request logs (``django.request``, ``django.server``), and
  ``GunicornLogger`` to gunicorn's access log (``gunicorn.conf.py`` at the repository root
  makes gunicorn use it, whoever starts it there).
- ``QuietRefusals`` drops the traceback Django attaches to a ``PermissionDenied`` (a 403 is
  an answer, not a failure); ``settings.LOGGING`` gives the ``django`` loggers one handler
  and stops them there, so a record is not printed again by the root logger.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

_INVITE = re.compile(r"/join/[^/?#\s\"']+")
REDACTED = "/join/[token]"


def redact(text: str) -> str:
    return _INVITE.sub(REDACTED, text)


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/join/" in message:
            record.msg, record.args = redact(message), ()
        return True


class QuietRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


class GunicornLogger(Logger):
    """gunicorn's logger, its access log's request line, path, query and referrer redacted."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {
            key: redact(value) if isinstance(value, str) and "/join/" in value else value
            for key, value in atoms.items()
        }
