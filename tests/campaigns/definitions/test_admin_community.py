"""campaigns.admin for shared definitions: staff hide one or promote one to the site-wide
default of its clock; the tables then see, and play by, what the staff decided."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.definitions import community
from campaigns.definitions.played import played_definition
from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import CommunityDefinition, Group
from rules.catalogue import get_clock

pytestmark = pytest.mark.django_db
RULES: list[dict[str, Any]] = [{"kind": "card_count", "segment": 6, "count": 3}]
RIVAL: list[dict[str, Any]] = [{"kind": "strictly_rising"}]
URL = "/admin/campaigns/communitydefinition/"


def typed_elsewhere(rules: list[dict[str, Any]], name: str) -> CommunityDefinition:
    owner = User.objects.create_user(f"owner-{name}")
    other = create_group(owner, name, first_campaign=False)
    new_campaign(other, start_chapter=2)
    row = transcribe(other, "2-1", {"rules": rules}, owner)
    return CommunityDefinition.objects.get(clock_id="2-1", fingerprint=row.fingerprint)


def test_the_list_shows_each_definition_in_words_with_its_reports(
    at_chapter_2: Group, staff: Client, bob: User
) -> None:
    definition = typed_elsewhere(RULES, "A")
    community.report(at_chapter_2, "2-1", definition.fingerprint, bob, "Segment 6 holds 2.")
    page = staff.get(URL).content.decode()
    assert definition.fingerprint in page and "Segment 6 must hold exactly 3 cards." in page
    detail = staff.get(f"{URL}{definition.pk}/change/").content.decode()
    assert "Segment 6 holds 2." in detail


def test_staff_hide_a_definition_from_every_table(at_chapter_2: Group, staff: Client) -> None:
    definition = typed_elsewhere(RULES, "A")
    response = staff.post(URL, {"action": "hide", "_selected_action": [definition.pk]})
    assert response.status_code == 302
    definition.refresh_from_db()
    assert definition.hidden
    assert community.shared_definitions(at_chapter_2, "2-1") == []
    staff.post(URL, {"action": "show", "_selected_action": [definition.pk]})
    assert len(community.shared_definitions(at_chapter_2, "2-1")) == 1


def test_staff_promote_one_definition_per_clock(at_chapter_2: Group, staff: Client) -> None:
    agreed, rival = typed_elsewhere(RULES, "A"), typed_elsewhere(RIVAL, "B")
    both = {"action": "promote", "_selected_action": [agreed.pk, rival.pk]}
    staff.post(URL, both)
    assert not CommunityDefinition.objects.filter(promoted=True).exists()
    staff.post(URL, {"action": "promote", "_selected_action": [rival.pk]})
    staff.post(URL, {"action": "promote", "_selected_action": [agreed.pk]})
    assert list(CommunityDefinition.objects.filter(promoted=True)) == [agreed]
    choice = played_definition(at_chapter_2, "2-1")
    clock, version = choice.clock, choice.version
    assert clock.rules[0].kind == "card_count" and version == 0
    assert not get_clock("2-1").transcribed  # the shipped file is untouched


def test_the_group_page_plays_a_promoted_definition_like_a_shipped_one(
    at_chapter_2: Group, staff: Client, login: Any, bob: User
) -> None:
    community.promote(typed_elsewhere(RULES, "A"))
    html = login(bob).get(f"/groups/{at_chapter_2.pk}/").content.decode()
    assert "Segment 6 must hold exactly 3 cards." in html
    assert "not transcribed yet" not in html and "agree on this clock" not in html


def test_only_staff_reach_the_definitions(bob: User, login: Any) -> None:
    response = login(bob).get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
