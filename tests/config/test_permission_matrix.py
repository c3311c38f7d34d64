"""One permission test generated from the URL configuration.

Every URL pattern of the site (pages and API; Django's admin has its own staff check, tested
at the end) is requested with GET and with an empty POST by five callers: anonymous, an
outsider (signed in, not in the group), and the group's viewer, member and owner. Each
answer is sorted into one letter and compared with ``EXPECTED``, written by hand:

- ``L`` sent to log in (a page's redirect to the log-in page; the API's 401/403 "not
  authenticated");
- ``H`` hidden: 404, as if the object did not exist (outsiders of a group);
- ``D`` denied: 403 (a viewer's write, a member's owner-only change);
- ``M`` method not allowed: 405;
- ``A`` let in: the view answered on the merits (2xx, 3xx, or 400/409/410/429 about the
  input), never a 500.

A URL pattern without a row fails the test, so a new view cannot be added without saying
who may use it. Each request runs in a savepoint that is rolled back, so one caller's POST
does not change what the next one sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import HistoryImport, Membership
from campaigns.play.services import record_attempt
from solver import services as hint_services
from solver.hint_inputs import parse_input

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "outsider", "viewer", "member", "owner")

# name: (GET for anonymous, outsider, viewer, member, owner; the same for POST)
EXPECTED: dict[str, tuple[str, str]] = {
    "api-attempts": ("LHAAA", "LHDAA"),
    "api-bgstats": ("LHAAA", "LMMMM"),
    "api-campaigns": ("LHAAA", "LHDAA"),
    "api-clock": ("LAAAA", "LMMMM"),
    "api-clocks": ("LAAAA", "LMMMM"),
    "api-community": ("LHAAA", "LMMMM"),
    "api-community-report": ("LMMMM", "LHDAA"),
    "api-docs": ("AAAAA", "MMMMM"),
    "api-events": ("LHAAA", "LMMMM"),
    "api-export": ("LHAAA", "LMMMM"),
    "api-export-csv": ("LHAAA", "LMMMM"),
    "api-group": ("LHAAA", "LMMMM"),
    "api-group-import": ("LMMMM", "LAAAA"),
    "api-import": ("LHHHA", "LMMMM"),  # an import is seen by the person who started it only
    "api-groups": ("LAAAA", "LAAAA"),
    "api-layout-check": ("LMMMM", "LAAAA"),
    "api-member": ("LMMMM", "LMMMM"),  # PATCH and DELETE (tested in tests/campaigns)
    "api-members": ("LHAAA", "LHDDA"),
    "api-progress": ("LHAAA", "LMMMM"),
    "api-redo": ("LMMMM", "LHDAA"),
    "api-schema": ("AAAAA", "MMMMM"),
    "api-sessions": ("LHAAA", "LHDAA"),
    "api-sleeve": ("LHAAA", "LHDAA"),
    "api-sleeve-retrieve": ("LMMMM", "LHDAA"),
    "api-statistics": ("LHAAA", "LMMMM"),
    "api-statistics-csv": ("LHAAA", "LMMMM"),
    "api-transcriptions": ("LHAAA", "LHDAA"),
    "api-transcriptions-adopt": ("LMMMM", "LHDAA"),
    "api-undo": ("LMMMM", "LHDAA"),
    "api_token": ("LAAAA", "LAAAA"),
    "campaigns:bgstats": ("LHAAA", "LMMMM"),
    "campaigns:check": ("LMMMM", "LHAAA"),
    "campaigns:clock": ("LHAAA", "LMMMM"),
    "campaigns:community_adopt": (
        "LMMMM",
        "LHDHH",
    ),  # 1-2 has no community definition: 404 once let in
    "campaigns:community_report": ("LMMMM", "LHDAA"),
    "campaigns:export_csv": ("LHAAA", "LMMMM"),
    "campaigns:export_json": ("LHAAA", "LMMMM"),
    "campaigns:group": ("LHAAA", "LMMMM"),
    "campaigns:import": ("LMMMM", "LAAAA"),
    "campaigns:import_progress": ("LHHHA", "LMMMM"),
    "campaigns:invite": ("LMMMM", "LHDDA"),
    "campaigns:join": ("AAAAA", "LAAAA"),  # the invite link: signed out, POST asks to log in
    "campaigns:live": (
        "HHAAA",
        "MMMMM",
    ),  # phones poll it: 404 for anyone not a member, even signed out
    "campaigns:member": ("LMMMM", "LHDDA"),
    "campaigns:members": ("LHAAA", "LHDDA"),
    "campaigns:player": ("LMMMM", "LHDDA"),
    "campaigns:record": ("LMMMM", "LHDAA"),
    "campaigns:session": ("LHAAA", "LHDAA"),
    "campaigns:sessions": ("LHAAA", "LHDAA"),
    "campaigns:settings": ("LHAAA", "LHDAA"),
    "campaigns:recap_png": ("LHAAA", "LMMMM"),
    "campaigns:redo": ("LMMMM", "LHDAA"),
    "campaigns:sharing": ("LMMMM", "LHDDA"),
    "campaigns:sleeve": ("LHAAA", "LHDAA"),
    "campaigns:stats": ("LHAAA", "LMMMM"),
    "campaigns:table": ("LHAAA", "LMMMM"),
    "campaigns:transcribe": ("LHDAA", "LHDAA"),  # viewers do not open the editor
    "campaigns:undo": ("LMMMM", "LHDAA"),
    "dashboard": ("AAAAA", "LAAAA"),  # signed out: the front door; a POST asks to log in
    "healthz": ("AAAAA", "MMMMM"),
    "login": ("AAAAA", "AAAAA"),
    "logout": ("MMMMM", "AAAAA"),
    "manifest": ("AAAAA", "MMMMM"),
    "offline": ("AAAAA", "MMMMM"),
    "password_change": ("LAAAA", "LAAAA"),
    "password_change_done": ("LAAAA", "LMMMM"),
    "password_reset": ("AAAAA", "AAAAA"),
    "password_reset_complete": ("AAAAA", "MMMMM"),
    "password_reset_confirm": ("AAAAA", "AAAAA"),
    "password_reset_done": ("AAAAA", "MMMMM"),
    "service-worker": ("AAAAA", "MMMMM"),
    "set_language": ("AAAAA", "AAAAA"),
    "signup": ("AAAAA", "AAAAA"),
    "solver:api-cancel": ("LMMMM", "LHDDA"),  # only the asker (the owner here) stops a hint
    "solver:api-create": ("LMMMM", "LAAAA"),
    "solver:api-detail": ("LHAAA", "LMMMM"),
    "solver:api-postmortem": ("LMMMM", "LAAAA"),  # a question about a layout: any account
    "solver:cancel": ("LMMMM", "LHDDA"),  # only the asker (the owner here) stops a hint
    "solver:detail": ("LHAAA", "LMMMM"),
    "solver:list": ("LAAAA", "LMMMM"),
    "solver:new": ("LAAAA", "LAAAA"),
    "solver:retry": (
        "LMMMM",
        "LHAAA",
    ),  # the hint has not failed: back to it (a viewer's retry: test_viewers.py)
    "solver:table_plan": ("LHAAA", "LMMMM"),
    "solver:what_if": ("LMMMM", "LHAAA"),
    "trust": ("AAAAA", "MMMMM"),  # public: a phone trusts the server before it logs in
    "trust-certificate": ("HHHHH", "MMMMM"),  # 404 here: no make serve, so no local CA
}


def _patterns(resolver: URLResolver, prefix: str = "", ns: str = "") -> Iterator[tuple[str, str]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}{entry.namespace}:" if entry.namespace else ns
            yield from _patterns(entry, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            yield f"{ns}{entry.name}", prefix + str(entry.pattern)


ROUTES = sorted(
    (name, route) for name, route in _patterns(get_resolver()) if not name.startswith("admin:")
)


@pytest.fixture
def matrix_ids(
    alice: User, bob: User, charlie: User, dave: User, monkeypatch: Any
) -> dict[str, Any]:
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    viewer = Membership.objects.create(group=group, user=dave, role=Membership.Role.VIEWER)
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()), None, "")
    record_attempt(campaign, alice, "1-1", "failed", 3, session=session)
    hint, _created = hint_services.request_hint(
        alice, parse_input("1-1", "SSMM/MMSS/SMSM", None), group=group, campaign=campaign
    )
    started = HistoryImport.objects.create(owner=alice, events_total=500)
    return {
        "users": {"outsider": charlie, "viewer": dave, "member": bob, "owner": alice},
        "values": {
            "group_id": group.pk,
            "member_id": viewer.pk,
            "player_id": group.players.first().pk,  # type: ignore[union-attr]
            "session_id": session.pk,
            "hint_id": hint.pk,
            "import_id": started.pk,
            "clock_id": "1-2",
            "token": group.invite_token,
            "fingerprint": "0123456789abcdef",
            "uidb64": "MQ",
            # A reset token that is not valid: the page says so.
            "token_reset": "set-password",
        },
    }


def _url(route: str, values: dict[str, Any]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        if name == "token" and route.startswith("accounts/reset/"):
            name = "token_reset"
        return str(values[name])

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)


def _letter(response: Any, api: bool) -> str:
    status = response.status_code
    location = response.get("Location", "")
    if status == 302 and "/login/?next=" in location:
        return "L"
    if status == 401:
        return "L"
    if status == 403:
        detail = getattr(response, "data", None)
        code = getattr(detail.get("detail"), "code", "") if isinstance(detail, dict) else ""
        return "L" if code == "not_authenticated" else "D"
    if status == 404:
        return "H"
    if status == 405:
        return "M"
    assert status < 500, f"{status} from {response.request['PATH_INFO']}"
    return "A"


def _answers(route: str, matrix_ids: dict[str, Any]) -> tuple[str, str]:
    url = _url(route, matrix_ids["values"])
    api = route.startswith("api/")
    letters: dict[str, list[str]] = {"GET": [], "POST": []}
    for role in ROLES:
        for method in ("GET", "POST"):
            client: Client = APIClient() if api else Client()
            if role != "anonymous":
                client.force_login(matrix_ids["users"][role])
            with transaction.atomic():
                response = client.get(url) if method == "GET" else client.post(url)
                transaction.set_rollback(True)
            letters[method].append(_letter(response, api))
    return "".join(letters["GET"]), "".join(letters["POST"])


def test_every_url_pattern_has_a_row() -> None:
    names = {name for name, _route in ROUTES}
    assert sorted(names - set(EXPECTED)) == [], "new URL patterns need a row in EXPECTED"
    assert sorted(set(EXPECTED) - names) == [], "rows for URL patterns that no longer exist"


@pytest.mark.parametrize(("name", "route"), ROUTES, ids=[name for name, _ in ROUTES])
def test_who_may_use_each_url(name: str, route: str, matrix_ids: dict[str, Any]) -> None:
    assert _answers(route, matrix_ids) == EXPECTED.get(name), f"GET, POST for {ROLES}"


ADMIN_URLS = [
    "/admin/",
    "/admin/auth/user/",
    "/admin/campaigns/group/",
    "/admin/auth/user/1/change/",
    "/admin/campaigns/describedrulekind/in-use/",  # rules typed in tables' own words
]


@pytest.mark.parametrize("url", ADMIN_URLS)
def test_the_admin_is_for_staff_only(url: str, matrix_ids: dict[str, Any]) -> None:
    """Django's admin checks staff itself: every caller of the matrix is sent to its log-in."""
    for role in ROLES:
        client = Client()
        if role != "anonymous":
            client.force_login(matrix_ids["users"][role])
        for response in (client.get(url), client.post(url)):
            assert response.status_code == 302 and "/admin/login/?next=" in response["Location"]
