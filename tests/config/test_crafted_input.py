"""Crafted input answers 400 (or, for an id in a URL, 404) with a reason, never 500: ids
beyond 64 bits, digits from other scripts, JSON nested 100,000 levels deep, bodies and
uploads beyond the size limit. The URL and API cases are generated from the URL
configuration, so a new route or endpoint is covered without a new test."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.urls.converters import IntConverter

from campaigns.models import Group
from campaigns.play.services import record_attempt
from config.ids import IdConverter, parse_id, parse_natural
from config.parsers import MAX_BODY_BYTES

pytestmark = pytest.mark.django_db

HUGE = "1" + "0" * 30  # beyond 64 bits
DEEP = "[" * 100_000


def _patterns(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route as (its regex text, its pattern), with its includes' prefixes."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern), entry


def _id_routes() -> list[str]:
    return sorted(route for route, _entry in _patterns() if "<id:" in route)


def _api_posts() -> list[str]:
    """API routes whose view takes POST (DRF views), with every id filled in as 1."""
    routes = []
    for route, entry in _patterns():
        view = getattr(entry.callback, "cls", None)
        if route.startswith("api/") and "<str:" not in route and hasattr(view, "post"):
            routes.append("/" + re.sub(r"<id:\w+>", "1", route))
    return sorted(routes)


@pytest.fixture
def owner_client(alice: User, login: Callable[[User], Client]) -> Client:
    return login(alice)


# --- ids ----------------------------------------------------------------------------------


def test_no_route_takes_an_unbounded_int() -> None:
    """<int:…> would pass a 30-digit id to the database; routes use <id:…>."""
    for route, entry in _patterns():
        converters = getattr(entry.pattern, "converters", {})
        assert not any(type(c) is IntConverter for c in converters.values()), route


def test_the_id_converter_refuses_ids_beyond_64_bits() -> None:
    converter = IdConverter()
    assert converter.to_python(str(2**63 - 1)) == 2**63 - 1
    with pytest.raises(ValueError):
        converter.to_python(str(2**63))


@pytest.mark.parametrize("raw", ["", "0", "-1", "²", "١٢", "1e3", " 1", HUGE, str(2**63), True])
def test_parse_id_refuses_what_no_row_can_have(raw: object) -> None:
    assert parse_id(raw) is None


def test_parse_natural_takes_ascii_digits_up_to_its_maximum() -> None:
    assert parse_natural("0", 3) == 0
    assert parse_natural("3", 3) == 3
    assert parse_natural("4", 3) is None
    assert parse_natural("1" * 5000) is None  # int() would refuse more than 4300 digits


@pytest.mark.parametrize("route", _id_routes())
def test_an_id_beyond_64_bits_in_a_url_is_not_found(owner_client: Client, route: str) -> None:
    url = "/" + re.sub(r"<\w+:\w+>", HUGE, route)
    assert owner_client.get(url).status_code == 404
    assert owner_client.post(url).status_code == 404


@pytest.mark.parametrize("raw", [HUGE, "²", "-3"])
def test_the_hint_page_refuses_a_group_id_no_group_can_have(owner_client: Client, raw: str) -> None:
    assert owner_client.get("/hints/new/", {"group": raw}).status_code == 404


def test_the_hint_api_refuses_a_group_id_beyond_64_bits(owner_client: Client) -> None:
    body = {"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "group": int(HUGE)}
    response = owner_client.post("/api/hints/", body, content_type="application/json")
    assert response.status_code == 400
    assert "group" in response.json()


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("attempts/", {"clock": "1-1", "outcome": "failed", "players": 3}, "session"),
        ("undo/", {}, "event"),
    ],
)
def test_the_group_api_refuses_body_ids_beyond_64_bits(
    owner_client: Client, group: Group, path: str, body: dict[str, Any], field: str
) -> None:
    body = {**body, field: int(HUGE)}
    response = owner_client.post(
        f"/api/groups/{group.pk}/{path}", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert field in response.json()


# --- digits of other scripts ----------------------------------------------------------------


def test_undo_with_a_superscript_event_refuses_without_undoing(
    owner_client: Client, group: Group, alice: User
) -> None:
    campaign = group.current_campaign()
    record_attempt(campaign, alice, "1-1", "failed", 3)
    response = owner_client.post(f"/groups/{group.pk}/undo/", {"event": "²"})
    assert response.status_code == 302
    assert campaign.events.filter(undone__isnull=True).count() == 1


def test_the_editor_ignores_a_superscript_rule_index(owner_client: Client, group: Group) -> None:
    rules = '{"kind": "card_count", "segment": 6, "count": 3}'
    response = owner_client.post(
        f"/groups/{group.pk}/clocks/1-2/edit/",
        {"start": 1, "rules": rules, "remove": "²"},
    )
    assert response.status_code == 200
    assert response.context["draft_rules"]  # the rule is still there


@pytest.mark.parametrize("raw", ["²", HUGE])
def test_a_session_refuses_a_player_id_no_player_can_have(
    owner_client: Client, group: Group, raw: str
) -> None:
    response = owner_client.post(
        f"/groups/{group.pk}/sessions/", {"date": "2026-11-30", "players": raw}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["players"]


# --- JSON nesting and size ------------------------------------------------------------------


def test_the_api_routes_taking_post_are_found() -> None:
    assert "/api/groups/import/" in _api_posts()
    assert "/api/hints/" in _api_posts()


@pytest.mark.parametrize("url", _api_posts())
def test_json_nested_100000_deep_is_a_400_on_every_api_post(owner_client: Client, url: str) -> None:
    response = owner_client.post(url, DEEP, content_type="application/json")
    assert response.status_code in (400, 404)  # 404: no group 1 for this caller
    if response.status_code == 400:
        assert "nested" in response.json()["detail"]


def test_json_nested_100000_deep_is_a_400_on_the_group_api(
    owner_client: Client, group: Group
) -> None:
    response = owner_client.post(
        f"/api/groups/{group.pk}/attempts/", DEEP, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


def test_a_body_beyond_the_size_limit_is_a_400(owner_client: Client) -> None:
    body = '{"name": "' + "x" * MAX_BODY_BYTES + '"}'
    response = owner_client.post("/api/groups/import/", body, content_type="application/json")
    assert response.status_code == 400
    assert "MB" in response.json()["detail"]


def test_non_json_bodies_are_refused_with_415(owner_client: Client) -> None:
    response = owner_client.post("/api/groups/", {"name": "Form table"})  # multipart
    assert response.status_code == 415


def test_the_import_page_refuses_json_nested_100000_deep(owner_client: Client) -> None:
    upload = SimpleUploadedFile("history.json", DEEP.encode(), "application/json")
    response = owner_client.post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)]
    assert "The history was not imported" in response.content.decode()


def test_the_import_page_refuses_a_file_beyond_5_mb(owner_client: Client) -> None:
    upload = SimpleUploadedFile("history.json", b" " * (MAX_BODY_BYTES + 1), "application/json")
    response = owner_client.post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)]
    assert "5 MB" in response.content.decode()


def test_the_editor_refuses_a_rules_line_nested_too_deep(
    owner_client: Client, group: Group
) -> None:
    response = owner_client.post(
        f"/groups/{group.pk}/clocks/1-2/edit/", {"start": 1, "rules": "[" * 7000}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["rules"]


# --- text that is not text: lone surrogates, NUL, noncharacters ------------------------------

# JSON escapes, as a client writes them: json.dumps("\ud800") is '"\\ud800"'.
NOT_TEXT = ["\ud800", "ab\udfffc", "\x00", "a\x00"]
NONCHARACTERS = ["\ufdd0", "\ufffe", "\uffff", "\U0010ffff"]


def _api_fields(group: Group) -> list[tuple[str, dict[str, Any], str]]:
    """A string field of each kind of API write: (url, body, the field to spoil)."""
    g = f"/api/groups/{group.pk}/"
    return [
        (g + "attempts/", {"clock": "1-1", "outcome": "failed", "players": 3}, "outcome"),
        (g + "members/", {"username": "bob", "role": "member"}, "role"),
        (g + "campaigns/", {"kind": "normal"}, "kind"),
        ("/api/hints/", {"clock": "1-1", "colours": "SSMM/MMSS/SMSM"}, "clock"),
        ("/api/groups/", {"name": "Table", "players": ["Ann", "Ben"]}, "name"),
    ]


@pytest.mark.parametrize("text", NOT_TEXT)
def test_a_lone_surrogate_or_nul_in_a_json_string_is_a_400_with_a_reason(
    owner_client: Client, group: Group, bob: User, text: str
) -> None:
    import json

    for url, body, field in _api_fields(group):
        response = owner_client.post(url, json.dumps({**body, field: text}), "application/json")
        assert response.status_code == 400, (url, response.content[:200])
        assert "not text that can be stored" in response.json()["detail"]
    # In a key too, and deep inside an import.
    url = f"/api/groups/{group.pk}/attempts/"
    response = owner_client.post(url, json.dumps({text: 1}), content_type="application/json")
    assert response.status_code == 400


@pytest.mark.parametrize("url", _api_posts())
def test_a_lone_surrogate_is_a_400_on_every_api_post(owner_client: Client, url: str) -> None:
    response = owner_client.post(url, '{"name": "\\ud800"}', content_type="application/json")
    assert response.status_code in (400, 404)  # 404: no group 1 for this caller
    if response.status_code == 400:
        assert "\\ud800" in response.json()["detail"]


@pytest.mark.parametrize("text", NONCHARACTERS)
def test_noncharacters_are_judged_like_any_other_character(
    owner_client: Client, group: Group, bob: User, text: str
) -> None:
    """Noncharacters are valid Unicode: let through, and each field says what it accepts."""
    import json

    for url, body, field in _api_fields(group):
        response = owner_client.post(url, json.dumps({**body, field: text}), "application/json")
        assert response.status_code < 500, (url, response.content[:200])
    new = json.dumps({"name": f"Table {text}", "players": ["Ann", "Ben"]})
    response = owner_client.post("/api/groups/", new, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Group.objects.get(pk=response.json()["id"]).name == f"Table {text}"


def test_the_import_page_refuses_a_lone_surrogate(owner_client: Client) -> None:
    upload = SimpleUploadedFile("history.json", b'{"name": "\\ud800"}', "application/json")
    response = owner_client.post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)]
    assert "The history was not imported" in response.content.decode()


def _pages(group: Group) -> list[tuple[str, str, dict[str, str]]]:
    g = f"/groups/{group.pk}/"
    return [
        ("post", "/groups/", {"name": "\x00"}),
        ("post", g + "record/", {"clock": "1-1", "outcome": "\x00", "players": "3"}),
        ("post", g + "undo/", {"event": "\x00"}),
        ("post", g + "members/", {"username": "a\x00", "role": "member"}),
        ("post", g + "settings/", {"name": "\x00"}),
        ("post", g + "clocks/1-2/edit/", {"start": "1", "rules": "\x00"}),
        ("get", "/hints/new/", {"clock": "\x00", "group": str(group.pk)}),
        ("get", g + "statistics/", {"session": "\x00"}),
        ("get", "/join/a\x00b/", {}),
        ("get", g + "table/plan/1-\x00/", {}),
        ("post", "/accounts/login/", {"username": "a\x00", "password": "x"}),
    ]


def test_nul_in_a_form_query_or_path_is_a_400_with_a_reason(
    owner_client: Client, group: Group
) -> None:
    for method, url, data in _pages(group):
        response = getattr(owner_client, method)(url, data)
        assert response.status_code == 400, (method, url, data)
        assert "NUL" in response.content.decode(), url
    response = owner_client.get("/api/groups/", {"name": "\x00"})
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
