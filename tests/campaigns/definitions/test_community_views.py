"""The pages of shared transcriptions: the clock page and the editor list other tables'
definitions drawn on their faces with the differences highlighted; "Use this", reports,
the next-clock card's offer, the sharing switch; spoilers and permissions for every role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.definitions.services import transcribe
from campaigns.models import ClockTranscription, DefinitionReport, Group
from rules.canonical import fingerprint
from rules.clock import Clock

AsRole = Callable[[str], Client]
RULES: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
]
RIVAL: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "strictly_rising"},
]


def print_of(rules: list[dict[str, Any]], clock_id: str = "2-1") -> str:
    return fingerprint(Clock.from_json({"id": clock_id, "rules": rules}))


def test_the_clock_page_draws_competing_definitions_with_the_differences(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None], alice: User
) -> None:
    tables(RULES, 3)
    tables(RIVAL, 1)
    transcribe(at_chapter_2, "2-1", {"rules": RULES}, alice)
    html = as_role("member").get(f"/groups/{at_chapter_2.pk}/clocks/2-1/").content.decode()
    section = html.split('id="community"')[1]
    assert "Other tables transcribed this clock" in html
    assert section.index(print_of(RULES)) < section.index(print_of(RIVAL))  # most tables first
    assert "Typed by 4 tables" in section and "confirmed" in section  # ours counts too
    rival = section.split(f'data-fingerprint="{print_of(RIVAL)}"')[1]
    assert rival.count('class="rule differs"') == 1  # strictly rising, which we lack
    assert "Not in these rules: No card of value 3 or 7 may be at segment 2." in rival
    mine = section.split(f'data-fingerprint="{print_of(RULES)}"')[1].split("<article")[0]
    assert "differs" not in mine and "same as yours" in mine
    assert section.count(">Use this</button>") == 1  # not for the definition we hold
    # told apart by a letter a table can say, not by a hash
    assert ">Version A</span>" in mine and ">Version B</span>" in rival
    assert f">{print_of(RIVAL)}<" not in section


def test_the_editor_shows_other_tables_definitions_too(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None]
) -> None:
    tables(RIVAL, 2)
    html = as_role("member").get(f"/groups/{at_chapter_2.pk}/clocks/2-1/edit/").content.decode()
    assert "Other tables transcribed this clock" in html and print_of(RIVAL) in html
    assert ">Use this</button>" in html


@pytest.mark.parametrize("role", ["owner", "member", "viewer"])
def test_a_chapter_not_opened_shows_nothing_of_other_tables(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None], role: str
) -> None:
    tables(RULES, 3, "3-1", chapter=3)
    client = as_role(role)
    for url in ("/clocks/3-1/?spoilers=1", "/clocks/3-1/"):
        html = client.get(f"/groups/{at_chapter_2.pk}{url}").content.decode()
        assert "Other tables" not in html and print_of(RULES, "3-1") not in html
    use = client.post(
        f"/groups/{at_chapter_2.pk}/clocks/3-1/community/use/",
        {"fingerprint": print_of(RULES, "3-1")},
    )
    assert use.status_code == (403 if role == "viewer" else 404)


def test_outsiders_get_404_everywhere(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None]
) -> None:
    tables(RULES, 1)
    client = as_role("outsider")
    base = f"/groups/{at_chapter_2.pk}"
    assert client.get(f"{base}/clocks/2-1/").status_code == 404
    for url in (
        "/clocks/2-1/community/use/",
        "/clocks/2-1/community/report/",
        "/settings/sharing/",
    ):
        assert (
            client.post(base + url, {"fingerprint": print_of(RULES), "reason": "x"}).status_code
            == 404
        )


@pytest.mark.parametrize(
    "url", ["/clocks/2-1/community/use/", "/clocks/2-1/community/report/", "/settings/sharing/"]
)
def test_the_buttons_answer_only_post(as_role: AsRole, at_chapter_2: Group, url: str) -> None:
    assert as_role("owner").get(f"/groups/{at_chapter_2.pk}{url}").status_code == 405


def test_use_this_records_an_adopted_version(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None]
) -> None:
    tables(RULES, 1)
    url = f"/groups/{at_chapter_2.pk}/clocks/2-1/community/use/"
    assert as_role("viewer").post(url, {"fingerprint": print_of(RULES)}).status_code == 403
    assert as_role("member").post(url, {"fingerprint": "0123456789ab"}).status_code == 404
    response = as_role("member").post(url, {"fingerprint": print_of(RULES)})
    assert response.status_code == 302 and response["Location"].endswith("/clocks/2-1/")
    row = ClockTranscription.objects.get(group=at_chapter_2)
    assert row.adopted and row.fingerprint == print_of(RULES) and row.version == 1


def test_a_report_needs_a_reason(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None], bob: User
) -> None:
    tables(RULES, 1)
    url = f"/groups/{at_chapter_2.pk}/clocks/2-1/community/report/"
    body = {"fingerprint": print_of(RULES), "reason": ""}
    refused = as_role("member").post(url, body)
    assert refused.status_code == 400 and "Say what is wrong" in refused.content.decode()
    assert as_role("viewer").post(url, {**body, "reason": "wrong"}).status_code == 403
    assert (
        as_role("member").post(url, {**body, "reason": "Segment 2 forbids 8."}).status_code == 302
    )
    assert DefinitionReport.objects.get().reason == "Segment 2 forbids 8."
    assert DefinitionReport.objects.get().user == bob


def test_the_next_clock_card_offers_what_tables_agree_on(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None], alice: User
) -> None:
    tables(RULES, 4)
    html = as_role("member").get(f"/groups/{at_chapter_2.pk}/").content.decode()
    assert "4 tables agree on this clock&#x27;s rules — use them?" in html
    assert f'class="offer" data-fingerprint="{print_of(RULES)}"' in html
    transcribe(at_chapter_2, "2-1", {"rules": RIVAL}, alice)
    html = as_role("member").get(f"/groups/{at_chapter_2.pk}/").content.decode()
    assert "agree on this clock" not in html


def test_the_offer_speaks_the_readers_language(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None]
) -> None:
    tables(RULES, 4)
    client = as_role("member")
    html = client.get(f"/groups/{at_chapter_2.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "4卓がこの時計盤のルールで一致しています。使いますか？" in html
    assert "第6区画" in html.split('class="offer"')[1]


def test_only_owners_switch_sharing_and_then_the_group_sees_nothing(
    as_role: AsRole, at_chapter_2: Group, tables: Callable[..., None]
) -> None:
    tables(RULES, 2)
    url = f"/groups/{at_chapter_2.pk}/settings/sharing/"
    assert as_role("member").post(url, {}).status_code == 403
    assert as_role("owner").post(url, {}).status_code == 302
    at_chapter_2.refresh_from_db()
    assert not at_chapter_2.share_with_community
    html = as_role("member").get(f"/groups/{at_chapter_2.pk}/clocks/2-1/").content.decode()
    assert "does not share transcriptions" in html and print_of(RULES) not in html
    settings = as_role("owner").get(f"/groups/{at_chapter_2.pk}/settings/").content.decode()
    assert 'name="share" id="share">' in settings  # shown unticked
    assert as_role("owner").post(url, {"share": "on"}).status_code == 302
    at_chapter_2.refresh_from_db()
    assert at_chapter_2.share_with_community
