"""The live board's poll (``GET /groups/{id}/live/``): 304 while nothing changed, answered
from the cache; every change the board shows gives it a new version; outsiders learn
nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from campaigns import live
from campaigns.groups.services import (
    add_player,
    edit_session,
    fill_in_session,
    new_campaign,
    remove_member,
    rename_player,
)
from campaigns.models import Attempt, Campaign, Group, Membership, Session
from campaigns.play import services as play_services
from campaigns.play.services import record_attempt, skip
from tests.campaigns.play.conftest import OnCommit, _live

pytestmark = pytest.mark.django_db


def _board_version(client: Client, group: Group) -> str:
    page = client.get(f"/groups/{group.pk}/").content.decode()
    match = re.search(r'data-live-version="([^"]+)"', page)
    assert match
    return match[1]


# --- the poll ------------------------------------------------------------------------------


def test_the_poll_answers_the_version_then_304_while_nothing_changed(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    phone = as_role("member")
    r = phone.get(_live(group))
    assert r.status_code == 200
    version = r.json()["version"]
    assert r["ETag"] == f'"{version}"'
    assert version == _board_version(phone, group)
    again = phone.get(_live(group), headers={"if-none-match": r["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == r["ETag"]
    assert again.content == b""


def test_an_unchanged_poll_reads_no_board_row_and_renders_no_template(
    group: Group,
    campaign: Campaign,
    play: Callable[..., Attempt],
    as_role: Callable[[str], Client],
    django_assert_max_num_queries: Any,
) -> None:
    for outcome in ["failed", "failed", "passed", "passed"]:
        play(campaign, outcome)
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    with django_assert_max_num_queries(2) as queries:  # the session, the membership
        r = phone.get(_live(group), headers={"if-none-match": etag})
    assert r.status_code == 304
    assert not r.templates
    tables = " ".join(q["sql"] for q in queries.captured_queries)
    assert "campaigns_event" not in tables and "campaigns_campaign" not in tables


def test_a_lost_version_is_drawn_again_and_the_phone_refreshes_once(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    cache.clear()  # the cache restarted
    r = phone.get(_live(group), headers={"if-none-match": etag})
    assert r.status_code == 200
    assert phone.get(_live(group), headers={"if-none-match": r["ETag"]}).status_code == 304


def test_while_the_cache_keeps_nothing_the_version_comes_from_the_database(
    group: Group, alice: User, as_role: Callable[[str], Client], settings: Any
) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 304
    _attempt(group, alice)
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 200


# --- every change gives a new version ------------------------------------------------------


def _attempt(group: Group, alice: User) -> None:
    record_attempt(group.current_campaign(), alice, "1-1", "failed", 3)


def _undo(group: Group, alice: User) -> None:
    play_services.undo(group.current_campaign(), alice)


def _skip(group: Group, alice: User) -> None:
    skip(group.current_campaign(), alice, "1-1")


def _retrieve(group: Group, alice: User) -> None:
    play_services.retrieve(group.current_campaign(), alice, ["1-1"])


def _session_started(group: Group, alice: User) -> None:
    fill_in_session(group.current_campaign(), list(group.players.all()[:2]))


def _session_corrected(group: Group, alice: User) -> None:
    edit_session(Session.objects.get(), Session.objects.get().date, [], "")


def _campaign(group: Group, alice: User) -> None:
    new_campaign(group)


def _player_added(group: Group, alice: User) -> None:
    add_player(group, "Dora")


def _player_renamed(group: Group, alice: User) -> None:
    rename_player(group.players.get(name="Ann"), "Anna")


# Each change, and what must have happened before it (so that it can be made).
CHANGES: dict[str, tuple[Callable[[Group, User], None], list[Callable[[Group, User], None]]]] = {
    "attempt": (_attempt, []),
    "undo": (_undo, [_attempt]),
    "skip": (_skip, [_attempt]),
    "sleeve retrieval": (_retrieve, [_attempt, _skip]),
    "session started": (_session_started, []),
    "session corrected": (_session_corrected, [_session_started]),
    "new campaign": (_campaign, []),
    "player added": (_player_added, []),
    "player renamed": (_player_renamed, []),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_gives_the_next_poll_the_new_board(
    change: str,
    group: Group,
    alice: User,
    as_role: Callable[[str], Client],
    committed: Callable[[], Any],
) -> None:
    make, before = CHANGES[change]
    with committed():
        for step in before:
            step(group, alice)
    phone = as_role("viewer")
    etag = phone.get(_live(group))["ETag"]
    with committed():
        make(group, alice)
    r = phone.get(_live(group), headers={"if-none-match": etag})
    assert r.status_code == 200
    assert r["ETag"] != etag
    assert r.json()["version"] == _board_version(phone, group)
    assert phone.get(_live(group), headers={"if-none-match": r["ETag"]}).status_code == 304


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("record/", {"clock": "1-2", "players": "3", "action": "failed"}),
        ("sleeve/", {"clock": "1-1"}),
        ("undo/", {}),
        ("sessions/", {"date": "2026-01-02", "players": []}),
    ],
)
def test_a_change_made_on_a_page_reaches_the_other_phones(
    path: str,
    data: dict[str, Any],
    group: Group,
    campaign: Campaign,
    alice: User,
    as_role: Callable[[str], Client],
    committed: Callable[[], Any],
) -> None:
    with committed():
        _attempt(group, alice)
        _skip(group, alice)
    phone = as_role("viewer")
    etag = phone.get(_live(group))["ETag"]
    if path == "undo/":
        data = {"event": str(campaign.events.latest("id").pk)}
    with committed():
        r = as_role("member").post(f"/groups/{group.pk}/{path}", data)
    assert r.status_code == 302, r.content.decode()[:300]
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 200


def test_a_refused_change_keeps_the_version(
    group: Group, alice: User, as_role: Callable[[str], Client], committed: Callable[[], Any]
) -> None:
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    with committed():
        r = phone.post(f"/groups/{group.pk}/record/", {"clock": "2-1", "action": "failed"})
    assert r.status_code == 400
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 304


def test_the_version_changes_when_the_change_commits_not_before(
    group: Group, alice: User, django_capture_on_commit_callbacks: OnCommit
) -> None:
    before = live.board_version(group.pk)
    with django_capture_on_commit_callbacks() as callbacks:
        _attempt(group, alice)
        assert live.board_version(group.pk) == before
    for callback in callbacks:
        callback()
    assert live.board_version(group.pk) != before


# --- who may poll ------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["outsider", None])
def test_outsiders_and_signed_out_phones_get_404_even_with_the_current_version(
    group: Group, as_role: Callable[[str], Client], role: str | None, members_etag: str
) -> None:
    phone = as_role(role) if role else Client()
    assert phone.get(_live(group)).status_code == 404
    r = phone.get(_live(group), headers={"if-none-match": members_etag})
    assert r.status_code == 404
    assert "ETag" not in r


def test_a_removed_member_gets_404_at_the_next_poll(
    group: Group, bob: User, as_role: Callable[[str], Client]
) -> None:
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 304
    remove_member(group, Membership.objects.get(group=group, user=bob))
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 404


def test_a_phone_whose_password_changed_elsewhere_gets_404_from_the_poll(
    group: Group, bob: User, as_role: Callable[[str], Client]
) -> None:
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    bob.set_password("a-new-secret-77")
    bob.save()
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 404


def test_a_signed_out_phone_gets_404_from_the_poll(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    phone = as_role("member")
    etag = phone.get(_live(group))["ETag"]
    session = phone.cookies["sessionid"].value
    phone.post("/accounts/logout/")
    phone.cookies["sessionid"] = session  # the old cookie, kept by someone
    assert phone.get(_live(group), headers={"if-none-match": etag}).status_code == 404


def test_the_poll_refuses_writes(group: Group, as_role: Callable[[str], Client]) -> None:
    assert as_role("member").post(_live(group)).status_code == 405
