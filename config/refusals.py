"""One handler for the refusals that escape a page, as ``config.api`` is for the API.

Views catch the refusals they expect and show them at a form's field. Anything that still
rises from a page — a service's ``DomainError`` (a Bonus-token limit, a transcription limit,
a stale write) or the rules engine's ``RulesError`` — lands here instead of becoming a 500:

- after a POST (or any write), the person is sent back where they came from (the page that
  posted, if it is ours; else the address itself) with the refusal as a message, so a
  reload never posts again;
- htmx gets the same as a client-side redirect (``HX-Redirect``), which htmx follows;
- a GET that is refused answers ``status`` (400, or 429 for a ``LimitReached``) with a page
  saying why.

The API keeps its own handler (``config.api``): requests under ``/api/`` are left to it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.handlers.exception import response_for_exception
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from config.errors import DomainError, NotVisible, refusal_text
from config.http import on_this_site
from rules.errors import RulesError


def _back(request: HttpRequest) -> str:
    referer = request.headers.get("referer", "")
    if on_this_site(request, referer):
        return referer
    return request.get_full_path()


def refused(request: HttpRequest, error: DomainError | RulesError) -> HttpResponse:
    text = refusal_text(error)
    status = error.status if isinstance(error, DomainError) else 400
    if request.method in ("GET", "HEAD"):
        return render(request, "refused.html", {"reason": text}, status=status)
    messages.error(request, text)
    target = _back(request)
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(status=200)
        response["HX-Redirect"] = target
        return response
    return HttpResponseRedirect(target)


class RefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if request.path.startswith("/api/"):
            return None
        if isinstance(exception, NotVisible):
            return response_for_exception(request, Http404())
        if isinstance(exception, DomainError | RulesError):
            return refused(request, exception)
        return None
