"""The settings module itself, loaded in a subprocess with a given environment."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "Xq7-timekeeper-test-secret-0a9f3e1d5c7b2a4f6e8d0c1b3a5f7e9d-long"


def run_manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_the_development_secret_key() -> None:
    result = run_manage({"DEBUG": "false", "ALLOWED_HOSTS": "example.org"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_the_placeholder_secret_of_env_example() -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    placeholder = next(line for line in lines if line.startswith("SECRET_KEY=")).split("=", 1)[1]
    assert len(placeholder) >= 50  # the length check alone would let it through
    env = {"DEBUG": "false", "SECRET_KEY": placeholder, "ALLOWED_HOSTS": "example.org"}
    result = run_manage(env, "check")
    assert result.returncode != 0
    assert "not the development key nor the placeholder of .env.example" in result.stderr


def test_a_typo_in_debug_stops_start_up() -> None:
    result = run_manage({"DEBUG": "ture"}, "check")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_production_settings_pass_the_deploy_check_without_warnings() -> None:
    env = {"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "timekeeper.example.org"}
    result = run_manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_an_unknown_database_scheme_is_refused() -> None:
    result = run_manage({"DATABASE_URL": "mysql://root@localhost/x"}, "check")
    assert result.returncode != 0
    assert "DATABASE_URL must start with one of" in result.stderr


def _conn_max_age(env: dict[str, str]) -> str:
    code = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    result = run_manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]  # after the shell's own lines


def test_a_postgresql_connection_is_kept_across_requests_by_default() -> None:
    assert _conn_max_age({"DATABASE_URL": "postgres://u@127.0.0.1:5432/x"}) == "60"


def test_a_sqlite_connection_is_opened_per_request_by_default() -> None:
    assert _conn_max_age({"DATABASE_URL": "sqlite:////tmp/timekeeper-settings.sqlite3"}) == "0"
