"""The WSGI entry point (gunicorn).

`make serve` has gunicorn listen on a Unix socket in var/run/ as well, for Caddy, its HTTPS
proxy, alone. A request over a Unix socket carries no peer address (REMOTE_ADDR is empty):
there the caller is the address Caddy put last in X-Forwarded-For (Caddy replaces whatever
the caller sent). A TCP peer always has its own address, which is kept, so the header of a
caller on the plain-HTTP port changes nothing.
"""

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()


def unix_socket_peer(environ: dict[str, Any]) -> None:
    """REMOTE_ADDR for a request that came through the Unix socket (see above)."""
    if not environ.get("REMOTE_ADDR"):
        forwarded = str(environ.get("HTTP_X_FORWARDED_FOR", ""))
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            environ["REMOTE_ADDR"] = last


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    unix_socket_peer(environ)
    return django_application(environ, start_response)
