"""Schemathesis against a live server: every operation of /api/schema/, called with a real
token on real data, must answer what its schema says (status code and body) and never 5xx.

The run is bounded (MAX_SECONDS of generation, deterministic seed). The schema is taken from
the live server, so every operation on main is covered, and the path parameters get the
fixture's ids as examples so that group and hint operations are exercised beyond 404.
Every string in a generated body may carry a lone surrogate, NUL or a noncharacter
(schemathesis_hooks.py). The stateful phase follows links added to the served schema
(``_with_stateful_links``): record at the clock the progress names, undo the change the
progress names as the last, undo it again, record after an undo, redo the undo the progress
names as the last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User

from accounts.models import ApiToken
from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Attempt, Group, Membership
from campaigns.play.services import record_attempt
from solver import services as hint_services
from solver.hint_inputs import parse_input

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_SECONDS = 100  # the whole run, with start-up, stays under 3 minutes
HOOKS = "schemathesis_hooks.py"
CHECKS = "not_a_server_error,status_code_conformance,response_schema_conformance"


@pytest.fixture
def fuzz_ids(alice: User, bob: User, dave: User, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Alice's group with a history, a member and a viewer to manage, a session, a
    transcription and a hint: the ids the fuzzer's requests name."""
    # Hints stay queued: no job message is left in the broker for the tests that run a
    # worker later (the live server runs in this process, so this holds for it too).
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    group: Group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    member = Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    Membership.objects.create(group=group, user=dave, role=Membership.Role.VIEWER)
    campaign = group.current_campaign()
    session = fill_in_session(campaign, list(group.players.all()), None, "")
    record_attempt(campaign, alice, "1-1", Attempt.Outcome.FAILED, 3, session=session)
    transcribe(group, "1-2", {"start": 1, "cap": 24, "rules": []}, alice)
    hint, _created = hint_services.request_hint(
        alice,
        parse_input("1-1", "SSMM/MMSS/SMSM", None, False, group),
        group=group,
        campaign=campaign,
        lang="en",
    )
    return {
        "token": ApiToken.issue(alice),
        "examples": {
            "group_id": group.pk,
            "member_id": member.pk,
            "session_id": session.pk,
            "hint_id": hint.pk,
            "clock_id": "1-1",
        },
    }


def _with_examples(schema: dict[str, Any], examples: dict[str, Any]) -> dict[str, Any]:
    for operations in schema["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in examples:
                    parameter["example"] = examples[parameter["name"]]
    return schema


# The stateful phase: links that let schemathesis play a table's sequence on real state —
# record at the clock the progress names, read the progress, undo the change it names as the
# last (its version), undo the same change again, record again after an undo, redo the undo
# the progress names as the last (right after an undo, the version is the undo's id).
GROUP = "/api/groups/{group_id}/"
IN_GROUP = {"group_id": "$request.path.group_id"}


def _with_stateful_links(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI links between attempts, progress, undo and redo, added to the served schema."""
    paths = schema["paths"]
    operation_id = {
        name: paths[GROUP + path][method]["operationId"]
        for name, (path, method) in {
            "record": ("attempts/", "post"),
            "progress": ("progress/", "get"),
            "undo": ("undo/", "post"),
            "redo": ("redo/", "post"),
        }.items()
    }

    def link(source: tuple[str, str, str], links: dict[str, dict[str, Any]]) -> None:
        path, method, code = source
        response = paths[GROUP + path][method]["responses"][code]
        response.setdefault("links", {}).update(links)

    progress = {"operationId": operation_id["progress"], "parameters": IN_GROUP}
    link(("attempts/", "post", "201"), {"Progress": progress})
    link(("undo/", "post", "200"), {"Progress": progress})
    link(("redo/", "post", "200"), {"Progress": progress})
    link(
        ("progress/", "get", "200"),
        {
            "UndoTheLastChange": {
                "operationId": operation_id["undo"],
                "parameters": IN_GROUP,
                "requestBody": {
                    "event": "$response.body#/version",
                    "expected_event": "$response.body#/version",
                },
            },
            "RedoTheLastUndo": {
                "operationId": operation_id["redo"],
                "parameters": IN_GROUP,
                "requestBody": {
                    "event": "$response.body#/version",
                    "expected_event": "$response.body#/version",
                },
            },
            "RecordAtTheNextClock": {
                "operationId": operation_id["record"],
                "parameters": IN_GROUP,
                "requestBody": {
                    "clock": "$response.body#/clock",
                    "outcome": "failed",
                    "players": 3,
                    "expected_event": "$response.body#/version",
                },
            },
        },
    )
    link(
        ("undo/", "post", "200"),
        {
            "UndoItAgain": {
                "operationId": operation_id["undo"],
                "parameters": IN_GROUP,
                "requestBody": {"event": "$response.body#/id"},
            }
        },
    )
    return schema


def test_every_operation_answers_as_its_schema_says(
    live_server: Any, fuzz_ids: dict[str, Any], tmp_path: Path, settings: Any
) -> None:
    # Thousands of requests with one token in a couple of minutes: the per-user throttle
    # (tested on its own in tests/accounts/test_throttles.py) must not answer them.
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "user": "100000/minute"}
    headers = {"Authorization": f"Token {fuzz_ids['token']}"}
    schema = requests.get(f"{live_server.url}/api/schema/?format=json", headers=headers, timeout=30)
    assert schema.status_code == 200
    schema_file = tmp_path / "openapi.json"
    served = _with_stateful_links(_with_examples(schema.json(), fuzz_ids["examples"]))
    schema_file.write_text(json.dumps(served))
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("st")),
            "--no-color",
            "run",
            str(schema_file),
            "--url",
            live_server.url,
            "--header",
            f"Authorization: Token {fuzz_ids['token']}",
            "--checks",
            CHECKS,
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--max-time",
            str(MAX_SECONDS),
            "--workers",
            "1",
            # A shared 2-core machine can take more than the default 10 s for the first
            # answer that loads the solver's kernels (the layout postmortem).
            "--request-timeout",
            "60",
            "--seed",
            "1",
            "--generation-deterministic",
        ],
        capture_output=True,
        text=True,
        timeout=MAX_SECONDS + 60,
        cwd=tmp_path,
        # Lone surrogates, NUL and noncharacters in the bodies' strings.
        env={**os.environ, "SCHEMATHESIS_HOOKS": str(Path(__file__).with_name(HOOKS))},
    )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
