"""docs/deploy.md's table lists every environment variable the code reads, and nothing else:
the settings (through config/env.py's readers), make run / make serve, docker-compose.yml
(what it interpolates and what it sets for gunicorn) and deploy/Caddyfile."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "accounts", "campaigns", "solver", "ops", "rules")
READER = re.compile(r"\benv_(?:str|bool|int|list|url)\(\s*\"([A-Z][A-Z0-9_]*)\"")
OS_READ = re.compile(
    r"os\.environ(?:\.get)?\(\s*\"([A-Z][A-Z0-9_]*)\"|os\.environ\[\"([A-Z][A-Z0-9_]*)\"\](?!\s*=)"
)
SCRIPT_PORT = re.compile(r"_port\(\s*\"([A-Z][A-Z0-9_]*)\"")
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def _read_by_the_code() -> set[str]:
    names: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text()
            names |= set(READER.findall(text))
            if "bench" not in path.name:  # benchmarks set their own, for themselves
                names |= {a or b for a, b in OS_READ.findall(text)}
    for script in ("run.py", "serve.py"):
        path = ROOT / "scripts" / script
        if path.exists():
            text = path.read_text()
            names |= {a or b for a, b in OS_READ.findall(text)} | set(SCRIPT_PORT.findall(text))
    compose_text = (ROOT / "docker-compose.yml").read_text()
    names |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose_text))
    compose = yaml.safe_load(compose_text)
    names |= set(compose["services"]["web"]["environment"])
    names |= set(re.findall(r"\{\$([A-Z][A-Z0-9_]*)", (ROOT / "deploy" / "Caddyfile").read_text()))
    return names - NOT_SETTINGS


def _in_the_table() -> list[str]:
    text = (ROOT / "docs" / "deploy.md").read_text()
    table = text[text.index("## Every environment variable") :]
    return re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", table, re.MULTILINE)


def test_the_table_lists_every_variable_the_code_reads_and_no_other() -> None:
    listed = _in_the_table()
    assert len(listed) == len(set(listed)), "a variable is listed twice"
    read = _read_by_the_code()
    assert sorted(read - set(listed)) == [], "read by the code, missing from docs/deploy.md"
    assert sorted(set(listed) - read) == [], "in docs/deploy.md, read nowhere"


def test_the_readme_points_to_the_guide() -> None:
    assert "docs/deploy.md" in (ROOT / "README.md").read_text()
