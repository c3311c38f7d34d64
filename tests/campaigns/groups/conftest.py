"""The groups room's fixtures: `make serve`'s settings for the invite address."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def serve_settings(settings: Any, tmp_path: Path) -> None:
    """`make serve`'s settings: its two ports, a local CA, no domain."""
    settings.ALLOWED_HOSTS = ["192.0.2.2", "[fd00::2]", "testserver"]
    settings.DOMAIN = ""
    settings.HTTPS_PORT = 8443
    settings.PLAIN_HTTP_PORT = 8000
    settings.LOCAL_CA_CERT = tmp_path / "root.crt"
    settings.LOCAL_CA_CERT.write_text(PEM)


PEM = (
    "-----BEGIN CERTIFICATE-----\n"
    + base64.encodebytes(b"0\x82 not a real certificate").decode()
    + "-----END CERTIFICATE-----\n"
)
