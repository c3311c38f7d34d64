from __future__ import annotations

import hashlib
import json
import logging
import os
import ssl
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import FileSystemFinder
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app
from ops.fingerprint import grouped_sha256, valid_years
from ops.heartbeat import live_workers, starting_workers
from ops.middleware import database_is_locked

logger = logging.getLogger(__name__)

THEME_COLOUR = "#1f3a5f"  # the top bar (--night in timekeeper.css)
BACKGROUND_COLOUR = "#fbf8f1"  # the page (--paper)


def _database() -> tuple[str, int, int]:
    """The database's state ("ok", "locked" or "down"), the live workers taking jobs it
    counts, and those still warming the solver up."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok", live_workers(), starting_workers()
    except DatabaseError as error:
        logger.warning("healthz: database unavailable", exc_info=True)
        return ("locked" if database_is_locked(error) else "down"), 0, 0


def _broker_ok() -> bool:
    if settings.BROKER_IS_FILESYSTEM:
        # kombu's filesystem transport "connects" even to a folder that is gone or read-only.
        folder = str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
        return os.path.isdir(folder) and os.access(folder, os.W_OK)
    try:
        with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            # Virtual transports (Redis) connect lazily: ask the server itself.
            client = getattr(conn.default_channel, "client", None)
            if client is not None and hasattr(client, "ping"):
                client.ping()
        return True
    except Exception:  # kombu raises many kinds (OSError, OperationalError, …)
        logger.warning("healthz: broker unavailable", exc_info=True)
        return False


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the app can serve; 503 naming the failing part ("down", or "locked" for a
    database another connection holds longer than its timeout). Used by compose and CI."""
    database, workers, starting = _database()
    broker = _broker_ok()
    body: dict[str, object] = {
        "database": database,
        "broker": "ok" if broker else "down",
        "workers": workers,
        "starting": starting,
    }
    return JsonResponse(body, status=200 if database == "ok" and broker else 503)


# --- Installable app: manifest, service worker, offline page --------------------------------
# Served from the site root so that the service worker's scope is the whole site.


def _own_static_files() -> list[str]:
    """Our own static files (not the admin's or the API docs'), as paths under STATIC_URL."""
    finder = FileSystemFinder()
    return sorted(path for path, _storage in finder.list(ignore_patterns=["*.txt", "*.md"]))


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language (the link asks with credentials)."""
    data = {
        "name": f"{_('Timekeeper')} · {_('Take Time companion')}",
        "short_name": _("Timekeeper"),
        "description": _(
            "Record your Take Time games at the table, browse your statistics and ask for a "
            "plan before the discussion."
        ),
        "lang": get_language() or "en",
        "start_url": reverse("dashboard"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: caches our static files and the offline page at install.

    ``no-cache`` makes browsers look for a new worker on every visit; the cache name
    changes whenever a static file or the offline page's language changes, so a deploy
    replaces the old cache instead of serving stale assets.
    """
    assets = [static(path) for path in _own_static_files()]
    offline_url = reverse("offline")
    version = hashlib.sha256(
        json.dumps([assets, offline_url, get_language(), _asset_stamps()]).encode()
    ).hexdigest()[:16]
    context = {
        "version": version,
        "assets": json.dumps(assets),
        "offline_url": json.dumps(offline_url),
        # Django adds the script prefix to a relative STATIC_URL: this is the path served.
        "static_prefix": json.dumps(settings.STATIC_URL),
    }
    return render(request, "ops/sw.js", context, content_type="text/javascript; charset=utf-8")


def _asset_stamps() -> list[tuple[str, int, int]]:
    """Size and modification time of each static file: in development the names carry no
    content hash, so this is what tells a changed file."""
    finder = FileSystemFinder()
    stamps = []
    for path, storage in finder.list(ignore_patterns=["*.txt", "*.md"]):
        info = os.stat(storage.path(path))
        stamps.append((path, info.st_size, int(info.st_mtime)))
    return sorted(stamps)


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What an installed app shows for a page it cannot reach while the phone is offline."""
    return render(request, "ops/offline.html")


# --- Trust this server: the local CA of `make serve` -----------------------------------------


def _local_ca() -> str | None:
    """The root certificate (PEM) of `make serve`'s local CA, or None when this server has
    none (not run by make serve, or its HTTPS has not started yet)."""
    path: Path = settings.LOCAL_CA_CERT
    try:
        pem = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    return pem if "-----BEGIN CERTIFICATE-----" in pem else None


def _fingerprint(pem: str) -> str:
    """SHA-256 of the certificate, as phones show it (pairs of hex digits)."""
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def https_address(request: HttpRequest) -> str:
    """This page's address over HTTPS: the same host, on make serve's HTTPS port."""
    if request.is_secure():
        return request.build_absolute_uri("/")
    domain, _port = split_domain_port(request.get_host())  # an IPv6 address keeps its []
    host = f"[{domain}]" if ":" in domain and not domain.startswith("[") else domain
    return f"https://{host}:{settings.HTTPS_PORT}/"


@require_GET
def trust(request: HttpRequest) -> HttpResponse:
    """How to trust this server's certificate on a phone (Android, iOS), the certificate to
    download, and the HTTPS address as a QR code; which features need HTTPS."""
    pem = _local_ca()
    address = https_address(request)
    context = {
        "has_ca": pem is not None,
        "fingerprint": _fingerprint(pem) if pem else "",
        "fingerprint_groups": grouped_sha256(pem) if pem else "",
        "valid_years": valid_years(pem) if pem else None,
        "https_address": address,
        "secure": request.is_secure(),
    }
    return render(request, "ops/trust.html", context)


@require_GET
def trust_certificate(request: HttpRequest) -> HttpResponse:
    """The local CA's root certificate, for a phone to install (404 when there is none)."""
    pem = _local_ca()
    if pem is None:
        raise Http404("no local certificate authority")
    response = HttpResponse(pem, content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="timekeeper-ca.crt"'
    return response
