"""The "Trust this server" page (/trust/) and make serve's CA certificate download; the
invite QR codes on the members page and in table mode."""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups import services
from campaigns.models import Membership
from ops.fingerprint import grouped_sha256, valid_years

pytestmark = pytest.mark.django_db

DER = b"0\x82\x01\x0a not a real certificate, but PEM all the same"
PEM = (
    "-----BEGIN CERTIFICATE-----\n"
    + base64.encodebytes(DER).decode()
    + "-----END CERTIFICATE-----\n"
)


@pytest.fixture
def ca(settings: Any, tmp_path: Path) -> Path:
    path = tmp_path / "root.crt"
    path.write_text(PEM)
    settings.LOCAL_CA_CERT = path
    return path


def test_without_a_local_ca_the_page_says_so_and_offers_no_download(client: Client) -> None:
    page = client.get("/trust/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "no certificate of its own" in html
    assert "/trust/timekeeper-ca.crt" not in html
    assert client.get("/trust/timekeeper-ca.crt").status_code == 404


def test_the_page_offers_the_certificate_and_the_https_address_as_a_qr_code(
    client: Client, ca: Path, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["192.0.2.2", "[fd00::2]"]
    settings.HTTPS_PORT = 8443
    html = client.get("/trust/", headers={"Host": "192.0.2.2:8000"}).content.decode()
    assert 'href="/trust/timekeeper-ca.crt"' in html
    assert 'href="https://192.0.2.2:8443/"' in html
    svg = re.search(r"<svg[^>]*class=\"qr\".*?</svg>", html, re.S)
    assert svg is not None and "style" not in svg.group(0)  # CSP: no inline style
    fingerprint = hashlib.sha256(DER).hexdigest().upper()
    assert ":".join(fingerprint[i : i + 2] for i in range(0, 64, 2)) in html
    assert "Android" in html and "Certificate Trust Settings" in html
    # An IPv6 host keeps its brackets.
    html = client.get("/trust/", headers={"Host": "[fd00::2]:8000"}).content.decode()
    assert 'href="https://[fd00::2]:8443/"' in html


def test_the_certificate_downloads_as_a_ca_file(client: Client, ca: Path) -> None:
    response = client.get("/trust/timekeeper-ca.crt")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-x509-ca-cert"
    assert 'filename="timekeeper-ca.crt"' in response["Content-Disposition"]
    assert response.content.decode() == PEM


def test_a_file_that_is_no_certificate_is_not_offered(
    client: Client, settings: Any, tmp_path: Path
) -> None:
    path = tmp_path / "root.crt"
    path.write_bytes(b"\xff\xfe garbage")
    settings.LOCAL_CA_CERT = path
    assert client.get("/trust/timekeeper-ca.crt").status_code == 404
    assert client.get("/trust/").status_code == 200


@pytest.mark.parametrize(
    ("lang", "title", "step"),
    [
        ("en", "Trust this server", "Download the certificate"),
        ("nl", "Deze server vertrouwen", "Certificaat downloaden"),
        ("ja", "このサーバーを信頼する", "証明書をダウンロード"),
    ],
)
def test_the_page_speaks_three_languages(
    client: Client, ca: Path, lang: str, title: str, step: str
) -> None:
    client.cookies["django_language"] = lang
    html = client.get("/trust/").content.decode()
    assert f"<h1>{title}</h1>" in html
    assert step in html


def test_over_https_the_page_says_the_connection_is_already_secure(
    client: Client, ca: Path
) -> None:
    html = client.get("/trust/", secure=True).content.decode()
    assert "This connection is already secure" in html
    assert 'href="https://testserver/"' in html


def test_the_members_page_links_the_trust_page_and_shows_the_invite_as_a_qr_code(
    login: Callable[[User], Client], alice: User, bob: User
) -> None:
    group = services.create_group(alice, "Tuesday table", ["Ann", "Ben"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    html = login(alice).get(f"/groups/{group.pk}/members/").content.decode()
    assert 'href="/trust/"' in html
    assert re.search(r'<figure class="invite-qr">\s*<svg[^>]*class="qr"', html)
    # A member sees no invite, so no QR code either; the trust link stays.
    html = login(bob).get(f"/groups/{group.pk}/members/").content.decode()
    assert 'href="/trust/"' in html and 'class="invite-qr"' not in html


def test_table_mode_has_the_invite_qr_behind_invite_someone_for_owners(
    login: Callable[[User], Client], alice: User, bob: User
) -> None:
    group = services.create_group(alice, "Tuesday table", ["Ann", "Ben"])
    Membership.objects.create(group=group, user=bob, role=Membership.Role.MEMBER)
    html = login(alice).get(f"/groups/{group.pk}/table/").content.decode()
    assert "<summary>Invite someone</summary>" in html
    assert re.search(r'<details class="card table-invite">.*<svg[^>]*class="qr"', html, re.S)
    assert "Invite someone" not in login(bob).get(f"/groups/{group.pk}/table/").content.decode()


def test_cross_origin_opener_policy_is_sent_over_https_only(client: Client) -> None:
    # Over plain HTTP a browser ignores it and logs an error on every page.
    assert "Cross-Origin-Opener-Policy" not in client.get("/trust/").headers
    assert client.get("/trust/", secure=True)["Cross-Origin-Opener-Policy"] == "same-origin"


def _real_ca(folder: Path, days: int) -> str:
    """A self-signed root, as Caddy's local CA is (openssl makes it)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        + ["-nodes", "-days", str(days), "-subj", "/CN=Timekeeper local CA"]
        + ["-keyout", str(folder / "ca.key"), "-out", str(folder / "ca.crt")],
        check=True,
        capture_output=True,
    )
    return (folder / "ca.crt").read_text()


def test_the_fingerprint_is_16_groups_of_four_hex_digits() -> None:
    digest = hashlib.sha256(DER).hexdigest().upper()
    assert grouped_sha256(PEM) == " ".join(digest[i : i + 4] for i in range(0, 64, 4))
    assert valid_years(PEM) is None  # not a certificate: no claim of its validity


def test_the_page_asks_to_compare_the_fingerprint_and_says_what_a_root_ca_is(
    client: Client, settings: Any, tmp_path: Path
) -> None:
    pem = _real_ca(tmp_path, days=3653)
    settings.LOCAL_CA_CERT = tmp_path / "ca.crt"
    html = client.get("/trust/").content.decode()
    assert grouped_sha256(pem) in html
    assert "Check it matches what the host's screen shows" in html
    assert "root certificate authority" in html and "valid for 10 years" in html
    assert "for any address, not only this server" in html
    assert "Trusted credentials, User" in html and "Remove Profile" in html
    assert "trust the addresses of this one server" not in html  # what it overstated


@pytest.mark.parametrize(
    ("lang", "words"),
    [("nl", "10 jaar geldig"), ("ja", "有効期間は 10 年")],
)
def test_the_root_ca_is_explained_in_three_languages(
    client: Client, settings: Any, tmp_path: Path, lang: str, words: str
) -> None:
    _real_ca(tmp_path, days=3653)
    settings.LOCAL_CA_CERT = tmp_path / "ca.crt"
    client.cookies["django_language"] = lang
    assert words in client.get("/trust/").content.decode()


def test_make_serve_prints_the_fingerprint_once_the_ca_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serve = _serve_module()
    announcement = serve.CaFingerprint(tmp_path / "ca.crt")
    announcement.tick()  # Caddy has not made it yet
    assert capsys.readouterr().out == ""
    pem = _real_ca(tmp_path, days=3653)
    announcement.tick()
    announcement.tick()  # once
    printed = capsys.readouterr().out.splitlines()
    groups = grouped_sha256(pem).split()
    assert printed[1:] == [f"[serve]   {' '.join(groups[:8])}", f"[serve]   {' '.join(groups[8:])}"]
    assert "/trust/" in printed[0] and "SHA-256" in printed[0]


def _serve_module() -> Any:
    import importlib.util
    import sys

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "scripts"))
    spec = importlib.util.spec_from_file_location("serve", root / "scripts" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("serve", module)
    spec.loader.exec_module(module)
    return module
