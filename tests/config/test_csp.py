"""Content-Security-Policy: on for every answer (Django's own middleware), scripts and styles
from this site only, and no inline script, event handler or style attribute left in our
templates for it to refuse. The browser tests (tests/e2e) fail on anything it refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


def test_pages_and_the_api_carry_the_policy(client: Client, alice: User) -> None:
    client.force_login(alice)
    for url in ("/", "/accounts/token/", "/hints/new/", "/api/groups/", "/healthz"):
        policy = directives(client.get(url)["Content-Security-Policy"])
        assert policy["script-src"] == ["'self'"], url
        assert policy["style-src"] == ["'self'"], url
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]


def test_signed_out_pages_carry_it_too(client: Client) -> None:
    assert "script-src 'self'" in client.get("/accounts/login/")["Content-Security-Policy"]


def test_no_template_has_inline_script_handler_or_style() -> None:
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\son[a-z]+\s*=|\sstyle\s*=", re.IGNORECASE
    )
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0).strip()}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        if not path.is_relative_to(TEMPLATES / "drf_spectacular")
        for match in inline.finditer(path.read_text())
    ]
    assert found == []


def test_htmx_is_told_not_to_add_its_own_style(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    assert config is not None
    assert json.loads(config.group(1)) == {
        "includeIndicatorStyles": False,
        "attributesToSettle": ["class", "width", "height"],  # no "style"
    }
    assert "onchange=" not in html and "data-submit-on-change" in html


def test_the_api_docs_load_their_set_up_script_from_a_file(client: Client, alice: User) -> None:
    client.force_login(alice)
    page = client.get("/api/docs/")
    html = page.content.decode()
    assert page.status_code == 200
    assert re.search(r'<script src="[^"]*\?[^"]*script=', html)
    assert not re.search(r"<script>", html)
    policy = directives(page["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # only styles are relaxed on this page
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and b"SwaggerUIBundle" in script.content
