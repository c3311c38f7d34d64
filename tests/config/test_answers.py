"""Small answers that say no more than they must: a bad token is a 401 that names the
scheme; the token page is never cached; an unknown API path is JSON; an expired invite does
not name its group (tests/campaigns/groups/test_invites.py); logs hide invite tokens and print a
refusal once, without a traceback."""

from __future__ import annotations

import logging
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from config.logs import GunicornLogger, QuietRefusals, RedactingFilter, redact

pytestmark = pytest.mark.django_db
TOKEN = "Zq3xYbW9_secret-invite-Tok"


def test_an_invalid_token_is_a_401_naming_the_scheme() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/groups/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_no_credentials_is_a_401_too() -> None:
    response = APIClient().get("/api/groups/")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"


def test_the_token_page_is_never_stored(alice: User, login: Any) -> None:
    response = login(alice).get("/accounts/token/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_an_unknown_api_path_is_a_json_404(alice: User, login: Any) -> None:
    for client in (Client(), login(alice)):
        response = client.get("/api/no-such-thing/")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"detail": "Not found."}
    assert "text/html" in Client().get("/no-such-page/")["Content-Type"]


def test_redact_hides_every_invite_token() -> None:
    line = f'"GET /join/{TOKEN}/ HTTP/1.1" 200 "https://x.example/join/{TOKEN}/?a=1"'
    assert TOKEN not in redact(line)
    assert redact(line).count("/join/[token]") == 2
    assert redact("GET /groups/3/members/ 200") == "GET /groups/3/members/ 200"


def test_redact_hides_an_invite_token_url_encoded_in_a_next_parameter() -> None:
    for encoded in (
        f"/accounts/login/?next=%2Fjoin%2F{TOKEN}%2F",  # the htmx log-in redirect's
        f"/accounts/login/?next=%2fjoin%2f{TOKEN}%2f&x=1",
        f"https://x.example/accounts/login/?next=%252Fjoin%252F{TOKEN}%252F",
        f"/accounts/login/?next=/join/{TOKEN}",
    ):
        assert TOKEN not in redact(encoded), encoded
        assert "[token]" in redact(encoded)
    assert redact("/joinery/abc/ and /accounts/join") == "/joinery/abc/ and /accounts/join"
    record = _record("GET %s", f"/accounts/login/?next=%2Fjoin%2F{TOKEN}%2F")
    assert RedactingFilter().filter(record)
    assert record.getMessage() == "GET /accounts/login/?next=%2Fjoin%2F[token]%2F"


def _record(msg: str, *args: Any, **extra: Any) -> logging.LogRecord:
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, None)
    record.__dict__.update(extra)
    return record


def test_django_request_logs_are_redacted() -> None:
    record = _record("Not Found: %s", f"/join/{TOKEN}/")
    assert RedactingFilter().filter(record)
    assert TOKEN not in record.getMessage()


def test_the_gunicorn_access_log_is_redacted() -> None:
    logger = GunicornLogger(SimpleNamespace(**_gunicorn_cfg()))
    request = SimpleNamespace(
        uri=f"/join/{TOKEN}/",
        path=f"/join/{TOKEN}/",
        query="",
        method="GET",
        version=(1, 1),
        headers=[("REFERER", f"https://x.example/join/{TOKEN}/")],
    )
    response = SimpleNamespace(status="200 OK", sent=10, headers=[], response_length=10)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/join/{TOKEN}/",
        "PATH_INFO": f"/join/{TOKEN}/",
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.1",
        "HTTP_REFERER": f"https://x.example/join/{TOKEN}/",
    }
    from datetime import timedelta

    atoms = logger.atoms(response, request, environ, timedelta(seconds=0.01))
    assert not [value for value in atoms.values() if TOKEN in str(value)]
    assert "/join/[token]/" in atoms["r"]


def _gunicorn_cfg() -> dict[str, Any]:
    from gunicorn.config import Config

    config = Config()
    return {name: setting.get() for name, setting in config.settings.items()}


def test_gunicorn_started_at_the_root_uses_the_redacting_logger() -> None:
    from gunicorn.config import Config

    config = Config()
    namespace: dict[str, Any] = {}
    exec((settings.BASE_DIR / "gunicorn.conf.py").read_text(), namespace)
    config.set("logger_class", namespace["logger_class"])
    assert config.logger_class is GunicornLogger


def test_a_refusal_loses_its_traceback() -> None:
    try:
        raise PermissionError("no")
    except PermissionError:
        exc_info = sys.exc_info()
    record = _record("Forbidden (Permission denied): %s", "/x/", status_code=403)
    record.exc_info = exc_info
    assert QuietRefusals().filter(record)
    assert record.exc_info is None
    failure = _record("Internal Server Error: %s", "/x/", status_code=500)
    failure.exc_info = exc_info
    assert QuietRefusals().filter(failure) and failure.exc_info is exc_info


def test_a_foreign_host_header_is_logged_in_one_line(client: Client) -> None:
    import io

    [handler] = [
        h
        for h in logging.getLogger("django").handlers
        if isinstance(h, logging.StreamHandler)
        and any(isinstance(f, QuietRefusals) for f in h.filters)
    ]
    stream = io.StringIO()
    earlier = handler.setStream(stream)
    try:
        response = client.get("/accounts/login/", HTTP_HOST="evil.example")
    finally:
        handler.setStream(earlier)
    assert response.status_code == 400
    logged = stream.getvalue().strip().splitlines()
    assert len(logged) == 1 and "evil.example" in logged[0], logged


def test_the_404_page_says_a_plain_sentence_not_the_exception(client: Client) -> None:
    response = client.get("/join/no-such-invite/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "There is nothing here" in page
    assert "matches the given query" not in page


def test_django_records_are_printed_by_one_handler_once() -> None:
    """In development (DEBUG) too: Django's own console handler is replaced and records stop
    at 'django', so the root logger does not print them again."""
    import os
    import subprocess

    code = (
        "import django, logging; django.setup(); d = logging.getLogger('django'); "
        "print(d.propagate, [sorted(type(f).__name__ for f in h.filters) for h in d.handlers])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False [['QuietRefusals', 'RedactingFilter']]"
