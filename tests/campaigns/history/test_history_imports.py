"""A long history is imported by the worker, not in the request: checked at once, stored,
replayed by the Celery task with its progress on the row, rerun from scratch after a worker
died half way, visible only to the person who started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.groups.services import create_group
from campaigns.history import exports, import_jobs, imports
from campaigns.models import Group, HistoryImport
from campaigns.play.state import campaign_state
from rules.catalogue import CLOCK_IDS

Status = HistoryImport.Status
ROOT = Path(__file__).resolve().parents[3]


def _passes(count: int) -> dict[str, Any]:
    """A history of ``count`` passed clocks, in order."""
    event = {"event": "passed", "players": 3, "session": 0, "layout": "", "opener": None}
    return {
        "format": exports.FORMAT,
        "version": exports.VERSION,
        "name": "Long table",
        "players": ["Ann", "Ben", "Cleo"],
        "transcriptions": [],
        "campaigns": [
            {
                "kind": "normal",
                "passed_at_start": [],
                "sessions": [{"date": "2026-11-30", "players": ["Ann"], "notes": ""}],
                "history": [
                    {
                        **event,
                        "clock": clock,
                        "at": f"2026-11-30T20:{i % 60:02d}:00+00:00",
                        "duration_min": 5,
                        "notes": "",
                    }
                    for i, clock in enumerate(CLOCK_IDS[:count])
                ],
            }
        ],
    }


# An import in the request, killed (SIGKILL) as its third batch begins: its process ends
# there, as a gunicorn worker killed mid-request does.
KILLED_IMPORT = """
import os, signal
from django.contrib.auth.models import User
from campaigns.history import import_jobs, imports
from tests.campaigns.history.test_history_imports import _passes
imports.IMPORT_BATCH = 2
write_event, written = imports._import_event, []
def then_killed(*args, **kwargs):
    if len(written) == 4:
        os.kill(os.getpid(), signal.SIGKILL)
    written.append(write_event(*args, **kwargs))
imports._import_event = then_killed
import_jobs.start_import(User.objects.create_user("killed"), _passes(8))
"""


@pytest.mark.slow
def test_an_inline_import_killed_part_way_leaves_no_group(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        TIMEKEEPER_VAR_DIR=str(tmp_path),
        CELERY_BROKER_URL="memory://",
        IMPORT_INLINE_EVENTS="400",
    )

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )

    assert manage("migrate", "--no-input", "-v", "0").returncode == 0
    killed = manage("shell", "-v", "0", "-c", KILLED_IMPORT)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    count = "from campaigns.models import Group; print(Group.objects.count())"
    assert manage("shell", "-v", "0", "-c", count).stdout.split() == ["0"]


@pytest.mark.django_db
def test_a_short_history_is_still_imported_in_the_request(
    api: Callable[[User], APIClient], alice: User, settings: Any
) -> None:
    settings.IMPORT_INLINE_EVENTS = 3
    response = api(alice).post("/api/groups/import/", _passes(3), format="json")
    assert response.status_code == 201
    assert response.json()["name"] == "Long table"
    assert not HistoryImport.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_a_long_history_is_stored_for_the_worker_and_nothing_is_written_yet(
    api: Callable[[User], APIClient],
    alice: User,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(import_jobs, "send", sent.append)
    with django_capture_on_commit_callbacks(execute=True):
        response = api(alice).post("/api/groups/import/", _passes(7), format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    job = HistoryImport.objects.get()
    assert response["Location"] == f"/api/imports/{job.pk}/"
    assert body["status"] == "queued" and body["events_total"] == 7 and body["group"] is None
    assert sent == [job.pk]
    assert not Group.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_an_invalid_long_history_is_refused_before_it_is_stored(
    api: Callable[[User], APIClient], alice: User
) -> None:
    history = _passes(7)
    history["players"] = [f"P{n}" for n in range(13)]
    response = api(alice).post("/api/groups/import/", history, format="json")
    assert response.status_code == 400
    assert not HistoryImport.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_the_run_reports_progress_after_each_batch_and_ends_with_the_group(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    job = import_jobs.start_import(alice, _passes(7))
    assert isinstance(job, HistoryImport)
    seen: list[int] = []
    real = imports.import_history

    def watching(*args: Any, on_progress: Callable[[int], None], **kwargs: Any) -> Group:
        def report(done: int) -> None:
            on_progress(done)
            seen.append(HistoryImport.objects.get(pk=job.pk).events_done)

        return real(*args, on_progress=report, **kwargs)

    monkeypatch.setattr(imports, "import_history", watching)
    assert import_jobs.run(job.pk) == Status.DONE
    assert seen == [2, 4, 6, 7]
    job.refresh_from_db()
    assert job.status == Status.DONE and job.percent == 100 and job.history is None
    assert job.group is not None
    assert job.group.memberships.get().user == alice
    assert (
        exports.export_history(job.group)["campaigns"][0]["history"]
        == (_passes(7)["campaigns"][0]["history"])
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_a_refused_event_fails_the_import_with_its_reason_and_keeps_nothing(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    history = _passes(7)
    history["campaigns"][0]["history"][6]["clock"] = "9-4"  # not the next clock
    job = import_jobs.start_import(alice, history)
    assert isinstance(job, HistoryImport)
    assert import_jobs.run(job.pk) == Status.FAILED
    job.refresh_from_db()
    assert job.status == Status.FAILED and "9-4" in job.error
    assert job.group is None and job.history is None
    assert not Group.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_a_rerun_after_a_dead_worker_starts_over_and_leaves_one_group(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    job = import_jobs.start_import(alice, _passes(7))
    # What a worker killed half way leaves: a hidden group, a row that stopped moving.
    half = create_group(alice, "Long table", ["Ann"], first_campaign=False)
    half.memberships.all().delete()
    HistoryImport.objects.filter(pk=job.pk).update(status=Status.RUNNING, group=half, events_done=4)
    assert import_jobs.run(job.pk) == "skipped"  # a second delivery while it still moves
    HistoryImport.objects.filter(pk=job.pk).update(updated=timezone.now() - timedelta(minutes=2))
    assert import_jobs.run(job.pk) == Status.DONE
    assert not Group.objects.filter(pk=half.pk).exists()
    assert Group.objects.get().memberships.get().user == alice


class Killed(BaseException):
    """The worker's process dying (not an error the import could catch)."""


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_a_worker_killed_right_after_the_group_is_shown_leaves_one_group(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The narrow window: the owner's membership committed, then the process dies before
    anything else. The import is finished all the same, and a rerun builds no second group."""
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    job = import_jobs.start_import(alice, _passes(7))
    assert isinstance(job, HistoryImport)
    real = imports.import_history

    def then_killed(*args: Any, **kwargs: Any) -> Group:
        real(*args, **kwargs)
        raise Killed()

    monkeypatch.setattr(imports, "import_history", then_killed)
    with pytest.raises(Killed):
        import_jobs.run(job.pk)
    monkeypatch.setattr(imports, "import_history", real)
    job.refresh_from_db()
    assert job.status == Status.DONE and job.group == Group.objects.get()
    # Beat's resend, even once the row looks stalled: nothing more.
    HistoryImport.objects.filter(pk=job.pk).update(updated=timezone.now() - timedelta(minutes=2))
    import_jobs.resume_stalled()
    assert import_jobs.run(job.pk) == "skipped"
    assert Group.objects.count() == 1 and Group.objects.get().memberships.get().user == alice


@pytest.mark.django_db
def test_a_rerun_finds_a_group_already_shown_and_builds_no_other(alice: User) -> None:
    """A row that says running although its group is finished (left before the fix)."""
    job = HistoryImport.objects.create(owner=alice, history=_passes(2), events_total=2)
    group = create_group(alice, "Long table", ["Ann"], first_campaign=False)
    HistoryImport.objects.filter(pk=job.pk).update(group=group)
    assert import_jobs.run(job.pk) == Status.DONE
    assert list(Group.objects.all()) == [group]
    job.refresh_from_db()
    assert job.status == Status.DONE and job.group == group


@pytest.mark.django_db
def test_a_rerun_never_deletes_a_group_that_has_members(alice: User) -> None:
    group = create_group(alice, "Someone's table", ["Ann"])
    job = HistoryImport.objects.create(owner=alice, history=_passes(2), events_total=2)
    HistoryImport.objects.filter(pk=job.pk).update(group=group)
    import_jobs.run(job.pk)
    assert Group.objects.filter(pk=group.pk).exists()


@pytest.mark.django_db
def test_only_stalled_imports_are_sent_again(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[int] = []

    def send(job_id: int) -> bool:
        sent.append(job_id)
        return True

    monkeypatch.setattr(import_jobs, "send", send)
    old = timezone.now() - timedelta(minutes=2)
    rows = {
        status + suffix: HistoryImport.objects.create(owner=alice, status=status, events_total=9)
        for status, suffix in [
            (Status.QUEUED, " old"),
            (Status.RUNNING, " old"),
            (Status.RUNNING, " fresh"),
            (Status.DONE, " old"),
            (Status.FAILED, " old"),
        ]
    }
    for name, row in rows.items():
        if name.endswith("old"):
            HistoryImport.objects.filter(pk=row.pk).update(updated=old)
    assert import_jobs.resume_stalled() == 2
    assert sorted(sent) == sorted([rows["queued old"].pk, rows["running old"].pk])


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_at_most_two_imports_wait_at_once(
    api: Callable[[User], APIClient], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    client = api(alice)
    for _ in range(2):
        assert client.post("/api/groups/import/", _passes(7), format="json").status_code == 202
    response = client.post("/api/groups/import/", _passes(7), format="json")
    assert response.status_code == 429
    assert "2 imports under way" in response.json()["detail"]
    assert HistoryImport.objects.count() == 2


@pytest.mark.django_db
def test_an_import_is_seen_only_by_the_person_who_started_it(
    api: Callable[[User], APIClient], alice: User, bob: User, login: Callable[[User], Client]
) -> None:
    job = HistoryImport.objects.create(owner=alice, history=_passes(7), events_total=7)
    assert api(alice).get(f"/api/imports/{job.pk}/").status_code == 200
    assert api(bob).get(f"/api/imports/{job.pk}/").status_code == 404
    assert APIClient().get(f"/api/imports/{job.pk}/").status_code in (401, 403)
    assert login(alice).get(f"/imports/{job.pk}/").status_code == 200
    assert login(bob).get(f"/imports/{job.pk}/").status_code == 404
    assert Client().get(f"/imports/{job.pk}/").status_code == 302  # to the log-in page


@pytest.mark.django_db
@pytest.mark.usefixtures("long_imports")
def test_the_page_upload_shows_progress_then_the_group(
    alice: User, login: Callable[[User], Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    monkeypatch.setattr(import_jobs, "send", lambda job_id: True)
    client = login(alice)
    upload = SimpleUploadedFile("history.json", json.dumps(_passes(7)).encode())
    response = client.post("/groups/import/", {"history": upload})
    job = HistoryImport.objects.get()
    assert response["Location"] == f"/imports/{job.pk}/"
    page = client.get(f"/imports/{job.pk}/").content.decode()
    assert "0 of 7 attempts and skips are in (0%)." in page
    assert 'hx-trigger="every 2s"' in page
    assert "next in line" in page and "Waiting for the worker" not in page
    import_jobs.run(job.pk)
    job.refresh_from_db()
    polled = client.get(f"/imports/{job.pk}/", headers={"HX-Request": "true"})
    assert polled["HX-Redirect"] == f"/groups/{job.group_id}/"
    assert client.get(f"/imports/{job.pk}/")["Location"] == f"/groups/{job.group_id}/"


@pytest.mark.django_db
def test_a_failed_import_page_says_why_and_stops_polling(
    alice: User, login: Callable[[User], Client]
) -> None:
    job = HistoryImport.objects.create(
        owner=alice, status=Status.FAILED, error="The clock 9-4 is not the next one."
    )
    client = login(alice)
    page = client.get(f"/imports/{job.pk}/").content.decode()
    assert "The import stopped: The clock 9-4 is not the next one." in page
    assert "every 2s" not in page
    polled = client.get(f"/imports/{job.pk}/", headers={"HX-Request": "true"})
    assert polled.status_code == 286  # htmx: stop polling


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("long_imports")
def test_a_real_worker_imports_a_long_history(
    api: Callable[[User], APIClient], alice: User, celery_worker: Any
) -> None:
    client = api(alice)
    response = client.post("/api/groups/import/", _passes(9), format="json")
    assert response.status_code == 202
    deadline = time.monotonic() + 60
    while (body := client.get(response["Location"]).json())["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, body
        time.sleep(0.2)
    assert body["status"] == "done" and body["events_done"] == 9 and body["percent"] == 100
    group = Group.objects.get(pk=body["group"])
    assert group.memberships.get().user == alice
    assert campaign_state(group.current_campaign()).next_clock == CLOCK_IDS[9]
