"""Every page a member opens speaks the reader's language: in Dutch and Japanese no English
word of the app's own interface shows (a string built outside gettext, "(3 players)"), and
in every language no sentence ends twice ("p.m..")."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from campaigns.models import HistoryImport
from rules.catalogue import get_clock
from rules.seats import parse_colours
from solver import services as hint_services
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.core.words import all_words
from solver.hint_inputs import parse_input
from solver.models import HintRequest
from solver.results import result_json
from tests.evening import an_evening

pytestmark = pytest.mark.django_db
LOCALE = Path(__file__).resolve().parents[2] / "locale"

# Words of the interface that exist only in English; those that are Dutch words too ("was",
# "is", "of", "hint", "plan") are dropped below by looking them up in the translations.
ENGLISH_ONLY = [
    "players",
    "player",
    "attempts",
    "attempt",
    "passed",
    "failed",
    "clocks",
    "clock",
    "tokens",
    "minutes",
    "hints",
    "waiting",
    "worker",
    "winnable",
    "skipped",
    "sessions",
    "session",
    "statistics",
    "members",
    "settings",
    "undo",
    "version",
    "chapter",
    "seats",
    "seat",
    "cards",
    "colours",
    "rules",
    "group",
    "groups",
    "tonight",
    "latest",
    "sleeve",
    "rebirth",
    "allowed",
    "opener",
    "layout",
    "notes",
    "history",
    "asked",
    "table",
    "ask",
    "solver",
    "rate",
    "the",
    "and",
    "with",
    "your",
    "our",
    "not",
    "yet",
    "are",
    "was",
    "is",
    "of",
    "hint",
    "plan",
]


def _translated_words(lang: str) -> set[str]:
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    words: set[str] = set()
    for entry in po:
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            text = re.sub(r"%\(\w+\)[sd]|\{\w+\}", " ", text)  # placeholders are not words
            words |= {w.casefold() for w in re.findall(r"[A-Za-z]+", text)}
    return words


def _text(html: str) -> str:
    html = re.sub(r"(?s)<(script|style|svg|code|select)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    return re.sub(r"(?s)<[^>]+>", " ", html)


@pytest.fixture
def pages(alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    evening = an_evening(alice, bob)
    group, campaign = evening.group, evening.campaign
    hint, _created = hint_services.request_hint(
        alice, parse_input("1-1", "SSMM/MMSS/SMSM", None), group=group, campaign=campaign
    )
    clock, seats = get_clock("1-1"), parse_colours("SSMM/MMSS/SMSM")
    plan = baseline_plan(clock, seats, 3)
    result = HintResult(
        plan=plan,
        pass_rate=0.6123,
        interval=(0.58, 0.64),
        baseline_rate=0.41,
        odds=0.97,
        games=4000,
        words=all_words(plan, clock, seats, 3),
        partial=False,
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        status=HintRequest.Status.DONE,
        progress=100,
        result=result_json(result, "en"),
        finished_at=timezone.now(),
    )
    started = HistoryImport.objects.create(owner=alice, events_total=500)
    g = f"/groups/{group.pk}/"
    return [
        *evening.pages(),
        f"{g}table/plan/1-3/",
        g + "statistics/?campaign=all&players=3",
        f"/imports/{started.pk}/",
        f"/hints/{hint.pk}/",
    ]


@pytest.mark.parametrize("lang", ["nl", "ja"])
def test_no_english_interface_word_shows_in_dutch_or_japanese(
    alice: User, pages: list[str], lang: str
) -> None:
    english = set(ENGLISH_ONLY) - _translated_words(lang)
    assert {"players", "attempts", "passed", "failed", "undo", "waiting"} <= english
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = lang
    found: dict[str, list[str]] = {}
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        words = {w.casefold() for w in re.findall(r"[A-Za-z]+", _text(response.content.decode()))}
        if words & english:
            found[path] = sorted(words & english)
    assert found == {}


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_no_sentence_ends_twice(alice: User, pages: list[str], lang: str) -> None:
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = lang
    doubled = {}
    for path in pages:
        text = " ".join(_text(client.get(path).content.decode()).split())
        if re.search(r"[^.]\.\.(?!\.)|。。", text):
            doubled[path] = re.findall(r".{30}[^.]\.\.(?!\.).{0,10}", text)
    assert doubled == {}
