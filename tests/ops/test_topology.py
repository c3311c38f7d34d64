"""docker-compose.yml and scripts/topology.py run the same commands: the script exercises
the production shape (gunicorn with 2 workers, two worker nodes, a separate beat), and a
change to one without the other fails here. (There is no Docker engine in the suite.)"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def topology() -> ModuleType:
    spec = importlib.util.spec_from_file_location("topology", ROOT / "scripts" / "topology.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data["services"]


def test_each_service_runs_the_command_the_topology_script_runs(
    topology: ModuleType, compose: dict[str, Any]
) -> None:
    app_services = {name for name, service in compose.items() if service.get("build")}
    assert app_services == set(topology.COMMANDS)
    for name, command in topology.COMMANDS.items():
        assert compose[name]["command"] == command, name


def test_the_image_starts_the_web_as_the_web_service_does(
    topology: ModuleType, compose: dict[str, Any]
) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert cmd is not None
    assert json.loads(cmd.group(1)) == compose["web"]["command"] == topology.COMMANDS["web"]


def test_the_shape_is_two_gunicorn_workers_two_named_nodes_and_one_beat(
    topology: ModuleType, compose: dict[str, Any]
) -> None:
    web = topology.COMMANDS["web"]
    assert web[0] == "gunicorn" and web[web.index("--workers") + 1] == "2"
    nodes = [
        command[command.index("-n") + 1]
        for command in topology.COMMANDS.values()
        if command[:4] == ["celery", "-A", "config", "worker"]
    ]
    assert nodes == ["worker1@%h", "worker2@%h"]
    beats = [c for c in topology.COMMANDS.values() if c[:4] == ["celery", "-A", "config", "beat"]]
    assert len(beats) == 1
    # Each node's health check pings that node, by its own name.
    for node in nodes:
        name = node.partition("@")[0]
        assert f"-d {name}@$$HOSTNAME" in compose[name]["healthcheck"]["test"][1]


def test_the_script_changes_only_the_interpreter_the_port_and_the_schedule_path(
    topology: ModuleType, tmp_path: Path
) -> None:
    web = topology.local("web", 8123, tmp_path)
    assert web[:3] == [sys.executable, "-m", "gunicorn"]
    assert web[web.index("--bind") + 1] == "127.0.0.1:8123"
    beat = topology.local("beat", 8123, tmp_path)
    assert beat[beat.index("--schedule") + 1] == str(tmp_path / "celerybeat-schedule")
    for service, command in topology.COMMANDS.items():
        ours = topology.local(service, 8123, tmp_path)
        pairs = zip(command[1:], ours[-len(command) + 1 :], strict=True)
        differ = [(a, b) for a, b in pairs if a != b]
        assert len(differ) <= 1, (service, differ)  # at most the bind or the schedule


def test_the_script_asks_thirty_different_hints(topology: ModuleType) -> None:
    asks = {
        (colours, face_up)
        for colours in topology.COLOURS
        for face_up in range(2, 2 + topology.HINTS_PER_USER)
    }
    assert len(topology.COLOURS) == topology.USERS == 10
    assert len(asks) == 30
