"""The installable app: web app manifest, service worker and offline page, served at the root."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_and_starts_on_the_dashboard(client: Client) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/manifest+json"
    manifest = r.json()
    assert manifest["short_name"] == "Timekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])


def test_every_icon_of_the_manifest_is_a_static_file(client: Client) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    sizes = {icon["sizes"] for icon in icons}
    assert {"any", "192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in icons)
    for icon in icons:
        path = icon["src"].removeprefix("/static/")
        assert finders.find(path), icon["src"]


def test_the_png_icons_have_the_sizes_they_claim(client: Client) -> None:
    for icon in client.get("/manifest.webmanifest").json()["icons"]:
        if icon["type"] != "image/png":
            continue
        found = finders.find(icon["src"].removeprefix("/static/"))
        assert isinstance(found, str), icon["src"]
        data = Path(found).read_bytes()
        width = int.from_bytes(data[16:20], "big")
        height = int.from_bytes(data[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_readers_language(client: Client) -> None:
    english = client.get("/manifest.webmanifest").json()
    dutch = client.get("/manifest.webmanifest", headers={"accept-language": "nl"}).json()
    japanese = client.get("/manifest.webmanifest", headers={"accept-language": "ja"}).json()
    assert (english["lang"], dutch["lang"], japanese["lang"]) == ("en", "nl", "ja")
    assert len({english["description"], dutch["description"], japanese["description"]}) == 3


def test_the_service_worker_is_javascript_revalidated_on_every_visit(client: Client) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/javascript")
    assert "no-cache" in r["Cache-Control"]


def _sw_constant(body: str, name: str) -> Any:
    match = re.search(rf"const {name} = (.+);\n", body)
    assert match, name
    return json.loads(match[1])


def test_the_service_worker_caches_our_static_files_and_the_offline_page(client: Client) -> None:
    body = client.get("/sw.js").content.decode()
    assets = _sw_constant(body, "ASSETS")
    assert "/static/css/timekeeper.css" in assets
    assert "/static/vendor/htmx-2.0.11.min.js" in assets
    assert "/static/img/icon-192.png" in assets
    assert not any("admin" in asset or "LICENSE" in asset for asset in assets)
    assert _sw_constant(body, "OFFLINE") == "/offline/"
    assert _sw_constant(body, "STATIC_PREFIX") == "/static/"


def test_the_cache_name_changes_with_the_language_of_the_offline_page(client: Client) -> None:
    english = _cache_name(client.get("/sw.js").content.decode())
    dutch = _cache_name(client.get("/sw.js", headers={"accept-language": "nl"}).content.decode())
    assert english != dutch
    assert english == _cache_name(client.get("/sw.js").content.decode())


def _cache_name(body: str) -> str:
    match = re.search(r'const CACHE = "(timekeeper-[0-9a-f]+)";', body)
    assert match
    return match[1]


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_the_offline_page_says_so_in_every_language(client: Client, lang: str) -> None:
    r = client.get("/offline/", headers={"accept-language": lang})
    assert r.status_code == 200
    expected = {"en": "You are offline", "nl": "Je bent offline", "ja": "オフラインです"}[lang]
    assert expected in r.content.decode()


def test_the_offline_page_says_taps_wait_and_will_be_sent(client: Client) -> None:
    """The outbox keeps a result tapped offline: the page must not say nothing was recorded."""
    html = client.get("/offline/", headers={"accept-language": "en"}).content.decode()
    assert "Nothing was sent" not in html
    assert "kept on this phone" in html and "will be sent" in html


@pytest.mark.parametrize("url", ["/manifest.webmanifest", "/sw.js", "/offline/"])
def test_they_are_public_and_refuse_writes(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 405


def test_every_page_links_the_manifest_and_registers_the_worker(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'data-service-worker="/sw.js"' in page
    assert '<meta name="theme-color"' in page


def test_the_offline_page_holds_nothing_personal(client: Client, alice: Any) -> None:
    # The service worker caches it for whoever uses the phone later.
    client.force_login(alice)
    page = client.get("/offline/").content.decode()
    assert "alice" not in page
    assert "csrfmiddlewaretoken" not in page
