"""A rule in the table's own words (kind ``described``) through the API: the layout check and
"was it winnable?" judge every other rule and list it unchecked; a hint plans without it and
says so, its odds an upper bound."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from solver import jobs
from solver.models import HintRequest

pytestmark = pytest.mark.django_db

NEAREST = "The segment nearest to 10 holds a Moon"
DEFINITION: dict[str, Any] = {
    "id": "4-2",
    "rules": [
        {"kind": "described", "text": NEAREST, "segment": 3},
        {"kind": "max_cards", "segment": 1, "count": 3},
    ],
}
PASSING = "S1 | S2 | S3 M1 | S5 M2 M3 | S8 M4 | S9 M10 S4"


@pytest.fixture
def solved_through_api(
    api: Callable[[User], APIClient], alice: User, monkeypatch: pytest.MonkeyPatch
) -> Callable[[Any], tuple[APIClient, HintRequest]]:
    """solved(clock): Alice asks for a hint on ``clock`` through the API, and the job runs
    here, at once and quickly (the broker only takes the message; the send happens as the
    view answers, as after a commit)."""
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    monkeypatch.setattr("solver.services.transaction.on_commit", lambda func, **kw: func())

    def _solved(clock: Any) -> tuple[APIClient, HintRequest]:
        client = api(alice)
        body = {"clock": clock, "colours": "SSMM/MMSS/SMSM", "face_up": 3}
        response = client.post("/api/hints/", body, format="json")
        assert response.status_code == 202, response.content
        hint = HintRequest.objects.get(pk=response.json()["id"])
        HintRequest.objects.filter(pk=hint.pk).update(effort=0.05, odds_samples=200)
        jobs.run(hint.pk, "task-1")
        hint.refresh_from_db()
        assert hint.status == HintRequest.Status.DONE, hint.error
        return client, hint

    return _solved


@pytest.mark.parametrize("url", ["/api/layouts/check/", "/api/layouts/postmortem/"])
def test_the_check_and_the_postmortem_list_the_rule_unchecked_with_its_text(
    api: Callable[[User], APIClient], alice: User, url: str
) -> None:
    response = api(alice).post(url, {"clock": DEFINITION, "layout": PASSING}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["special_rules_known"] is True
    unchecked = body["unchecked"]
    assert len(unchecked) == 1
    words = unchecked[0]["text"] if isinstance(unchecked[0], dict) else unchecked[0]
    assert NEAREST in words


def test_the_check_still_judges_the_known_rules(
    api: Callable[[User], APIClient], alice: User
) -> None:
    crowded = "S1 S2 S3 S4 | M5 | M6 | M7 | S9 M2 M1 | S10 M11"  # 4 cards at segment 1
    definition = {**DEFINITION, "rules": [*DEFINITION["rules"]]}
    response = api(alice).post(
        "/api/layouts/check/", {"clock": definition, "layout": crowded}, format="json"
    )
    body = response.json()
    assert body["passed"] is False
    assert "max_cards" in [item["rule"] for item in body["violations"]]


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ({"kind": "described", "text": ""}, "1 to 200"),
        ({"kind": "described", "text": "x" * 201}, "1 to 200"),
        ({"kind": "described", "text": "fine", "segment": 0}, "Segment 0"),
        ({"kind": "described", "text": "fine", "segment": 7}, "Segment 7"),
    ],
)
@pytest.mark.parametrize("url", ["/api/layouts/check/", "/api/layouts/postmortem/", "/api/hints/"])
def test_bad_words_or_segments_are_400_with_a_reason(
    api: Callable[[User], APIClient], alice: User, url: str, rule: dict[str, Any], reason: str
) -> None:
    body = {
        "clock": {"id": "4-2", "rules": [rule]},
        "layout": PASSING,
        "colours": "SSMM/MMSS/SMSM",
    }
    response = api(alice).post(url, body, format="json")
    assert response.status_code == 400
    assert reason in response.content.decode()


def test_a_finished_hint_names_the_rule_it_ignored_and_its_odds_are_an_upper_bound(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
) -> None:
    client, hint = solved_through_api(DEFINITION)
    body = client.get(f"/api/hints/{hint.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    result = body["result"]
    assert result["odds_upper_bound"] is True
    assert result["ignored_rules"] == [f"Segment 3: {NEAREST}"]
    assert any(NEAREST in line and "adjust it yourselves" in line for line in result["lines"])
    dutch = client.get(f"/api/hints/{hint.pk}/", HTTP_ACCEPT_LANGUAGE="nl").json()["result"]
    assert any("pas het zelf aan" in line for line in dutch["lines"])


def test_a_hint_without_described_rules_is_not_an_upper_bound(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
) -> None:
    client, hint = solved_through_api("1-1")
    result = client.get(f"/api/hints/{hint.pk}/").json()["result"]
    assert result["odds_upper_bound"] is False
    assert result["ignored_rules"] == []


@pytest.mark.parametrize(
    ("lang", "warning", "bound"),
    [
        ("en", "adjust it yourselves", "at most"),
        ("nl", "pas het zelf aan", "hoogstens"),
        ("ja", "自分たちで調整してください", "最大"),
    ],
)
def test_the_hint_page_warns_and_labels_the_rates_an_upper_bound(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
    login: Callable[[User], Any],
    alice: User,
    lang: str,
    warning: str,
    bound: str,
) -> None:
    _client, hint = solved_through_api(DEFINITION)
    page = login(alice).get(f"/hints/{hint.pk}/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    text = page.content.decode()
    assert NEAREST in text
    assert warning in text
    assert bound in text


def test_what_if_says_its_rates_know_nothing_of_the_rule(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
    login: Callable[[User], Any],
    alice: User,
) -> None:
    """ "Your version passes 59% … the suggested plan passes 89%" once came with no caveat."""
    _client, hint = solved_through_api(DEFINITION)
    targets = hint.targets()
    data = {f"target_{i}": t for i, t in enumerate(targets, start=1)}
    response = login(alice).post(f"/hints/{hint.pk}/what-if/", {**data, "opener": 1})
    assert response.status_code == 200
    html = response.content.decode()
    numbers = response.context["what_if_numbers"]
    assert numbers["mine"].startswith("at most ") and numbers["theirs"].startswith("at most ")
    assert f"Your version passes {numbers['mine']}" in html
    assert f"the suggested plan passes {numbers['theirs']}" in html
    assert f"without “Segment 3: {NEAREST}”: neither plan nor these games know" in html


def test_every_rate_on_the_hint_page_is_an_upper_bound(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
    login: Callable[[User], Any],
    alice: User,
) -> None:
    _client, hint = solved_through_api(DEFINITION)
    context = login(alice).get(f"/hints/{hint.pk}/").context
    assert context["numbers"]["baseline"].startswith("at most ")
    assert context["numbers"]["clean"].startswith("at most ")
    assert all(plan["pass_rate"].startswith("at most ") for plan in context["plans"])


def test_without_described_rules_the_figures_stand_alone(
    solved_through_api: Callable[[Any], tuple[APIClient, HintRequest]],
    login: Callable[[User], Any],
    alice: User,
) -> None:
    _client, hint = solved_through_api("1-1")
    context = login(alice).get(f"/hints/{hint.pk}/").context
    assert "at most" not in context["numbers"]["baseline"]
