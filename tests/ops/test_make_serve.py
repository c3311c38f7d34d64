"""`make serve` (scripts/serve.py) as a person runs it on a laptop at the table: SQLite and
the embedded broker in a var folder of its own, reached on a non-loopback address of this
machine over HTTP and over HTTPS (Caddy, its local CA trusted by this client).

Each test waits with a bound (minutes at most): these are subprocesses on a shared machine,
so the bounds are generous and never a speed claim.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate: Callable[[], Any], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with suppress(OSError, ValueError, urllib.error.URLError):
            if predicate():
                return True
        time.sleep(0.25)
    return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class MakeServe:
    var: Path
    env: dict[str, str]
    port: int
    https_port: int
    proc: subprocess.Popen[str] | None = None
    lines: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None

    def start(self) -> None:
        self.lines.clear()
        self.proc = subprocess.Popen(
            [sys.executable, "scripts/serve.py"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        proc = self.proc

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.lines.append(line.rstrip())

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        assert wait_for(lambda: self.status(self.http("/healthz")) == 200, 300), self.tail()
        assert wait_for(lambda: self.status(self.https("/healthz")) == 200, 120), self.tail()

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for pid in self.pids():  # whatever serve.py left behind
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        if self.reader is not None:
            self.reader.join(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None

    def tail(self) -> str:
        return "\n".join(self.lines[-40:])

    def pids(self) -> list[int]:
        found = (re.match(r"\[run\] started \w+ \(pid (\d+)\)", line) for line in self.lines)
        return [int(match.group(1)) for match in found if match]

    @property
    def address(self) -> str:
        """The first address serve.py printed: a non-loopback address of this machine."""
        for line in self.lines:
            match = re.match(r"\[serve\]\s+http://(\S+?):(\d+)/", line)
            if match:
                return match.group(1)
        raise ValueError("no address printed yet:\n" + self.tail())

    def http(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    def https(self, path: str) -> str:
        return f"https://{self.address}:{self.https_port}{path}"

    def tls(self) -> ssl.SSLContext:
        ca = self.var / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        return ssl.create_default_context(cafile=str(ca))

    def status(self, url: str) -> int:
        try:
            with urllib.request.urlopen(url, timeout=10, context=self.context(url)) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            error.close()
            return int(error.code)

    def context(self, url: str) -> ssl.SSLContext | None:
        return self.tls() if url.startswith("https://") else None

    def browser(self) -> Browser:
        return Browser(self)


class Browser:
    """A cookie jar and the forms of Django's pages, as a phone's browser would use them."""

    def __init__(self, serve: MakeServe) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar),
            urllib.request.HTTPSHandler(context=serve.tls()),
        )

    def get(self, url: str) -> tuple[int, str, str]:
        """Status, final URL (after redirects) and body."""
        try:
            with self.opener.open(url, timeout=20) as response:
                return int(response.status), response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            error.close()
            return int(error.code), url, body

    def post_form(self, url: str, data: dict[str, str]) -> tuple[int, str, str]:
        _, _, page = self.get(url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page[:2000]
        form = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token.group(1)}).encode()
        origin = "/".join(url.split("/")[:3])
        request = urllib.request.Request(url, data=form, headers={"Origin": origin})
        try:
            with self.opener.open(request, timeout=20) as response:
                return int(response.status), response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            body = error.read().decode()
            error.close()
            return int(error.code), url, body


@pytest.fixture(scope="module")
def make_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MakeServe]:
    var = tmp_path_factory.mktemp("make-serve") / "var"
    # As on a clean clone: no database, broker or settings named.
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "HINT_HOLD_FILE",
            "CI",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "CSRF_TRUSTED_ORIGINS",
            "HOST",
        )
    }
    serve = MakeServe(var, env, free_port(), free_port())
    env.update(
        TIMEKEEPER_VAR_DIR=str(var),
        PORT=str(serve.port),
        HTTPS_PORT=str(serve.https_port),
        PYTHONUNBUFFERED="1",
    )
    serve.start()
    try:
        yield serve
    finally:
        serve.stop()
        print("\n".join(line for line in serve.lines if line.startswith(("[run]", "[serve]"))))


def make_token(serve: MakeServe, username: str) -> str:
    code = (
        "from django.contrib.auth.models import User;"
        "from accounts.models import ApiToken;"
        f"print(ApiToken.issue(User.objects.create_user({username!r})))"
    )
    env = {**serve.env, "DEBUG": "true"}  # the same database under var/, read by a shell
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()[-1]


def api(serve: MakeServe, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(serve.https(path), data=data)
    request.add_header("Authorization", f"Token {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=20, context=serve.tls()) as response:
        return json.loads(response.read())


def test_a_hint_asked_right_after_start_completes(make_serve: MakeServe) -> None:
    # The web answered a moment ago; the worker may still be warming the solver up.
    token = make_token(make_serve, "first-hint")
    body = {"clock": "1-1", "colours": "SSMM/MMSS/SMSM", "face_up": 3}
    hint = api(make_serve, "/api/hints/", token, body)
    assert hint["status"] in ("queued", "running", "done")

    def done() -> bool:
        hint.update(api(make_serve, f"/api/hints/{hint['id']}/", token))
        return hint["status"] not in ("queued", "running")

    assert wait_for(done, timeout=600), hint["status"]
    assert hint["status"] == "done", hint


def test_it_answers_on_a_non_loopback_address_over_http_and_https(
    make_serve: MakeServe,
) -> None:
    address = make_serve.address.strip("[]")
    import ipaddress

    assert not ipaddress.ip_address(address).is_loopback
    assert make_serve.status(make_serve.http("/accounts/login/")) == 200
    assert make_serve.status(make_serve.https("/accounts/login/")) == 200
    # Every address printed answers on both ports, with a certificate for it.
    printed = [re.match(r"\[serve\]\s+http://(\S+?):\d+/", line) for line in make_serve.lines]
    hosts = [m.group(1) for m in printed if m and not m.group(1).endswith(".local")]
    for host in hosts:
        if re.match(r"^[\d.\[\]:a-f]+$", host):  # addresses (names may not resolve here)
            assert make_serve.status(f"http://{host}:{make_serve.port}/healthz") == 200
            assert make_serve.status(f"https://{host}:{make_serve.https_port}/healthz") == 200


def test_debug_is_off_an_unknown_url_shows_the_plain_404_page(make_serve: MakeServe) -> None:
    for url in (make_serve.http("/no-such-page/"), make_serve.https("/no-such-page/")):
        status, _, body = make_serve.browser().get(url)
        assert status == 404
        assert "<title>Not found" in body
        for leak in ("Traceback", "URLconf", "DEBUG", "SECRET_KEY", "Using the URLconf"):
            assert leak not in body


def test_a_foreign_host_name_is_refused(make_serve: MakeServe) -> None:
    request = urllib.request.Request(make_serve.http("/accounts/login/"))
    request.add_header("Host", "evil.example")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    refused.value.close()
    assert refused.value.code == 400


def test_the_plain_http_port_cannot_claim_to_be_https(make_serve: MakeServe) -> None:
    request = urllib.request.Request(make_serve.http("/trust/"))
    request.add_header("X-Forwarded-Proto", "https")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert "This connection is already secure" not in response.read().decode()
    _, _, over_https = make_serve.browser().get(make_serve.https("/trust/"))
    assert "This connection is already secure" in over_https


def test_the_trust_page_offers_the_ca_that_signed_the_https_certificate(
    make_serve: MakeServe,
) -> None:
    browser = make_serve.browser()
    status, _, page = browser.get(make_serve.http("/trust/"))
    assert status == 200 and f"https://{make_serve.address}:{make_serve.https_port}/" in page
    status, _, pem = browser.get(make_serve.http("/trust/timekeeper-ca.crt"))
    assert status == 200 and pem.startswith("-----BEGIN CERTIFICATE-----")
    # A client that trusts only the downloaded certificate reaches the HTTPS address.
    context = ssl.create_default_context(cadata=pem)
    with urllib.request.urlopen(make_serve.https("/healthz"), context=context) as response:
        assert response.status == 200


def test_a_password_reset_mail_is_printed_not_a_500(make_serve: MakeServe) -> None:
    code = (
        "from django.contrib.auth.models import User;"
        "User.objects.create_user("
        "'forgetful', email='forgetful@example.org', password='x-9-long-pass')"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**make_serve.env, "DEBUG": "true"},
        check=True,
    )
    browser = make_serve.browser()
    status, landed, _ = browser.post_form(
        make_serve.http("/accounts/password_reset/"), {"email": "forgetful@example.org"}
    )
    assert status == 200 and landed.endswith("/accounts/password_reset/done/")
    assert wait_for(lambda: any("forgetful" in line for line in make_serve.lines), 30)


def test_log_in_works_over_http_and_https_and_the_session_survives_a_restart(
    make_serve: MakeServe,
) -> None:
    make_token(make_serve, "at-the-table")  # a user; the password is set below
    code = (
        "from django.contrib.auth.models import User;"
        "u=User.objects.get(username='at-the-table');u.set_password('tick-tock-4-players');u.save()"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env={**make_serve.env, "DEBUG": "true"},
        check=True,
    )
    credentials = {"username": "at-the-table", "password": "tick-tock-4-players"}
    browsers = {}
    for scheme, url in (("http", make_serve.http), ("https", make_serve.https)):
        browser = make_serve.browser()
        status, landed, _ = browser.post_form(url("/accounts/login/"), credentials)
        assert status == 200 and "/accounts/login/" not in landed, (scheme, landed)
        status, landed, page = browser.get(url("/"))
        assert status == 200 and "at-the-table" in page, (scheme, landed)
        browsers[scheme] = (browser, url)
    make_serve.stop()
    make_serve.start()
    for scheme, (browser, url) in browsers.items():
        status, landed, page = browser.get(url("/"))
        assert status == 200 and "/accounts/login/" not in landed, (scheme, landed)
        assert "at-the-table" in page


def _alive(pid: int) -> bool:
    """Is the process running (not gone, not a zombie left to a container's init)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _processes_of(groups: list[int]) -> list[int]:
    """Every process in these process groups (the children serve.py started, each the
    leader of its own group, with their pool processes and workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                if int(fields[2]) in groups:
                    found.append(int(entry.name))
    return found


def test_ctrl_c_during_a_prefill_slice_stops_every_process_in_time(
    make_serve: MakeServe,
) -> None:
    """Ctrl-C while the beat's prefill slice runs: the slice gives way (the worker's stop
    flag), every child exits by itself within the run script's stop timeout — none is
    killed, which serve.py's exit status says (run.KILLED_AT_STOP) — and nothing is left."""
    slice_id: list[str] = []

    def slice_running() -> bool:
        text = "\n".join(make_serve.lines)
        started = re.findall(r"Task solver\.prefill_plan_book\[([\w-]+)\] received", text)
        running = [task for task in started if f"prefill_plan_book[{task}] succeeded" not in text]
        slice_id[:] = running[-1:]
        return bool(running)

    # The beat sends a slice every PREFILL_EVERY (2 min); a fresh book has patterns to fill.
    assert wait_for(slice_running, 400), make_serve.tail()
    time.sleep(2)  # into its search
    assert make_serve.proc is not None
    groups = make_serve.pids()
    processes = _processes_of(groups)
    assert len(processes) > len(groups)  # the pool processes and web workers too
    make_serve.proc.send_signal(signal.SIGINT)  # Ctrl-C (its children have groups of their own)
    code = make_serve.proc.wait(timeout=120)
    left = [pid for pid in processes if _alive(pid)]
    make_serve.stop()  # its output read to the end; nothing to stop any more
    text = "\n".join(make_serve.lines)
    make_serve.start()  # for the module's other tests
    run = runpy_run_script()
    assert code != run["KILLED_AT_STOP"], "a child did not stop in time and was killed"
    assert code == 0 and not left, (code, left)
    assert re.search(
        rf"prefill_plan_book\[{slice_id[0]}\] succeeded .*the worker is stopping", text
    ), text[-3000:]


def runpy_run_script() -> dict[str, Any]:
    import runpy

    return runpy.run_path(str(ROOT / "scripts" / "run.py"), run_name="run_script")


def test_behind_caddy_the_caller_is_the_phone_not_the_socket() -> None:
    from config.wsgi import unix_socket_peer

    through_caddy = {"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 192.0.2.7"}
    unix_socket_peer(through_caddy)
    assert through_caddy["REMOTE_ADDR"] == "192.0.2.7"
    direct = {"REMOTE_ADDR": "192.0.2.9", "HTTP_X_FORWARDED_FOR": "6.6.6.6"}
    unix_socket_peer(direct)  # a TCP peer keeps its own address, whatever it claims
    assert direct["REMOTE_ADDR"] == "192.0.2.9"
