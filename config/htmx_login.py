"""An htmx request from someone who is no longer signed in.

``login_required`` answers with a redirect to the log-in page. htmx sends its requests as
XMLHttpRequests, which follow that redirect by themselves, and then swaps the whole log-in
page into the part of the page it polls or posts to: a hint page that was watching its
progress showed a second header, a log-in form and a second language menu in its middle
once the person signed out in another tab (or the session ran out).

:class:`HtmxLoginRedirectMiddleware` answers such a request with ``HX-Redirect`` instead
(django-htmx's ``HttpResponseClientRedirect``): the browser itself opens the log-in page.
Its ``next`` is the page the person was on (``HX-Current-URL``, when it is one of ours), not
the fragment htmx asked for, so signing in brings them back to the page as they left it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

from config.http import on_this_site

REDIRECTS = frozenset({301, 302, 303, 307, 308})


class HtmxLoginRedirectMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("HX-Request") != "true" or response.status_code not in REDIRECTS:
            return response
        login = resolve_url(settings.LOGIN_URL)
        target = urlsplit(response.get("Location", ""))
        if target.path != login:
            return response
        page = _current_page(request) or parse_qs(target.query).get("next", [""])[0]
        return HttpResponseClientRedirect(f"{login}?{urlencode({'next': page})}" if page else login)


def _current_page(request: HttpRequest) -> str:
    """The path and query of the page htmx runs on (``HX-Current-URL``), or "" when the
    header is missing or names another site."""
    current = request.headers.get("HX-Current-URL", "")
    if not on_this_site(request, current):
        return ""
    parts = urlsplit(current)
    return parts.path + (f"?{parts.query}" if parts.query else "")
