"""One handler for page refusals (config.refusals): no service's refusal becomes a 500 on
any page, whatever the view forgot to catch."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns.definitions.services import TranscriptionLimitReached
from campaigns.groups.services import create_group
from campaigns.models import Group
from config.errors import DomainError
from rules.errors import RulesError

pytestmark = pytest.mark.django_db


def _subclasses(cls: type[Exception]) -> Iterator[type[Exception]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _page_patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _page_patterns(entry, route)
        elif isinstance(entry, URLPattern) and not route.startswith(("api/", "admin/")):
            yield route, entry


get_resolver().url_patterns  # noqa: B018  (loads every view, and so every service module)
REFUSALS: list[type[Exception]] = sorted(
    {DomainError, *_subclasses(DomainError)}, key=lambda c: c.__name__
)
# A route listed twice (accounts' own log-in page before django.contrib.auth's) is served by
# its first pattern, the one the resolver finds.
PAGES = sorted(
    dict(reversed(list(_page_patterns(get_resolver())))).items(),
    key=lambda item: item[0],
)


def _refusal(cls: type[Exception]) -> Exception:
    error = Exception.__new__(cls)
    DomainError.__init__(error, f"Refused by {cls.__name__}.", "clock")  # type: ignore[arg-type]
    return error


def test_the_services_refusals_are_known() -> None:
    names = {cls.__name__ for cls in REFUSALS}
    assert {"CampaignError", "TranscriptionLimitReached", "StaleWrite", "HintError"} <= names


@pytest.mark.parametrize("route", [route for route, _ in PAGES])
def test_every_page_answers_every_refusal_without_a_500(
    route: str, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pattern = dict(PAGES)[route]
    url = "/" + route.replace("<id:", "<").replace("<str:", "<")
    url = re.sub(r"<\w+>", "1", url)
    client = Client()
    client.force_login(alice)
    refusals: list[type[Exception]] = [*REFUSALS, RulesError]
    for cls in refusals:
        error: Exception = (
            RulesError.from_wording({"en": "No card.", "nl": "Geen kaart.", "ja": "なし。"}, "card")
            if cls is RulesError
            else _refusal(cls)
        )

        def raising(*args: Any, error: Exception = error, **kwargs: Any) -> Any:
            raise error

        monkeypatch.setattr(pattern, "callback", raising)
        got = client.get(url)
        assert got.status_code in (400, 409, 429), f"GET {url}: {cls.__name__}"
        posted = client.post(url, HTTP_REFERER="http://testserver/groups/1/")
        assert posted.status_code == 302, f"POST {url}: {cls.__name__}"
        assert posted["Location"] == "http://testserver/groups/1/"
        htmx = client.post(url, headers={"HX-Request": "true"})
        assert htmx.status_code == 200 and htmx["HX-Redirect"] == url, cls.__name__


def test_a_post_from_elsewhere_goes_back_to_the_address_itself(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = create_group(alice, "Tuesday table", ["Ann", "Ben"])
    monkeypatch.setattr(
        "campaigns.definitions.services.transcribe",
        lambda *args, **kwargs: (_ for _ in ()).throw(_refusal(TranscriptionLimitReached)),
    )
    client = Client()
    client.force_login(alice)
    url = f"/groups/{group.pk}/clocks/1-1/edit/"
    response = client.post(
        url,
        {"start": "1", "rules": "", "action": "save"},
        HTTP_REFERER="https://elsewhere.example/",
    )
    assert response.status_code == 302 and response["Location"] == url


def test_the_editor_says_the_transcription_limit_instead_of_a_500(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bug that was: the editor's save did not catch TranscriptionLimitReached."""
    group: Group = create_group(alice, "Tuesday table", ["Ann", "Ben"])
    monkeypatch.setattr("campaigns.definitions.services.MAX_VERSIONS_PER_HOUR", 0)
    client = Client()
    client.force_login(alice)
    url = f"/groups/{group.pk}/clocks/1-1/edit/"
    response = client.post(
        url, {"start": "3", "rules": "", "action": "save"}, HTTP_REFERER=f"http://testserver{url}"
    )
    assert response.status_code == 302 and response["Location"] == f"http://testserver{url}"
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown and "Refused" not in shown[0]
