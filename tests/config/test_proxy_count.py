"""PROXY_COUNT: how many proxies stand in front of the app, read by every reader of the
caller's address. Without a proxy a forged X-Forwarded-For must not pick the throttle's
bucket; behind one, the caller is the address that proxy appended."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.request import Request

from accounts.throttle import AnonThrottle

ROOT = Path(__file__).resolve().parents[2]


def _ident(settings: Any, proxies: int, forwarded: str) -> str:
    settings.PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    return str(AnonThrottle().get_ident(Request(request)))


def test_without_a_proxy_a_forged_forwarded_for_is_ignored(settings: Any) -> None:
    assert _ident(settings, 0, "1.2.3.4") == _ident(settings, 0, "5.6.7.8") == "10.0.0.2"


def test_behind_one_proxy_the_caller_is_the_address_it_appended(settings: Any) -> None:
    assert _ident(settings, 1, "1.2.3.4, 198.51.100.9") == "198.51.100.9"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [({}, "0 0"), ({"BEHIND_TLS_PROXY": "true"}, "1 1"), ({"PROXY_COUNT": "2"}, "2 2")],
)
def test_the_setting_comes_from_the_environment(environ: dict[str, str], expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("BEHIND_TLS_PROXY", "PROXY_COUNT")}
    code = (
        "from django.conf import settings as s; "
        "print(s.PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={**env, **environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == expected
