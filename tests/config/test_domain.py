"""DOMAIN, a server's public name: the allowed host, the trusted origin and the site's
address by default, so a compose install needs one name, not three."""

from tests.config.test_settings import STRONG_KEY, run_manage

PRINT = (
    "from django.conf import settings as s; "
    "print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS, s.SITE_URL, s.SECURE_PROXY_SSL_HEADER)"
)
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "", "SITE_URL": ""}


def test_domain_alone_sets_the_host_the_origin_and_the_address() -> None:
    result = run_manage(
        {**PRODUCTION, "DOMAIN": "play.example.org"}, "shell", "-v", "0", "-c", PRINT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "['play.example.org']",
        "['https://play.example.org']",
        "https://play.example.org",
        "None",  # gunicorn, not Django, decides whom to believe about HTTPS
    ]


def test_allowed_hosts_adds_to_the_domain() -> None:
    env = {**PRODUCTION, "DOMAIN": "play.example.org", "ALLOWED_HOSTS": "club.example.org"}
    result = run_manage(env, "shell", "-v", "0", "-c", PRINT)
    assert result.stdout.startswith("['club.example.org', 'play.example.org']"), result.stderr


def test_domain_settings_pass_the_deploy_check() -> None:
    env = {**PRODUCTION, "DOMAIN": "play.example.org", "BEHIND_TLS_PROXY": "true"}
    result = run_manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr


def test_a_domain_with_a_scheme_or_a_port_is_refused() -> None:
    for bad in ("https://play.example.org", "play.example.org:443", "play..org"):
        result = run_manage({"DOMAIN": bad}, "check")
        assert result.returncode != 0
        assert "DOMAIN must be a bare name" in result.stderr


def test_production_without_domain_or_hosts_stops() -> None:
    result = run_manage(PRODUCTION, "check")
    assert result.returncode != 0
    assert "DOMAIN or ALLOWED_HOSTS must be set" in result.stderr
