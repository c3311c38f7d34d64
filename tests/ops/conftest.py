"""Servers an outage test owns: a PostgreSQL cluster of its own in a temporary folder (which
it may stop and start without harming CI's shared server), and gunicorn serving the app on
it, as production runs it (DEBUG off, a database connection kept per process)."""

from __future__ import annotations

import glob
import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_bin() -> Path | None:
    """The folder of initdb, pg_ctl, pg_dump and psql: Debian's newest, or the PATH's."""
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4])
    )
    if versions:
        return Path(versions[-1]).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class PostgresCluster:
    """``initdb`` in a temporary folder, on a free port, trusting local connections. As root
    (PostgreSQL refuses to run as root) its commands run as the ``postgres`` account."""

    def __init__(self) -> None:
        bindir = _postgres_bin()
        if bindir is None:
            pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
        self.bin = bindir
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root, and there is no postgres account to run a server")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.folder = Path(tempfile.mkdtemp(prefix="tk-pg-"))
        self.data = self.folder / "data"
        if self.as_user:
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"
        )

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        """A fast shutdown: open connections are cut, as in a restart."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with suppress(AssertionError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server of this test's own, started; removed after the test."""
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


def copy_test_database(cluster: PostgresCluster) -> None:
    """The test database's schema and rows (its migrations applied) into ``cluster``'s
    ``postgres`` database: much faster than migrating it again."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): the test copies its database")
    params = connection.get_connection_params()
    env = {**os.environ, "PGPASSWORD": str(params.get("password") or "")}
    source = [
        str(cluster.bin / "pg_dump"),
        "--no-owner",
        "--no-privileges",
        "-h",
        str(params.get("host") or "127.0.0.1"),
        "-p",
        str(params.get("port") or 5432),
        "-U",
        str(params.get("user") or "postgres"),
        str(params["dbname"]),
    ]
    dump = subprocess.run(source, env=env, capture_output=True, timeout=120)
    assert dump.returncode == 0, dump.stderr
    target = [str(cluster.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", cluster.url]
    load = subprocess.run(target, input=dump.stdout, capture_output=True, timeout=120)
    assert load.returncode == 0, load.stderr


def production_env(database_url: str, var: Path, **extra: str) -> dict[str, str]:
    """The app's environment as production sets it, on ``database_url``, with plain HTTP on
    127.0.0.1 (no TLS proxy in front) and nothing of the test's own settings."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))},
        "DATABASE_URL": database_url,
        "TIMEKEEPER_VAR_DIR": str(var),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DB_CONN_MAX_AGE": "60",
        **extra,
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


# A table: an owner with an API token and a group of three players, printed as JSON.
MAKE_TABLE = """
import json
from django.contrib.auth.models import User
from accounts.models import ApiToken
from campaigns.groups.services import create_group
user = User.objects.create_user("outage")
group = create_group(user, "Outage table", ["Ann", "Ben", "Cleo"])
print(json.dumps({"token": ApiToken.issue(user), "group": group.pk}))
"""


class Web:
    """gunicorn (2 workers) serving the app with ``env``; ``call`` makes one request."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
            + ["--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--timeout", "60"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            with suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            assert self.proc.poll() is None, "gunicorn stopped"
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)

    def call(
        self,
        path: str,
        token: str,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """(status, headers, JSON body or text); a POST when there is a body."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method="GET" if body is None else "POST"
        )
        request.add_header("Authorization", f"Token {token}")
        request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
                answer_headers = dict(response.headers)
        except urllib.error.HTTPError as error:
            status, answer_headers, raw = error.code, dict(error.headers), error.read()
        try:
            return status, answer_headers, json.loads(raw or b"null")
        except ValueError:
            return status, answer_headers, raw.decode(errors="replace")

    def stop(self) -> None:
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, 9)
        self.proc.wait()
        self.log.close()
