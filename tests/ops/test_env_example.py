""".env.example lists every variable docker-compose.yml reads, each with a comment, and
nothing the app does not read."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _example() -> list[str]:
    return (ROOT / ".env.example").read_text().splitlines()


def _variables() -> list[str]:
    return [line.split("=", 1)[0] for line in _example() if re.match(r"^[A-Z_]+=", line)]


def test_every_variable_compose_reads_is_in_env_example() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    read = set(re.findall(r"\$\{([A-Z_]+)", compose))
    assert read == {"DOMAIN", "POSTGRES_PASSWORD"}
    assert read <= set(_variables())


def test_each_variable_has_a_comment_above_it() -> None:
    lines = _example()
    for number, line in enumerate(lines):
        if re.match(r"^[A-Z_]+=", line):
            assert lines[number - 1].startswith("# "), line


def test_every_other_variable_is_one_the_settings_read() -> None:
    settings = (ROOT / "config" / "settings.py").read_text()
    for name in set(_variables()) - {"POSTGRES_PASSWORD"}:
        assert f'"{name}"' in settings, name
