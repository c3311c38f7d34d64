"""The plan as the pages and the API give it: three lines said aloud (what table mode's Read
aloud reads), the fine print behind "Why / details", in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.groups.services import create_group
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.core.words import all_words, plan_speech
from solver.models import HintRequest
from solver.results import result_json

pytestmark = pytest.mark.django_db
CLOCK = get_clock("1-1")
COLOURS = "MMMM/SSMM/MMSS"
SEATS = parse_colours(COLOURS)
PLAN = baseline_plan(CLOCK, SEATS, 3)
WHY = {"en": "Why / details", "nl": "Waarom / details", "ja": "理由と詳細"}


def done_hint(user: User, **fields: object) -> HintRequest:
    result = HintResult(
        PLAN, 0.6, (0.55, 0.65), 0.4, 0.9, 1000, all_words(PLAN, CLOCK, SEATS, 3), False
    )
    return HintRequest.objects.create(
        user=user, clock_id="1-1", clock_definition=CLOCK.to_json(), colours=COLOURS, players=3,
        face_up=3, status=HintRequest.Status.DONE, progress=100, result=result_json(result, "en"),
        input_hash="x", finished_at=timezone.now(), **fields,
    )  # fmt: skip


def said_and_details(html: str) -> tuple[list[str], list[str]]:
    said = re.search(r'<ol class="words">(.*?)</ol>', html, re.S)
    why = re.search(r'<details class="why">(.*?)</details>', html, re.S)
    assert said is not None and why is not None
    items = re.compile(r"<li>(.*?)</li>", re.S)
    return items.findall(said.group(1)), items.findall(why.group(1))


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_result_page_says_three_lines_and_keeps_the_fine_print_behind_why(
    alice: User, login: Callable[[User], Client], lang: str
) -> None:
    hint = done_hint(alice, names=["Ann", "Bea", "Cas"])
    client = login(alice)
    client.cookies["django_language"] = lang
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    said, details = said_and_details(html)
    speech = plan_speech(PLAN, CLOCK, SEATS, 3, lang, ["Ann", "Bea", "Cas"])
    assert said == list(speech.lines) and len(said) == 3
    assert details == list(speech.details)
    assert WHY[lang] in html
    belief = {"en": "face-down card", "nl": "dichte kaart", "ja": "伏せたカード"}[lang]
    assert not any(belief in line for line in said) and any(belief in d for d in details)
    assert "Bea" in said[1]


def test_table_mode_reads_aloud_the_three_lines_only(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Tuesday table", ["Ann", "Bea", "Cas"])
    done_hint(alice, group=group, names=["Ann", "Bea", "Cas"])
    html = login(alice).get(f"/groups/{group.pk}/table/plan/1-1/", headers={"hx-request": "true"})
    page = html.content.decode()
    spoken = re.search(r'<p id="plan-words" class="plan-words">(.*?)</p>', page, re.S)
    assert spoken is not None
    lines = re.findall(r'<span class="line">(.*?)</span>', spoken.group(1))
    assert lines == list(plan_speech(PLAN, CLOCK, SEATS, 3, "en", ["Ann", "Bea", "Cas"]).lines)
    assert "face-down" not in spoken.group(1)
    assert "Why / details" in page and "Reading a face-down card" in page


def test_the_api_result_has_the_lines_and_the_fine_print(alice: User) -> None:
    hint = done_hint(alice)
    client = APIClient()
    client.force_authenticate(alice)
    result = client.get(f"/api/hints/{hint.pk}/", HTTP_ACCEPT_LANGUAGE="ja").json()["result"]
    speech = plan_speech(PLAN, CLOCK, SEATS, 3, "ja")
    assert result["lines"] == list(speech.lines) and result["details"] == list(speech.details)
    assert result["words"] == "".join(speech.lines)
    assert result["pass_rate"] == 0.6  # the stored numbers as they were
