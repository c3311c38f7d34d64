"""Throttles: wrong passwords per account and per address (django-axes), sign-ups per address,
and the API's anonymous and per-user scopes. Rates come from settings, so each test sets a
small one and shows the request after it is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"


def log_in(username: str, password: str, ip: str) -> Any:
    return Client(REMOTE_ADDR=ip).post(LOGIN, {"username": username, "password": password})


def test_an_attacker_locks_only_themself_out_and_the_victim_logs_in(
    alice: User, settings: Any
) -> None:
    limit = settings.AXES_FAILURE_LIMIT
    assert limit == 10  # the production default
    for _ in range(limit - 1):
        assert log_in("alice", "wrong", "203.0.113.66").status_code == 200
    assert log_in("alice", "wrong", "203.0.113.66").status_code == 429  # the tenth locks
    # The attacker's address, even with the right password: refused, with a sentence.
    response = log_in("alice", "password", "203.0.113.66")
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in response.client.session
    # Alice, from her own address, while the attacker is locked out: in.
    assert log_in("alice", "password", "198.51.100.7").status_code == 302
    assert log_in("alice", "wrong", "203.0.113.66").status_code == 429  # still locked


def test_no_number_of_addresses_locks_an_account_for_everyone(alice: User) -> None:
    for n in range(30):
        log_in("alice", "wrong", f"10.0.{n}.1")
        log_in("alice", "wrong", f"10.0.{n}.1")
    assert log_in("alice", "password", "198.51.100.7").status_code == 302


def test_password_spraying_from_one_address_is_stopped(alice: User, settings: Any) -> None:
    """Few tries per account, many accounts: the address is refused once it used up its
    failures across accounts (50 an hour), even for an account it never tried."""
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    assert limit == 50  # the production default, far above one account's 10
    codes = [log_in(f"player{n}", "wrong", "203.0.113.9").status_code for n in range(limit)]
    assert codes == [200] * (limit - 1) + [429]
    response = log_in("alice", "password", "203.0.113.9")
    assert response.status_code == 429
    assert "_auth_user_id" not in response.client.session
    # Another address is not concerned.
    assert log_in("alice", "password", "203.0.113.10").status_code == 302


def test_a_few_typos_from_one_address_lock_no_one(alice: User, bob: User) -> None:
    """A cafe's Wi-Fi: several players mistype, nobody is locked out."""
    for name in ("alice", "bob", "carol", "dan"):
        for _ in range(5):
            log_in(name, "wrong", "192.0.2.80")
    assert log_in("alice", "password", "192.0.2.80").status_code == 302
    assert log_in("bob", "password", "192.0.2.80").status_code == 302


def test_a_right_password_before_the_limit_starts_the_count_again(alice: User) -> None:
    for _ in range(9):
        log_in("alice", "wrong", "10.0.0.1")
    assert log_in("alice", "password", "10.0.0.1").status_code == 302
    for _ in range(9):
        log_in("alice", "wrong", "10.0.0.1")
    assert log_in("alice", "password", "10.0.0.1").status_code == 302


def test_sign_ups_are_throttled_per_address(settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "signup": "3/hour"}
    for n in range(3):
        data = {"username": f"bot{n}", "password1": "tick-tock-42x", "password2": "tick-tock-42x"}
        assert Client(REMOTE_ADDR="10.1.1.1").post("/accounts/signup/", data).status_code == 302
    data = {"username": "bot9", "password1": "tick-tock-42x", "password2": "tick-tock-42x"}
    response = Client(REMOTE_ADDR="10.1.1.1").post("/accounts/signup/", data)
    assert response.status_code == 429
    assert "Too many sign-ups from your address" in response.content.decode()
    assert not User.objects.filter(username="bot9").exists()
    # Another address may still sign up.
    assert Client(REMOTE_ADDR="10.1.1.2").post("/accounts/signup/", data).status_code == 302


def test_the_api_throttles_each_account(alice: User, bob: User, settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "user": "5/minute"}
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(alice)}")
    assert [client.get("/api/groups/").status_code for _ in range(5)] == [200] * 5
    refused = client.get("/api/groups/")
    assert refused.status_code == 429 and "Retry-After" in refused
    other = APIClient()
    other.force_authenticate(bob)
    assert other.get("/api/groups/").status_code == 200


def test_the_api_throttles_anonymous_callers_per_address(settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "anon": "2/minute"}
    client = APIClient(REMOTE_ADDR="10.2.2.2")
    assert [client.get("/api/schema/").status_code for _ in range(2)] == [200, 200]
    assert client.get("/api/schema/").status_code == 429
    assert APIClient(REMOTE_ADDR="10.2.2.3").get("/api/schema/").status_code == 200


def test_default_rates_are_set_and_a_bad_rate_stops_start_up() -> None:
    from tests.config.test_settings import run_manage

    result = run_manage({"THROTTLE_USER": "lots"}, "check")
    assert result.returncode != 0 and "THROTTLE_USER must look like 60/minute" in result.stderr


def test_a_log_in_without_an_address_is_recorded_without_one(alice: User) -> None:
    """force_login (and any log-in made by code) has no REMOTE_ADDR; axes must not store
    "unknown" in its address column, which PostgreSQL refuses."""
    from axes.models import AccessLog
    from django.test import Client

    Client().force_login(alice)
    assert AccessLog.objects.get(username="alice").ip_address is None
    client = Client(REMOTE_ADDR="203.0.113.7")
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": "password"}).status_code
        == 302
    )
    assert AccessLog.objects.filter(ip_address="203.0.113.7").count() == 1


PROXY = "10.0.0.2"


@pytest.mark.parametrize(
    ("meta", "proxies", "expected"),
    [
        ({"REMOTE_ADDR": "198.51.100.4"}, 0, "198.51.100.4"),
        ({}, 0, None),
        ({"REMOTE_ADDR": "not an address"}, 0, None),
        # No proxy (the default): X-Forwarded-For is anyone's to forge, never read.
        ({"REMOTE_ADDR": "198.51.100.4", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, 0, "198.51.100.4"),
        # Behind our proxy: the address it appended; the caller's own entries to its left not.
        (
            {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.9"},
            1,
            "198.51.100.9",
        ),
        # Two proxies of ours: the second appended the first's address.
        (
            {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.9, 10.0.0.7"},
            2,
            "198.51.100.9",
        ),
        ({"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, <script>"}, 1, None),
        ({"REMOTE_ADDR": PROXY}, 1, PROXY),
    ],
)
def test_only_a_valid_address_identifies_the_caller(
    settings: Any, meta: dict[str, str], proxies: int, expected: str | None
) -> None:
    from django.test import RequestFactory

    from accounts.throttle import client_ip, login_ip

    settings.PROXY_COUNT = proxies
    request = RequestFactory().get("/")
    request.META.pop("REMOTE_ADDR", None)
    request.META.update(meta)
    assert login_ip(request) == expected
    assert client_ip(request) == (expected or "unknown")


def test_a_forged_forwarded_for_gets_no_fresh_anonymous_bucket(settings: Any) -> None:
    """Without a proxy (PROXY_COUNT 0) each forged X-Forwarded-For is the same caller."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "anon": "2/minute"}
    settings.PROXY_COUNT = 0
    codes = [
        APIClient(REMOTE_ADDR="10.3.3.3", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
        .get("/api/schema/")
        .status_code
        for n in range(3)
    ]
    assert codes == [200, 200, 429]


def test_behind_the_proxy_each_caller_has_its_own_bucket(settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "anon": "2/minute"}
    settings.PROXY_COUNT = 1

    def get(caller: str) -> int:
        client = APIClient(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"203.0.113.66, {caller}")
        return int(client.get("/api/schema/").status_code)

    assert [get("198.51.100.1") for _ in range(3)] == [200, 200, 429]
    assert get("198.51.100.2") == 200


@pytest.mark.parametrize("scope", ["anon", "user", "signup"])
def test_concurrent_requests_never_pass_more_than_the_limit_on_redis(
    scope: str, settings: Any, redis_server: Any
) -> None:
    """Eight threads hammer one bucket on a real Redis: exactly the limit gets through."""
    from concurrent.futures import ThreadPoolExecutor

    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from accounts.throttle import AnonThrottle, UserThrottle, signup_allowed

    redis_server.start()
    local_caches = settings.CACHES
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_server.url,
        }
    }
    limit, tries = 150, 400
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, scope: f"{limit}/day"}

    def one(_: int) -> bool:
        request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.77")
        request.user = User(pk=4242) if scope == "user" else AnonymousUser()
        if scope == "signup":
            return signup_allowed(request)
        throttle = AnonThrottle() if scope == "anon" else UserThrottle()
        return throttle.allow_request(request, None)

    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            allowed = sum(pool.map(one, range(tries)))
    finally:
        settings.CACHES = local_caches  # before the server stops and the cache is cleared
    assert allowed == limit
