""" "What if" runs in the web process, so its cost is bounded (games per engine, a time
budget for the slow reference engine, rule count) and each user may ask it only so often;
and a hint's own clock definition has no more rules than a transcription."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from rules.clock import MAX_RULES, Clock
from rules.seats import parse_colours
from solver import services
from solver import what_if as what_if_module
from solver.core.search.search import HintResult
from solver.core.table.plans import baseline_plan
from solver.errors import HintError, HintLimitReached
from solver.hint_inputs import parse_input
from solver.models import HintRequest
from solver.results import result_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit_at_once")]
COLOURS = "SSM/MMS/SMM/SSM"
TARGETS = {f"target_{i}": t for i, t in enumerate([3, 6, 9, 12, 15, 30], start=1)}
# A kind only the reference engine plays (conftest.no_twelve, registered by the tests below).
REFERENCE_RULE = {"kind": "test_no_twelve", "segment": 2}
A_RULE = {"kind": "forbidden_values", "segment": 2, "values": [12]}


def done_hint(user: User, definition: dict[str, Any] | None = None) -> HintRequest:
    clock = Clock.from_json(definition) if definition else None
    hint_input = parse_input(definition or "1-1", COLOURS, 4)
    hint, _created = services.request_hint(user, hint_input)
    seats = parse_colours(COLOURS)
    result = HintResult(
        plan=baseline_plan(clock or hint.clock(), seats, 4),
        pass_rate=0.5,
        interval=(0.45, 0.55),
        baseline_rate=0.4,
        odds=0.9,
        games=100,
        words={"en": "Aim.", "nl": "Mik.", "ja": "目標。"},
        partial=False,
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        status=HintRequest.Status.DONE,
        progress=100,
        result=result_json(result, "en"),
        finished_at=timezone.now(),
    )
    hint.refresh_from_db()
    return hint


def test_the_compiled_engine_plays_what_if_games_for_each_plan(alice: User) -> None:
    outcome = what_if_module.what_if(done_hint(alice), [3, 6, 9, 12, 15, 30], 1, alice)
    assert outcome.mine.games == outcome.suggested.games == what_if_module.WHAT_IF_GAMES


def test_the_reference_engine_stops_when_its_time_is_spent(
    alice: User, monkeypatch: pytest.MonkeyPatch, no_twelve: str
) -> None:
    hint = done_hint(alice, {"id": "2-1", "rules": [REFERENCE_RULE]})
    monkeypatch.setattr(what_if_module, "WHAT_IF_SECONDS", 0)
    outcome = what_if_module.what_if(hint, [3, 6, 9, 12, 15, 30], 1, alice)
    assert outcome.mine.games == outcome.suggested.games == what_if_module.WHAT_IF_ROUND


def test_the_reference_engine_plays_at_most_a_tenth_of_the_games(
    alice: User, monkeypatch: pytest.MonkeyPatch, no_twelve: str
) -> None:
    hint = done_hint(alice, {"id": "2-1", "rules": [REFERENCE_RULE]})
    monkeypatch.setattr(what_if_module, "WHAT_IF_SECONDS", 3600)
    monkeypatch.setattr(what_if_module, "WHAT_IF_GAMES", 40)
    outcome = what_if_module.what_if(hint, [3, 6, 9, 12, 15, 30], 1, alice)
    assert outcome.mine.games == 4


def test_what_if_is_limited_per_user_and_minute(
    alice: User, bob: User, login: Callable[[User], Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(what_if_module, "WHAT_IF_PER_MINUTE", 2)
    hint = done_hint(alice)
    client = login(alice)
    url = f"/hints/{hint.pk}/what-if/"
    assert client.post(url, {**TARGETS, "opener": 1}).status_code == 200
    assert client.post(url, {**TARGETS, "opener": 1}).status_code == 200
    refused = client.post(url, {**TARGETS, "opener": 1})
    assert refused.status_code == 429
    assert "this minute" in refused.content.decode()
    bobs = f"/hints/{done_hint(bob).pk}/what-if/"
    assert login(bob).post(bobs, {**TARGETS, "opener": 1}).status_code == 200


def test_with_htmx_a_refused_what_if_still_swaps_in_its_reason(
    alice: User, login: Callable[[User], Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    # htmx swaps no 4xx answer in: the card must come back as 200, or the player sees nothing.
    monkeypatch.setattr(what_if_module, "WHAT_IF_PER_MINUTE", 1)
    client = login(alice)
    url = f"/hints/{done_hint(alice).pk}/what-if/"
    htmx = {"HX-Request": "true"}
    bad = client.post(url, {**TARGETS, "target_6": -5, "opener": 1}, headers=htmx)
    assert bad.status_code == 200
    html = bad.content.decode()
    assert html.lstrip().startswith('<div class="card" id="what-if">')
    assert 'aria-invalid="true" aria-describedby="id_target_6_error"' in html
    assert 'id="id_target_6_error"' in html and "greater than or equal to 0" in html
    assert client.post(url, {**TARGETS, "opener": 1}, headers=htmx).status_code == 200
    limited = client.post(url, {**TARGETS, "opener": 1}, headers=htmx)
    assert limited.status_code == 200 and "this minute" in limited.content.decode()
    # Without htmx the status still says what happened.
    assert client.post(url, {**TARGETS, "opener": 1}).status_code == 429


def test_the_what_if_limit_slides_across_the_turn_of_a_minute(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(what_if_module, "WHAT_IF_PER_MINUTE", 2)
    now = [1_000_019.5]  # half a second before a minute turns (a multiple of 60)
    monkeypatch.setattr(time, "time", lambda: now[0])  # the cache's clock too
    what_if_module._count(alice)
    now[0] += 1.0  # the next minute
    what_if_module._count(alice)
    with pytest.raises(HintLimitReached):
        what_if_module._count(alice)
    now[0] += 59.5  # 60 s after the first ask: its slot is free again, the second's not
    what_if_module._count(alice)
    with pytest.raises(HintLimitReached):
        what_if_module._count(alice)


def test_a_hint_saved_with_too_many_rules_is_refused_not_simulated(alice: User) -> None:
    hint = done_hint(alice)
    definition = {**hint.clock_definition, "rules": [A_RULE] * (MAX_RULES + 1)}
    HintRequest.objects.filter(pk=hint.pk).update(clock_definition=definition)
    hint.refresh_from_db()
    with pytest.raises(HintError):
        what_if_module.what_if(hint, [3, 6, 9, 12, 15, 30], 1, alice)


def test_a_hint_clock_definition_has_at_most_the_transcription_rule_count(
    alice: User, login: Callable[[User], Client]
) -> None:
    definition = {"id": "2-1", "rules": [A_RULE] * (MAX_RULES + 1)}
    response = login(alice).post(
        "/api/hints/",
        {"clock": definition, "colours": COLOURS, "base_rules": False},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "clock" in response.json()
    assert not HintRequest.objects.exists()
