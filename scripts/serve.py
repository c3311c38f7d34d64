"""`make serve`: Timekeeper for a table or a club, on the local network, over HTTP and HTTPS.

The same supervisor as `make run` (scripts/run.py), with production settings:

- DEBUG off; a secret key made once into var/secret_key (kept across restarts, so sessions
  survive one); gunicorn serving the static files through whitenoise;
- the Celery worker with its beat, started again when it dies; SQLite and the embedded
  broker under var/ unless DATABASE_URL / CELERY_BROKER_URL name PostgreSQL / Redis;
- plain HTTP on HOST:PORT (default every address, port 8000), and HTTPS on HTTPS_PORT
  (8443) through Caddy (``.venv/bin/caddy``) with ``tls internal``: a local certificate
  authority that Caddy makes once in var/caddy/ and certificates for every name and address
  of this machine, renewed while it runs. A phone that installs that CA (the /trust/ page
  offers it) gets a secure context: the installable app, wake lock and Copy link;
- ALLOWED_HOSTS: this machine's names and addresses found at start (hostname,
  hostname.local, every non-loopback IPv4/IPv6 address), localhost, and ALLOWED_HOSTS from
  the environment; CSRF_TRUSTED_ORIGINS to match, for both schemes.

Who may say "this came over HTTPS": gunicorn listens on HOST:PORT for plain HTTP and on a
Unix socket in var/run/ that only Caddy uses. gunicorn believes X-Forwarded-Proto only from
a Unix-socket peer (and from no TCP address: ``--forwarded-allow-ips`` is empty), so a
request to the plain-HTTP port cannot make itself "secure"; Django reads the scheme gunicorn
decided (no SECURE_PROXY_SSL_HEADER).

Cookies: the same browser may use both addresses (the QR code leads to plain HTTP first;
HTTPS once the CA is trusted). Over plain HTTP the session cookie is Django's ``sessionid``,
not Secure, so a phone that has not trusted the CA works there. A session made over HTTPS
lives in a Secure cookie of its own and is refused over plain HTTP; once a phone has reached
HTTPS, plain-HTTP pages send it back there for the evening (ops/schemes.py,
SESSION_COOKIE_PER_SCHEME). The CSRF cookie stays shared: a browser would refuse to let plain
HTTP replace a Secure one. No HSTS: it names the host, not the port, and would send the
plain-HTTP port's phones to an HTTPS that port does not speak. Operators who want HTTPS only
set SESSION_COOKIE_SECURE / CSRF_COOKIE_SECURE themselves.

Usage: make serve   (HOST, PORT, HTTPS_PORT, ALLOWED_HOSTS, DATABASE_URL, CELERY_BROKER_URL)
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import PYTHON, ROOT, WORKER, Child, make_private, supervise

sys.path.insert(1, str(ROOT))
from ops.fingerprint import grouped_sha256  # plain Python: make serve runs before Django

CA_NAME = "Timekeeper local CA"


@dataclass(frozen=True)
class Machine:
    """What this machine is called on the network: names, then addresses."""

    names: list[str]
    addresses: list[str]  # IPv4 first, then IPv6 (without brackets)


def _is_public(address: str) -> bool:
    """A non-loopback address a phone could use (link-local IPv6 needs a zone: left out)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _addresses_from_system() -> list[str]:
    """Every address of this machine: `hostname -I` (Linux), else `ip -o addr`, else what
    the resolver and the default route say."""
    found: list[str] = []
    for command in (["hostname", "-I"], ["ip", "-o", "addr", "show", "up"]):
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode != 0:
            continue
        words = out.stdout.split()
        if command[0] == "ip":  # "... inet 192.0.2.2/24 ..." / "inet6 fd00::2/64"
            words = [
                words[i + 1].split("/")[0] for i, w in enumerate(words[:-1]) if w.startswith("inet")
            ]
        found = [w for w in words if _is_public(w)]
        if found:
            break
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None)
            found = [str(info[4][0]) for info in infos if _is_public(str(info[4][0]))]
        except OSError:
            pass
        for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
            try:  # the address the default route would use (nothing is sent)
                with socket.socket(family, socket.SOCK_DGRAM) as sock:
                    sock.connect((probe, 9))
                    found.append(str(sock.getsockname()[0]))
            except OSError:
                pass
    unique = list(dict.fromkeys(a for a in found if _is_public(a)))
    return sorted(unique, key=lambda a: ipaddress.ip_address(a).version)


def find_machine() -> Machine:
    host = socket.gethostname().strip().lower()
    names = []
    if host and host != "localhost":
        short = host.split(".")[0]
        names = list(dict.fromkeys([host, f"{short}.local"]))
    return Machine(names=names, addresses=_addresses_from_system())


def host_of(address: str) -> str:
    """As it appears in a URL and a Host header: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def secret_key(var: Path) -> str:
    """SECRET_KEY from the environment, else var/secret_key, made once (mode 600)."""
    given = os.environ.get("SECRET_KEY", "").strip()
    if given:
        return given
    path = var / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(64) + "\n")
        print(f"[serve] made a secret key in {path} (keep it: sessions depend on it)", flush=True)
    return path.read_text().strip()


def _port(name: str, default: str) -> int | None:
    value = os.environ.get(name, "").strip() or default
    if not value.isdigit() or not 0 < int(value) < 65536:
        print(
            f"[serve] {name} must be a number between 1 and 65535, not {value!r}", file=sys.stderr
        )
        return None
    return int(value)


def dual_stack() -> bool:
    """Whether one socket on [::] also takes IPv4 (Linux's default)."""
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind(("::", 0))
        return True
    except OSError:
        return False


def caddy_binary() -> str | None:
    beside = Path(PYTHON).parent / "caddy"
    if beside.exists():
        return str(beside)
    return shutil.which("caddy")


def caddyfile(hosts: list[str], https_port: int, socket_path: Path, bind: str | None) -> str:
    """Caddy: HTTPS only (no redirects, no port 80), certificates from its local CA."""
    sites = ", ".join(f"https://{host}:{https_port}" for host in hosts)
    bind_line = f"\tbind {bind}\n" if bind else ""
    return (
        "{\n"
        "\tadmin off\n"
        "\tauto_https disable_redirects\n"
        "\tskip_install_trust\n"
        "\tpersist_config off\n"
        "\tpki {\n"
        "\t\tca local {\n"
        f'\t\t\tname "{CA_NAME}"\n'
        f'\t\t\troot_cn "{CA_NAME} ({socket.gethostname()})"\n'
        "\t\t}\n"
        "\t}\n"
        "}\n"
        f"{sites} {{\n"
        f"{bind_line}"
        "\ttls internal\n"
        "\tencode gzip\n"
        f"\treverse_proxy unix/{socket_path}\n"
        "}\n"
    )


def static_is_stale(collected: Path) -> bool:
    """Whether collectstatic must run: it hashes and compresses every static file (a minute
    of CPU on a small machine), so it runs only when our static files or the installed
    packages (.venv's install stamp) are newer than the last collection."""
    manifest = collected / "staticfiles.json"
    if not manifest.exists():
        return True
    done = manifest.stat().st_mtime
    sources = [p for p in (ROOT / "static").rglob("*") if p.is_file()]
    sources.append(Path(PYTHON).parent.parent / ".installed")
    return any(p.exists() and p.stat().st_mtime > done for p in sources)


BACKUP_EVERY = 24 * 3600  # seconds between two backups
FIRST_BACKUP_AFTER = 300  # not while the solver warms up at the start
LOOK_EVERY = 60  # how often the supervisor's loop looks whether one is due


@dataclass
class DailyBackup:
    """``manage.py backup`` (SQLite's online backup or pg_dump; the newest BACKUP_KEEP, 14,
    kept) once a day into ``folder``: when the newest backup there is a day old, or there is
    none, but not in the first minutes after the start. It runs beside the app, which keeps
    serving."""

    folder: Path
    started: float = field(default_factory=time.time)
    looked: float = 0.0
    proc: subprocess.Popen[bytes] | None = None

    def due(self, now: float) -> bool:
        if self.proc is not None and self.proc.poll() is None:
            return False  # the last one is still running
        if now - self.started < FIRST_BACKUP_AFTER:
            return False
        made = [p.stat().st_mtime for p in self.folder.glob("timekeeper-*")]
        return not made or now - max(made) >= BACKUP_EVERY

    def tick(self) -> None:
        now = time.time()
        if now - self.looked < LOOK_EVERY:
            return
        self.looked = now
        if self.due(now):
            print(f"[serve] daily backup into {self.folder}", flush=True)
            self.proc = subprocess.Popen([PYTHON, "manage.py", "backup"], cwd=ROOT)


DAILY: list[DailyBackup] = []  # the one main() starts


@dataclass
class CaFingerprint:
    """Prints the local CA's SHA-256 fingerprint once, as soon as Caddy has made the CA (at
    once on a later start; a few seconds after the first): /trust/ shows the same groups on
    the phone, so the host and a player can check that the phone got this CA, not another
    one swapped in on the Wi-Fi."""

    cert: Path
    shown: bool = False

    def tick(self) -> None:
        if self.shown:
            return
        try:
            pem = self.cert.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return
        if "-----END CERTIFICATE-----" not in pem:
            return
        self.shown = True
        groups = grouped_sha256(pem).split()
        print(
            "[serve] Its certificate authority's SHA-256 fingerprint; a phone's /trust/ page "
            "must show the same before it trusts it:",
            flush=True,
        )
        for half in (groups[:8], groups[8:]):
            print(f"[serve]   {' '.join(half)}", flush=True)


FINGERPRINT: list[CaFingerprint] = []  # the one main() makes when Caddy serves HTTPS


def every_loop() -> None:
    """Called by the supervisor every half second while make serve runs: the daily backup,
    and the CA's fingerprint once Caddy has made it."""
    for backup in DAILY:
        backup.tick()
    for fingerprint in FINGERPRINT:
        fingerprint.tick()


def main() -> int:
    port = _port("PORT", "8000")
    https_port = _port("HTTPS_PORT", "8443")
    if port is None or https_port is None:
        return 2
    host = os.environ.get("HOST", "").strip()
    var = Path(os.environ.get("TIMEKEEPER_VAR_DIR") or ROOT / "var").resolve()
    make_private(var, "serve")
    run_dir = var / "run"
    run_dir.mkdir(mode=0o700, exist_ok=True)
    socket_path = run_dir / "web.sock"

    machine = find_machine()
    local = ["localhost", "127.0.0.1", "::1"]
    hosts = [host_of(h) for h in dict.fromkeys(machine.addresses + machine.names + local)]
    extra = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    allowed = list(dict.fromkeys(hosts + extra))
    origins = [f"http://{h}:{port}" for h in allowed if not h.startswith(".")]
    origins += [f"https://{h}:{https_port}" for h in allowed if not h.startswith(".")]
    first = host_of(machine.addresses[0]) if machine.addresses else "127.0.0.1"

    os.environ.update(
        DEBUG="false",
        SECRET_KEY=secret_key(var),
        TIMEKEEPER_VAR_DIR=str(var),
        ALLOWED_HOSTS=",".join(allowed),
        CSRF_TRUSTED_ORIGINS=",".join(origins),
        # Both schemes are served on purpose (see the module's docstring).
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="0",
        SESSION_COOKIE_SECURE=os.environ.get("SESSION_COOKIE_SECURE", "false"),
        # …but a session made over HTTPS is Secure and stays there (ops/schemes.py).
        SESSION_COOKIE_PER_SCHEME="true",
        CSRF_COOKIE_SECURE=os.environ.get("CSRF_COOKIE_SECURE", "false"),
        SITE_URL=os.environ.get("SITE_URL", f"https://{first}:{https_port}"),
        HTTPS_PORT=str(https_port),
        # No mail server on a laptop: password-reset mails are printed here, unless set.
        EMAIL_HOST=os.environ.get("EMAIL_HOST", "console"),
        # Hashed names, no gzip/brotli copies: a minute less at the first start, and the
        # local network does not need them.
        STATIC_COMPRESS=os.environ.get("STATIC_COMPRESS", "false"),
        PYTHONUNBUFFERED="1",
    )
    steps = [[PYTHON, "manage.py", "migrate", "--no-input", "-v", "0"]]
    if static_is_stale(var / "static"):
        steps.append([PYTHON, "manage.py", "collectstatic", "--no-input", "-v", "0"])
    for step in steps:
        print(f"[serve] {' '.join(step[1:])}", flush=True)
        if subprocess.run(step, cwd=ROOT).returncode != 0:
            return 1

    if host:
        binds = [f"{host_of(host)}:{port}"]
    else:
        binds = [f"[::]:{port}" if dual_stack() else f"0.0.0.0:{port}"]
    web = [
        PYTHON,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        *[arg for bind in binds for arg in ("--bind", bind)],
        "--bind",
        f"unix:{socket_path}",
        "--workers",
        "2",
        "--threads",
        "4",
        # X-Forwarded-Proto is believed from the Unix socket (Caddy) only, never over TCP.
        "--forwarded-allow-ips",
        "",
        "--access-logfile",
        "-",
        "--no-control-socket",  # gunicorn's would be one per user, in ~/.gunicorn
    ]
    children = [Child("web", web, restart=False), Child("worker", WORKER, restart=True)]

    caddy = caddy_binary()
    if caddy:
        caddy_dir = var / "caddy"
        (caddy_dir / "data").mkdir(parents=True, exist_ok=True)
        (caddy_dir / "config").mkdir(parents=True, exist_ok=True)
        config = caddy_dir / "Caddyfile"
        config.write_text(caddyfile(hosts, https_port, socket_path, host or None))
        # Caddy keeps its CA, certificates and state under var/caddy/, not in ~.
        os.environ.update(
            XDG_DATA_HOME=str(caddy_dir / "data"), XDG_CONFIG_HOME=str(caddy_dir / "config")
        )
        command = [caddy, "run", "--config", str(config), "--adapter", "caddyfile"]
        children.append(Child("https", command, restart=True))
    else:
        print("[serve] no caddy found (make install provides it): HTTP only", flush=True)

    stopping = [False]

    def on_signal(signum: int, _frame: object) -> None:
        stopping[0] = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    print_addresses(machine, port, https_port if caddy else None)
    if caddy:
        ca = var / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        FINGERPRINT.append(CaFingerprint(ca))
        every_loop()  # beside the QR code when the CA exists already
    DAILY.append(DailyBackup(Path(os.environ.get("BACKUP_DIR") or var / "backups")))
    print("[serve] Ctrl-C stops everything", flush=True)
    code = supervise(children, stopping, tick=every_loop)
    print("[serve] stopped", flush=True)
    return code


def print_addresses(machine: Machine, port: int, https_port: int | None) -> None:
    shown = [host_of(a) for a in machine.addresses] + machine.names or ["127.0.0.1"]
    print("[serve] Timekeeper is open to this network. Phones join at:", flush=True)
    for host in shown:
        line = f"[serve]   http://{host}:{port}/"
        if https_port:
            line += f"   https://{host}:{https_port}/"
        print(line, flush=True)
    if https_port:
        print(
            f"[serve] For HTTPS (installable app, keep-awake, Copy), trust this server's "
            f"certificate once per phone: http://{shown[0]}:{port}/trust/",
            flush=True,
        )
    try:
        import segno

        segno.make(f"http://{shown[0]}:{port}/", error="m").terminal(compact=True)
    except Exception as error:  # a QR code is a convenience; the addresses are printed
        print(f"[serve] (no QR code: {error})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
