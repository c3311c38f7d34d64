"""A group's exported history carries its hints (format version 3, issue 46): each hint's
request, result and pass curve, and the attempt it was asked for by position. The import
restores them for the new group, linked to the new attempts, so the imported group's
calibration and slip rate are the original's; ``export(import(x)) == x`` holds."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.errors import CampaignError
from campaigns.history import exports, import_jobs, imports, sections
from campaigns.models import Attempt, Campaign, Event, Group, HistoryImport
from campaigns.play.services import record_attempt
from campaigns.play.state import campaign_state
from rules.catalogue import get_clock
from solver.core.search.search import HintResult
from solver.core.table.slip_rate import GRID
from solver.history import IMPORTED
from solver.models import HintRequest
from solver.results import result_json

pytestmark = pytest.mark.django_db
COLOURS = "SSM/MMS/SMM/SSM"
# Failed, failed, passed… : the outcomes of the table's hinted attempts.
OUTCOMES = [
    "failed",
    "failed",
    "passed",
    "failed",
    "passed",
    "failed",
    "failed",
    "passed",
    "passed",
]


def _attempt(campaign: Campaign, user: User, outcome: str) -> Attempt:
    campaign.refresh_from_db()
    clock = campaign_state(campaign).next_clock
    return record_attempt(campaign, user, clock, outcome, 4)


def _hint(
    group: Group,
    user: User,
    result: Mapping[str, Any] | None,
    *,
    campaign: Campaign | None = None,
    attempt: Attempt | None = None,
    status: str = HintRequest.Status.DONE,
    when: Any = None,
) -> HintRequest:
    clock = attempt.clock_id if attempt is not None else "1-1"
    asked = when or timezone.now()
    rate = (result or {}).get("pass_rate") or 0.5
    return HintRequest.objects.create(
        user=user,
        group=group,
        campaign=campaign or (attempt.campaign if attempt else None),
        attempt=attempt,
        clock_id=clock,
        clock_definition=get_clock(clock).to_json(),
        definition_source="shipped",
        colours=COLOURS,
        players=4,
        names=["Ann", "Ben", "Cleo", "Dirk"],
        face_up=5,
        effort=0.25,
        seed=7,
        slip_rate=0.08,
        slip_rate_source="table",
        lang="nl",
        input_hash="x" * 64,
        status=status,
        failure="time_limit" if status == HintRequest.Status.FAILED else "",
        progress=100 if result is not None else 0,
        result=result,
        pass_curve=None
        if result is None
        else {"rates": list(GRID), "passes": [max(0.0, rate - r) for r in GRID]},
        queued_at=asked,
        started_at=asked + timedelta(seconds=2),
        finished_at=None if status == "cancelled" else asked + timedelta(seconds=30),
    )


@pytest.fixture
def hinted(group: Group, alice: User, fake_result: Callable[..., HintResult]) -> Group:
    """The group's table: nine hinted attempts ten minutes apart (one hint each, asked two
    minutes before), a hint between the first two not linked (matched to the second by its
    clock and time), one asked with no campaign, a failed and a cancelled hint, and one
    still queued."""
    campaign = group.current_campaign()
    start = timezone.now() - timedelta(hours=3)
    attempts = []
    for number, outcome in enumerate(OUTCOMES):
        attempt = _attempt(campaign, alice, outcome)
        attempt.created = start + timedelta(minutes=10 * number)
        Attempt.objects.filter(pk=attempt.pk).update(created=attempt.created)
        Event.objects.filter(pk=attempt.event_id).update(created=attempt.created)
        result = result_json(fake_result(rate=0.3 + number / 20), "en")
        _hint(group, alice, result, attempt=attempt, when=attempt.created - timedelta(minutes=2))
        attempts.append(attempt)
    between = start + timedelta(minutes=5)
    _hint(group, alice, result_json(fake_result(), "ja"), campaign=campaign, when=between)
    later = timezone.now()
    _hint(group, alice, result_json(fake_result(), "en"), when=later)
    _hint(group, alice, None, campaign=campaign, status="failed", when=later)
    _hint(group, alice, None, campaign=campaign, status="cancelled", when=later)
    _hint(group, alice, None, campaign=campaign, status="queued", when=later)
    return group


def test_the_export_carries_each_ended_hint_and_its_attempt_by_position(
    hinted: Group,
) -> None:
    history = exports.export_history(hinted)
    assert history["version"] == 3
    hints = history["hints"]
    assert len(hints) == 13  # the queued one is not history
    events = history["campaigns"][0]["history"]
    linked = [h for h in hints if h["attempt"] is not None]
    assert [events[h["attempt"]]["event"] for h in linked] == OUTCOMES
    assert [events[h["attempt"]]["clock"] for h in linked] == [h["clock"] for h in linked]
    first = linked[0]
    assert first["campaign"] == 0 and first["status"] == "done"
    assert first["result"]["pass_rate"] == 0.3
    assert first["pass_curve"]["rates"] == list(GRID)
    assert first["colours"] == COLOURS and first["face_up"] == 5 and first["players"] == 4
    assert (first["slip_rate"], first["slip_rate_source"]) == (0.08, "table")
    assert (first["effort"], first["seed"], first["lang"]) == (0.25, 7, "nl")
    assert first["definition"] == get_clock(first["clock"]).to_json()
    assert first["definition_source"] == "shipped"
    assert first["asked"] < first["started"] < first["finished"]
    assert [h["status"] for h in hints[-3:]].count("done") == 1
    statuses = {h["status"] for h in hints}
    assert statuses == {"done", "failed", "cancelled"}
    assert any(h["campaign"] is None for h in hints)
    assert all("id" not in h and "user" not in h for h in hints)


def test_the_import_restores_the_hints_and_the_round_trip_holds(
    hinted: Group, charlie: User
) -> None:
    history = exports.export_history(hinted)
    copy = imports.import_history(charlie, json.loads(json.dumps(history)))
    assert exports.export_history(copy) == {**history, "name": "Tuesday table"}
    rows = HintRequest.objects.filter(group=copy)
    assert rows.count() == 13
    assert {row.user_id for row in rows} == {charlie.pk}
    assert {row.input_hash for row in rows} == {IMPORTED}
    linked = Attempt.objects.filter(hint_requests__in=rows).select_related("campaign")
    assert len(linked) == 9
    assert {attempt.campaign.group_id for attempt in linked} == {copy.pk}
    assert all(row.campaign_id == row.attempt.campaign_id for row in rows if row.attempt)
    # The original's hints are untouched.
    assert HintRequest.objects.filter(group=hinted).count() == 14


def _without_ids(payload: Any) -> Any:
    """A statistics payload without the database ids of its rows (a copy has its own)."""
    if isinstance(payload, dict):
        ids = ("id", "campaign", "campaigns")
        return {k: _without_ids(v) for k, v in payload.items() if k not in ids}
    if isinstance(payload, list):
        return [_without_ids(item) for item in payload]
    return payload


def test_the_imported_groups_statistics_are_the_originals(
    hinted: Group, alice: User, api: Callable[[User], APIClient]
) -> None:
    copy = imports.import_history(alice, exports.export_history(hinted))
    client = api(alice)
    before = client.get(f"/api/groups/{hinted.pk}/statistics/?campaign=all").json()
    after = client.get(f"/api/groups/{copy.pk}/statistics/?campaign=all").json()
    # Nine hints linked to their attempts, one matched by its clock and time.
    assert before["table"]["hinted_attempts"] == before["hints"]["rated"] == 10
    assert before["table"]["slip_rate"] is not None
    assert _without_ids(after) == _without_ids(before)
    assert after["hints"] == before["hints"] and after["table"] == before["table"]


def test_a_long_history_keeps_its_hints_when_the_worker_imports_it(
    hinted: Group, alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.IMPORT_INLINE_EVENTS = 0
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    history = exports.export_history(hinted)
    job = import_jobs.start_import(alice, history)
    assert isinstance(job, HistoryImport)
    assert import_jobs.run(job.pk) == "done"
    job.refresh_from_db()
    assert job.group is not None
    assert exports.export_history(job.group)["hints"] == history["hints"]


def test_an_imported_result_is_never_another_tables_known_result(
    group: Group,
    alice: User,
    bob: User,
    charlie: User,
    ask: Callable[..., tuple[HintRequest, bool]],
    fake_result: Callable[..., HintResult],
) -> None:
    asked, _created = ask(alice)
    HintRequest.objects.filter(pk=asked.pk).update(
        group=group,
        status=HintRequest.Status.DONE,
        progress=100,
        result=result_json(fake_result(rate=0.99), "en"),
        finished_at=timezone.now(),
    )
    assert ask(bob)[0].status == HintRequest.Status.DONE  # a known result answers at once
    history = exports.export_history(group)
    imports.import_history(charlie, history)  # a file may claim any result
    HintRequest.objects.exclude(input_hash=IMPORTED).delete()
    again, created = ask(charlie)
    assert created and again.status == HintRequest.Status.QUEUED


def test_a_section_that_fails_after_the_hints_leaves_no_group_and_no_hints(
    hinted: Group, charlie: User
) -> None:
    history = exports.export_history(hinted)
    history["refusing"] = []
    saved = dict(sections._sections)

    def refuse(*args: Any) -> None:
        raise CampaignError("refused after the hints", "history")

    sections.register_section("refusing", lambda *args: [], lambda raw, history: raw, refuse)
    groups, hints = Group.objects.count(), HintRequest.objects.count()
    try:
        with pytest.raises(CampaignError, match="refused after the hints"):
            imports.import_history(charlie, history)  # the worker's way: batches, no outer atomic
    finally:
        sections._sections.clear()
        sections._sections.update(saved)
    assert (Group.objects.count(), HintRequest.objects.count()) == (groups, hints)


# --- Hostile files ----------------------------------------------------------------------


def _refused(client: APIClient, history: dict[str, Any]) -> str:
    groups, hints = Group.objects.count(), HintRequest.objects.count()
    response = client.post("/api/groups/import/", history, format="json")
    assert response.status_code == 400, response.content
    assert (Group.objects.count(), HintRequest.objects.count()) == (groups, hints)
    return " ".join(response.json()["history"])


def _linked(history: dict[str, Any]) -> dict[str, Any]:
    return next(h for h in history["hints"] if h["attempt"] is not None)


@pytest.fixture
def exported(hinted: Group) -> dict[str, Any]:
    return exports.export_history(hinted)


@pytest.fixture
def owner(charlie: User, api: Callable[[User], APIClient]) -> APIClient:
    return api(charlie)


def test_a_hint_pointing_at_attempt_9999_is_refused(
    owner: APIClient, exported: dict[str, Any]
) -> None:
    _linked(exported)["attempt"] = 9999
    assert "hints[0].attempt: Event 9999 of the hint's campaign is not an attempt." in _refused(
        owner, exported
    )


def test_a_hint_pointing_at_a_campaign_that_is_not_there_is_refused(
    owner: APIClient, exported: dict[str, Any]
) -> None:
    _linked(exported)["campaign"] = 3
    assert "hints[0].campaign: There is no campaign 3" in _refused(owner, exported)


def test_a_hint_pointing_at_a_skip_is_refused(owner: APIClient, exported: dict[str, Any]) -> None:
    exported["campaigns"][0]["history"].append({"event": "skipped", "clock": "1-10"})
    _linked(exported)["attempt"] = len(exported["campaigns"][0]["history"]) - 1
    assert "is not an attempt" in _refused(owner, exported)


@pytest.mark.parametrize(
    "result",
    [[1, 2], "plan", 42, {"pass_rate": "high"}, {"alternatives": 5}, {"alternatives": [3]}],
)
def test_a_result_that_is_not_a_results_object_is_refused(
    owner: APIClient, exported: dict[str, Any], result: Any
) -> None:
    _linked(exported)["result"] = result
    assert "hints[0].result" in _refused(owner, exported)


def test_a_huge_result_is_refused(owner: APIClient, exported: dict[str, Any]) -> None:
    _linked(exported)["result"]["words"] = "x" * 200_000
    assert "hints[0].result: The result is larger than 100000 characters." in _refused(
        owner, exported
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("face_up", 8),
        ("names", ["Ann", "Ben"]),
        ("names", ["Ann", "Ann", "Cleo", "Dirk"]),
        ("players", 5),
        ("colours", "SSM/MMS"),
        ("colours", "XYZ"),
        ("status", "queued"),
        ("definition", {"id": "1-1", "rules": "none"}),
        ("pass_curve", {"rates": [0.1, 0.0], "passes": [0.5, 0.4]}),
        ("pass_curve", {"rates": [0.0], "passes": [2.0]}),
        ("slip_rate", 0.9),
        ("asked", "yesterday"),
    ],
)
def test_a_hint_with_a_bad_field_is_refused(
    owner: APIClient, exported: dict[str, Any], field: str, value: Any
) -> None:
    _linked(exported)[field] = value
    assert f"hints[0].{field}" in _refused(owner, exported)


def test_a_finished_hint_without_its_result_is_refused(
    owner: APIClient, exported: dict[str, Any]
) -> None:
    _linked(exported)["result"] = None
    assert "hints[0].result" in _refused(owner, exported)


def test_hints_that_are_not_a_list_are_refused(owner: APIClient, exported: dict[str, Any]) -> None:
    exported["hints"] = {"0": {}}
    assert "hints" in _refused(owner, exported)


def test_the_upload_page_refuses_a_hostile_file_with_the_reason(
    exported: dict[str, Any], charlie: User, login: Callable[[User], Client]
) -> None:
    _linked(exported)["attempt"] = 9999
    upload = SimpleUploadedFile("history.json", json.dumps(exported).encode())
    groups = Group.objects.count()
    response = login(charlie).post("/groups/import/", {"history": upload}, follow=True)
    assert response.status_code == 200
    assert "is not an attempt" in response.content.decode()
    assert Group.objects.count() == groups


def test_a_hint_without_its_clock_or_not_an_object_is_refused(
    owner: APIClient, exported: dict[str, Any]
) -> None:
    del _linked(exported)["clock"]
    assert "hints[0].clock: This field is required." in _refused(owner, exported)
    exported["hints"][0] = "a hint"
    assert "hints[0]: Expected a JSON object." in _refused(owner, exported)
