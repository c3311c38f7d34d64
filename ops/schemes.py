"""`make serve` answers over plain HTTP and over HTTPS at once (scripts/serve.py): a session
made over HTTPS must stay there, and a phone that can use HTTPS is taken there.

- ``SchemeSessionMiddleware`` (Django's SessionMiddleware, when ``SESSION_COOKIE_PER_SCHEME``
  is on): over HTTPS the session lives in a cookie of its own, ``__Secure-sessionid``, marked
  Secure, which a browser never sends over plain HTTP, and which a plain-HTTP request is never
  read from. Plain HTTP keeps the ordinary ``sessionid``: a phone that has not trusted the CA
  keeps working there. (One cookie name for both would not do: a browser refuses to let plain
  HTTP overwrite a Secure cookie, so log-in over HTTP would fail after a visit over HTTPS.)
  Such a session is also marked (``HTTPS_ONLY``), so that its key, were it sent over plain
  HTTP as a ``sessionid``, is not accepted there.
- ``TakeTrustingPhonesToHttps``: an answer over HTTPS leaves a marker cookie
  (``HTTPS_SEEN_COOKIE``, not Secure, for the evening); a phone that shows it on the plain
  HTTP port trusts the CA, so a GET there is redirected to the same page over HTTPS. No HSTS:
  it would name the host, not the port, and send the plain-HTTP port's phones to an HTTPS
  that port does not speak.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.request import split_domain_port

SECURE_SESSION_COOKIE = "__Secure-sessionid"
HTTPS_ONLY = "_https_only"
HTTPS_SEEN_COOKIE = "tk_https"
HTTPS_SEEN_SECONDS = 12 * 3600  # an evening: after it, a phone that removed the CA is not sent back


def _per_scheme(request: HttpRequest) -> bool:
    return bool(getattr(settings, "SESSION_COOKIE_PER_SCHEME", False)) and request.is_secure()


class SchemeSessionMiddleware(SessionMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if _per_scheme(request):
            request.session = self.SessionStore(request.COOKIES.get(SECURE_SESSION_COOKIE))
            return
        super().process_request(request)
        if getattr(settings, "SESSION_COOKIE_PER_SCHEME", False) and request.session.get(
            HTTPS_ONLY
        ):
            request.session = self.SessionStore(None)  # an HTTPS session, shown over HTTP

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        session = getattr(request, "session", None)
        made_here = _per_scheme(request) and session is not None and not session.is_empty()
        if made_here and session is not None and not session.get(HTTPS_ONLY):
            session[HTTPS_ONLY] = True
        response = super().process_response(request, response)
        name = settings.SESSION_COOKIE_NAME
        if _per_scheme(request) and name in response.cookies:
            morsel = response.cookies.pop(name)
            response.cookies[SECURE_SESSION_COOKIE] = morsel.value
            renamed = response.cookies[SECURE_SESSION_COOKIE]
            for attribute in ("expires", "max-age", "path", "domain", "httponly", "samesite"):
                renamed[attribute] = morsel[attribute]
            renamed["secure"] = True
        return response


class TakeTrustingPhonesToHttps:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not getattr(settings, "SESSION_COOKIE_PER_SCHEME", False):
            return self.get_response(request)
        if (
            not request.is_secure()
            and request.method in ("GET", "HEAD")
            and request.COOKIES.get(HTTPS_SEEN_COOKIE) == "1"
        ):
            domain, _port = split_domain_port(request.get_host())
            host = f"[{domain}]" if ":" in domain and not domain.startswith("[") else domain
            path = request.get_full_path()
            return HttpResponseRedirect(f"https://{host}:{settings.HTTPS_PORT}{path}")
        response = self.get_response(request)
        if request.is_secure():
            response.set_cookie(
                HTTPS_SEEN_COOKIE, "1", max_age=HTTPS_SEEN_SECONDS, httponly=True, samesite="Lax"
            )
        return response
