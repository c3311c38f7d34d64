"""Where an invite link leads: under `make serve` the plain-HTTP address, even when the owner
views Members over HTTPS (a friend's phone has not trusted the local CA yet); with a real
domain, HTTPS. The join page, reached over plain HTTP, offers the trust step and HTTPS."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Group

pytestmark = pytest.mark.django_db


def _members(client: Client, group: Group, host: str, secure: bool) -> str:
    response = client.get(f"/groups/{group.pk}/members/", headers={"Host": host}, secure=secure)
    assert response.status_code == 200
    return str(response.context["invite"])


def test_over_make_serve_s_https_the_invite_leads_to_plain_http(
    serve_settings: None, group: Group, alice: User, login: Callable[[User], Client]
) -> None:
    invite = _members(login(alice), group, "192.0.2.2:8443", secure=True)
    assert invite == f"http://192.0.2.2:8000/join/{group.invite_token}/"


def test_an_ipv6_host_keeps_its_brackets(
    serve_settings: None, group: Group, alice: User, login: Callable[[User], Client]
) -> None:
    invite = _members(login(alice), group, "[fd00::2]:8443", secure=True)
    assert invite == f"http://[fd00::2]:8000/join/{group.invite_token}/"


def test_over_plain_http_the_invite_stays_there(
    serve_settings: None, group: Group, alice: User, login: Callable[[User], Client]
) -> None:
    invite = _members(login(alice), group, "192.0.2.2:8000", secure=False)
    assert invite == f"http://192.0.2.2:8000/join/{group.invite_token}/"


def test_with_a_real_domain_the_invite_is_https(
    settings: Any, group: Group, alice: User, login: Callable[[User], Client]
) -> None:
    settings.DOMAIN = "play.example.org"
    settings.ALLOWED_HOSTS = ["play.example.org"]
    invite = _members(login(alice), group, "play.example.org", secure=True)
    assert invite == f"https://play.example.org/join/{group.invite_token}/"


def test_table_mode_s_qr_code_carries_the_same_plain_http_link(
    serve_settings: None, group: Group, alice: User, login: Callable[[User], Client]
) -> None:
    response = login(alice).get(
        f"/groups/{group.pk}/table/", headers={"Host": "192.0.2.2:8443"}, secure=True
    )
    assert response.context["invite"] == f"http://192.0.2.2:8000/join/{group.invite_token}/"


@pytest.mark.parametrize("signed_in", [True, False])
def test_the_join_page_over_plain_http_offers_the_trust_step_and_https(
    serve_settings: None,
    group: Group,
    charlie: User,
    login: Callable[[User], Client],
    signed_in: bool,
) -> None:
    client = login(charlie) if signed_in else Client()
    join = f"/join/{group.invite_token}/"
    html = client.get(join, headers={"Host": "192.0.2.2:8000"}).content.decode()
    assert 'href="/trust/"' in html
    assert f'href="https://192.0.2.2:8443{join}"' in html


def test_the_join_page_over_https_offers_no_switch(
    serve_settings: None, group: Group, charlie: User, login: Callable[[User], Client]
) -> None:
    join = f"/join/{group.invite_token}/"
    html = login(charlie).get(join, headers={"Host": "192.0.2.2:8443"}, secure=True)
    assert "Open this invite over HTTPS" not in html.content.decode()
