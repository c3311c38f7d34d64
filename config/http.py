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

from django.contrib.auth.models import User
from django.http import HttpRequest
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
