"""The disk is full: a write answers 507 with a reason (the API in JSON, a page in words),
never a 500, and nothing recorded before is damaged (SQLite's integrity check).

The app's SQLite database and var/ folder live on a small tmpfs of the test's own (mounting
needs root: the test is skipped with the reason otherwise), served by gunicorn as
production runs it. A table records through the API, then a file takes the disk's last
free byte, and the table records again.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import suppress
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.ops.conftest import MAKE_TABLE, Web, manage, production_env

pytestmark = pytest.mark.integration

RECORDED_BEFORE = 3


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 64 MB tmpfs, unmounted after the test."""
    folder = Path(tempfile.mkdtemp(prefix="tk-full-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip() or 'refused'}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        folder.rmdir()


def _fill(folder: Path) -> None:
    """Take every free byte of the file system under ``folder``."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (1 << 20, 1 << 12, 1):
            with suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


class Browser:
    """A person signed in on the pages (cookies and CSRF kept as a browser keeps them)."""

    def __init__(self, web: Web) -> None:
        self.web = web
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _NoErrors()
        )

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.web.base + path, timeout=30) as response:
            return response.status, response.read().decode()

    def post(self, path: str, form: dict[str, str], csrf_from: str) -> tuple[int, str]:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', csrf_from)
        assert token is not None, csrf_from[:500]
        data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token.group(1)}).encode()
        request = urllib.request.Request(self.web.base + path, data=data)
        request.add_header("Referer", self.web.base + path)
        with self.opener.open(request, timeout=30) as response:
            return response.status, response.read().decode()


class _NoErrors(urllib.request.HTTPErrorProcessor):
    """Every status is an answer to read, not an exception."""

    def http_response(self, request, response):  # type: ignore[no-untyped-def]
        return response


def test_a_full_disk_answers_507_and_keeps_what_was_recorded(
    small_disk: Path, tmp_path: Path
) -> None:
    database = small_disk / "db.sqlite3"
    # DEBUG on: with it off, pages need the static files' manifest, which takes minutes to
    # build. The answers below come from the same middleware either way.
    env = production_env(f"sqlite:///{database}", small_disk, DEBUG="true")
    manage(env, "migrate", "--no-input", "-v", "0")
    # The table's owner also signs in on the pages: a password before the token (a new
    # password deletes the token).
    with_password = MAKE_TABLE.replace(
        'create_user("outage")', 'create_user("outage", password="a long password")'
    )
    table = json.loads(manage(env, "shell", "-v", "0", "-c", with_password))
    web = Web(env, tmp_path / "gunicorn.log")  # not on the full disk
    token, group = table["token"], table["group"]
    api = f"/api/groups/{group}"
    try:
        for n in range(RECORDED_BEFORE):
            status, _h, _b = web.call(
                f"{api}/attempts/",
                token,
                body={"clock": "1-1", "outcome": "failed", "players": 3},
                headers={"Idempotency-Key": f"before-{n}"},
            )
            assert status == 201
        person = Browser(web)
        _status, login_page = person.get("/accounts/login/")
        status, _page = person.post(
            "/accounts/login/",
            {"username": "outage", "password": "a long password"},
            csrf_from=login_page,
        )
        status, board = person.get(f"/groups/{group}/")
        assert status == 200

        _fill(small_disk)
        status, headers, body = web.call(
            f"{api}/attempts/",
            token,
            body={"clock": "1-1", "outcome": "failed", "players": 3},
            headers={"Idempotency-Key": "when-full"},
        )
        assert status == 507, body
        assert "disk is full" in body["detail"]
        key = re.search(r'name="request_key" value="([^"]*)"', board)
        status, page = person.post(
            f"/groups/{group}/record/",
            {"action": "failed", "clock": "1-1", "players": "3", "request_key": key.group(1)}
            if key
            else {"action": "failed", "clock": "1-1", "players": "3"},
            csrf_from=board,
        )
        assert status == 507, page[:500]
        assert "disk is full" in page
        # Reading still works.
        status, _h, progress = web.call(f"{api}/progress/", token)
        assert status == 200 and progress["attempts"] == RECORDED_BEFORE
    finally:
        web.stop()

    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        keys = [row[0] for row in db.execute("SELECT request_key FROM campaigns_event")]
        attempts = db.execute("SELECT count(*) FROM campaigns_attempt").fetchone()[0]
    assert sorted(keys) == [f"before-{n}" for n in range(RECORDED_BEFORE)]
    assert attempts == RECORDED_BEFORE
