"""The production shape on one machine, exercised: Caddy in front (HTTPS for DOMAIN, here
timekeeper.test with certificates from Caddy's own local authority), gunicorn with 2
workers, two Celery worker nodes with their own ``-n`` names, a separate beat, PostgreSQL
and Redis.

It sends 30 hint requests from 10 users through the API over HTTPS, via Caddy (3 each, all
different, so none is reused from another), waits for them, then checks that all 30 ended
``done``, that both nodes ran jobs (the node in each row's ``claimed_by``) and that no hint
ran twice (its ``runs``), and prints the throughput. Exit code 0 only when every check holds.

The processes run the very commands of docker-compose.yml's services (``COMMANDS``) in its
app environment (``ENVIRONMENT``; a test compares both), with these local substitutions:
``caddy``, ``celery`` and ``gunicorn`` run from this environment; gunicorn binds a free
local port; Caddy listens on free ports, proxies to that one and takes its certificate from
its internal authority; beat's schedule and the static files (built as the image builds
them) live in a temporary folder. tests/e2e/test_https_browser.py drives a browser through
the same processes.

Usage: DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… .venv/bin/python scripts/topology.py
It creates and deletes its own users (named topology-*) and their hints.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
USERS = 10
HINTS_PER_USER = 3
NODES = ("worker1", "worker2")
SCHEDULE = "/var/lib/timekeeper/celerybeat-schedule"
CADDYFILE = "/etc/caddy/Caddyfile"
DOMAIN = "timekeeper.test"

# The services' commands, exactly as docker-compose.yml has them.
COMMANDS: dict[str, list[str]] = {
    "proxy": ["caddy", "run", "--config", CADDYFILE, "--adapter", "caddyfile"],
    "migrate": ["python", "manage.py", "migrate", "--no-input"],
    "web": [
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        "0.0.0.0:8000",
        "--workers",
        "2",
        "--access-logfile",
        "-",
    ],
    **{
        node: [
            "celery",
            "-A",
            "config",
            "worker",
            "-n",
            f"{node}@%h",
            "--loglevel",
            "INFO",
            "--concurrency",
            "2",
        ]
        for node in NODES
    },
    "beat": ["celery", "-A", "config", "beat", "--loglevel", "INFO", "--schedule", SCHEDULE],
}
# docker-compose.yml's app environment, where it does not name other containers (database,
# broker and cache: this machine's DATABASE_URL and CELERY_BROKER_URL) or the proxy's
# address (here Caddy reaches gunicorn from this machine's loopback).
ENVIRONMENT: dict[str, str] = {
    "DB_CONN_MAX_AGE": "60",
    "DEBUG": "false",
    "BEHIND_TLS_PROXY": "true",
    "FORWARDED_ALLOW_IPS": "127.0.0.1",
}
SERVICES = ("beat", *NODES, "web", "proxy")

# 30 different inputs: the seats of SSMM/MMSS/SMSM in each order, and Suns and Moons
# swapped, each with 2, 3 or 4 cards face up.
SEATS = ("SSMM", "MMSS", "SMSM")
ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
SWAP = str.maketrans("SM", "MS")
COLOURS = [
    "/".join(SEATS[i] for i in order).translate(SWAP if swapped else {})
    for swapped in (False, True)
    for order in ORDERS
][:USERS]


def local(service: str, port: int, var: Path) -> list[str]:
    """A service's command as this machine runs it (see the module's docstring)."""
    args = list(COMMANDS[service])
    if args[0] in ("celery", "gunicorn"):
        args[:1] = [sys.executable, "-m", args[0]]
    elif args[0] == "python":
        args[0] = sys.executable
    elif args[0] == "caddy":
        args[0] = str(Path(sys.executable).parent / "caddy")
    if "--bind" in args:
        args[args.index("--bind") + 1] = f"127.0.0.1:{port}"
    if "--schedule" in args:
        args[args.index("--schedule") + 1] = str(var / "celerybeat-schedule")
    if "--config" in args:
        args[args.index("--config") + 1] = str(ROOT / "deploy" / "Caddyfile")
    return args


def environment(var: Path, port: int, https_port: int, http_port: int) -> dict[str, dict[str, str]]:
    """Each service's environment: compose's app environment with DOMAIN, a secret key kept
    in ``var``, and the folder for static files; Caddy's ports, upstream and data folder."""
    key = var / "secret-key"
    if not key.exists():
        key.write_text(secrets.token_urlsafe(50))
    app = {
        **os.environ,
        **ENVIRONMENT,
        "DOMAIN": DOMAIN,
        "SECRET_KEY": key.read_text(),
        "TIMEKEEPER_VAR_DIR": str(var),
    }
    proxy = {
        **os.environ,
        "DOMAIN": DOMAIN,
        "UPSTREAM": f"127.0.0.1:{port}",
        "HTTP_PORT": str(http_port),
        "HTTPS_PORT": str(https_port),
        "CADDY_ADMIN": f"127.0.0.1:{_free_port()}",
        "CADDY_CERT_ISSUER": "internal",
        "XDG_DATA_HOME": str(var / "caddy-data"),
        "XDG_CONFIG_HOME": str(var / "caddy-config"),
    }
    return {service: proxy if service == "proxy" else app for service in COMMANDS}


def root_certificate(var: Path) -> Path:
    """Caddy's local certificate authority, made at its first start in ``var``."""
    return var / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to a name (in the handshake and the Host header) served on this machine."""

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def https_request(
    var: Path,
    https_port: int,
    path: str,
    token: str = "",
    body: dict[str, object] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a request to Caddy's HTTPS port for DOMAIN, trusting
    Caddy's local authority only; a POST when there is a body."""
    context = ssl.create_default_context(cafile=str(root_certificate(var)))
    connection = _Pinned(DOMAIN, https_port, context=context, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request("GET" if data is None else "POST", path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(url: str, token: str = "", body: dict[str, object] | None = None) -> object:
    """A request straight to gunicorn, as Caddy makes it (DOMAIN, forwarded over HTTPS)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Host", DOMAIN)
    request.add_header("X-Forwarded-Proto", "https")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _wait(predicate: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with suppress(OSError, ValueError, ssl.SSLError):
            if predicate():
                return
        time.sleep(0.5)
    raise SystemExit(f"topology: {what} did not happen within {timeout:.0f} s")


@contextmanager
def running(
    var: Path,
    port: int,
    logs: IO[bytes],
    env: dict[str, str] | None = None,
    *,
    https_port: int = 0,
    http_port: int = 0,
    services: Sequence[str] = SERVICES,
    migrate: bool = True,
) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """The production shape, up until the block ends: ``migrate`` (unless told not to), the
    image's static files, then beat, both worker nodes, gunicorn on ``port`` and Caddy on
    ``https_port`` and ``http_port`` (each in a process group of its own, output to
    ``logs``), once gunicorn and Caddy answer and both nodes beat. A ``var`` used before
    keeps its static files and Caddy's local authority. ``services`` picks some
    of them; ``env`` adds to every environment. gunicorn also answers on 127.0.0.1:``port``
    as Caddy reaches it (Host DOMAIN, X-Forwarded-Proto https). The caller has run
    ``django.setup()`` on the same database. Stops them all on the way out."""
    from ops.heartbeat import live_workers

    environ = {
        service: {**values, **(env or {})}
        for service, values in environment(
            var, port, https_port or _free_port(), http_port or _free_port()
        ).items()
    }
    https_port = int(environ["proxy"]["HTTPS_PORT"])
    steps = [
        *(
            []
            if _static_fresh(var)
            else [[sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"]]
        ),
        *([local("migrate", port, var)] if migrate else []),
    ]
    for step in steps:
        done = subprocess.run(step, cwd=ROOT, env=environ["web"], stdout=logs, stderr=logs)
        if done.returncode != 0:
            raise SystemExit(f"topology: {' '.join(step[1:3])} failed; see the log")
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for service in services:
            procs[service] = subprocess.Popen(
                local(service, port, var),
                cwd=ROOT,
                env=environ[service],
                stdout=logs,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        base = f"http://127.0.0.1:{port}"
        if "web" in services:
            _wait(lambda: _request(f"{base}/healthz") is not None, 120, "gunicorn answering")
        if "proxy" in services:
            healthz = lambda: https_request(var, https_port, "/healthz")[0] == 200  # noqa: E731
            _wait(healthz, 60, "Caddy answering over HTTPS")
        nodes = [node for node in NODES if node in services]
        if nodes:
            _wait(lambda: live_workers() >= len(nodes), 180, "the worker nodes beating")
        yield procs
    finally:
        stop(procs)


def _static_fresh(var: Path) -> bool:
    """Whether ``var`` holds the static files as the image builds them (collectstatic costs
    about a minute of CPU, compressing every file), newer than every file they come from."""
    manifest = var / "static" / "staticfiles.json"
    if not manifest.exists():
        return False
    sources = [ROOT / "requirements.lock", *(ROOT / "static").rglob("*")]
    return all(path.stat().st_mtime < manifest.stat().st_mtime for path in sources)


def stop(procs: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM each process group, then SIGKILL what is still there after 30 s."""
    for proc in procs.values():
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs.values():
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _ask_hints(
    var: Path, https_port: int, tokens: list[str], timeout: float
) -> tuple[list[dict[str, Any]], list[int], float]:
    """Each user asks for ``HINTS_PER_USER`` hints at once, over HTTPS through Caddy; waits
    until all have ended."""
    from solver.models import HintRequest

    asked: list[int] = []
    errors: list[str] = []

    def ask(user: int) -> None:
        for face_up in range(2, 2 + HINTS_PER_USER):
            body = {"clock": "1-1", "colours": COLOURS[user], "face_up": face_up}
            status, _, answer = https_request(var, https_port, "/api/hints/", tokens[user], body)
            if status not in (200, 202):
                errors.append(f"user {user}: {status} {answer[:200]!r}")
                continue
            asked.append(int(json.loads(answer)["id"]))

    started = time.monotonic()
    threads = [threading.Thread(target=ask, args=(user,)) for user in range(USERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        print("refused:", *errors, sep="\n  ")
    hints = HintRequest.objects.filter(pk__in=asked)
    active = (HintRequest.Status.QUEUED, HintRequest.Status.RUNNING)
    _wait(lambda: not hints.filter(status__in=active).exists(), timeout, "all hints")
    seconds = time.monotonic() - started
    fields = ("pk", "status", "runs", "claimed_by", "failure")
    rows: list[dict[str, Any]] = [dict(row) for row in hints.values(*fields)]
    return rows, asked, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for hints")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("topology: set DATABASE_URL to a PostgreSQL database", file=sys.stderr)
        return 2
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
        print("topology: set CELERY_BROKER_URL to a Redis database", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User

    from accounts.models import ApiToken
    from solver.jobs import claimed_node
    from solver.models import HintRequest

    var = Path(tempfile.mkdtemp(prefix="topology-"))
    port, https_port = _free_port(), _free_port()
    logs = open(var / "processes.log", "wb")  # noqa: SIM115
    print(f"logs: {var / 'processes.log'}", flush=True)
    try:
        with running(var, port, logs, https_port=https_port):
            User.objects.filter(username__startswith="topology-").delete()
            tokens = [
                ApiToken.issue(User.objects.create_user(f"topology-{n}")) for n in range(USERS)
            ]
            print(
                f"running: Caddy (https://{DOMAIN}:{https_port}), gunicorn (2 workers), "
                f"{' and '.join(NODES)}, beat",
                flush=True,
            )
            rows, asked, seconds = _ask_hints(var, https_port, tokens, args.timeout)
    finally:
        logs.close()
        User.objects.filter(username__startswith="topology-").delete()

    statuses = Counter(row["status"] for row in rows)
    nodes = Counter(claimed_node(row["claimed_by"]).partition("@")[0] for row in rows)
    twice = [row["pk"] for row in rows if row["runs"] != 1]
    done = statuses.get(HintRequest.Status.DONE, 0)
    print(f"hints asked: {len(asked)} by {USERS} users; ended: {dict(statuses)}")
    print("claimed by node: " + ", ".join(f"{node} {n}" for node, n in sorted(nodes.items())))
    print(f"hints that ran more than once: {len(twice)} {twice if twice else ''}".rstrip())
    print(
        f"all {len(rows)} finished in {seconds:.1f} s from the first request: "
        f"{len(rows) / seconds * 60:.1f} hints/min"
    )
    checks = {
        f"all {USERS * HINTS_PER_USER} hints done": done == len(rows) == USERS * HINTS_PER_USER,
        "both nodes ran jobs": all(nodes.get(node, 0) > 0 for node in NODES),
        "no duplicate runs": not twice,
    }
    for check, held in checks.items():
        print(f"{'ok  ' if held else 'FAIL'} {check}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
