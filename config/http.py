"""The requests our views receive, typed once.

Every page and API function of a group sits behind log-in (``@login_required`` for pages,
DRF's default ``IsAuthenticated`` permission for the API), so its ``request.user`` is a
``User``; django-htmx's middleware adds ``request.htmx`` to every request. Views annotate
``request`` with these types, as django-htmx's example project does, instead of silencing
the type checker at each use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Concatenate, ParamSpec, TypeVar, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.http.response import HttpResponseBase
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails
from rest_framework.decorators import api_view as drf_api_view
from rest_framework.request import Request

_P = ParamSpec("_P")
_R = TypeVar("_R", bound=HttpResponseBase)


class AuthenticatedHttpRequest(HttpRequest):
    """A page's request once ``@login_required`` let it in."""

    user: User
    htmx: HtmxDetails


def _bare_host(request: HttpRequest) -> tuple[str, str]:
    """The host a request reached, without its port (an IPv6 address in []), and the port."""
    domain, port = split_domain_port(request.get_host())
    return (f"[{domain}]" if ":" in domain and not domain.startswith("[") else domain), port


def invite_address(request: HttpRequest, path: str) -> str:
    """The absolute address an invite link (and its QR code) carries for ``path``.

    With a real domain (compose, ``DOMAIN``): HTTPS on it, a certificate every phone trusts.
    Under `make serve`, an owner who trusted its local CA and reached HTTPS_PORT still hands
    out the plain-HTTP address (PORT): a friend's phone has not trusted that CA yet and would
    meet a certificate error; the join page then offers the trust step and the switch.
    Anywhere else, the address the owner reached."""
    if settings.DOMAIN:
        return f"https://{settings.DOMAIN}{path}"
    host, port = _bare_host(request)
    if request.is_secure() and port == str(settings.HTTPS_PORT):
        return f"http://{host}:{settings.PLAIN_HTTP_PORT}{path}"
    return request.build_absolute_uri(path)


def serve_https_address(request: HttpRequest, path: str) -> str:
    """``path`` on `make serve`'s HTTPS listener (HTTPS_PORT) of the host a request reached."""
    host, _port = _bare_host(request)
    return f"https://{host}:{settings.HTTPS_PORT}{path}"


def on_this_site(request: HttpRequest, url: str) -> bool:
    """Whether ``url`` stays on the site ``request`` came to (by its scheme on HTTPS): where a
    redirect may send the person, from a ?next=, a Referer or htmx's HX-Current-URL."""
    return bool(url) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


class AuthenticatedRequest(Request):
    """An API request once the ``IsAuthenticated`` permission let it in."""

    user: User


def api_view(
    methods: Sequence[str],
) -> Callable[
    [Callable[Concatenate[AuthenticatedRequest, _P], _R]],
    Callable[Concatenate[HttpRequest, _P], _R],
]:
    """DRF's ``api_view`` for a function that takes an ``AuthenticatedRequest``: true for
    every API function under the default ``IsAuthenticated`` permission, which DRF checks
    before it calls the function."""

    def decorate(
        view: Callable[Concatenate[AuthenticatedRequest, _P], _R],
    ) -> Callable[Concatenate[HttpRequest, _P], _R]:
        return drf_api_view(methods)(cast(Callable[Concatenate[Request, _P], _R], view))

    return decorate


def attachment(body: str | bytes, content_type: str, filename: str) -> HttpResponse:
    """A file for the browser to save (exports), named ``filename``."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
