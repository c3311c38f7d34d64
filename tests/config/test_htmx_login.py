"""An htmx request from someone signed out opens the log-in page (config.htmx_login) instead
of having the log-in page swapped into the part of the page htmx was updating."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.test import Client, RequestFactory

from campaigns.groups.services import create_group
from config.htmx_login import HtmxLoginRedirectMiddleware

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def group_id() -> int:
    alice = User.objects.create_user("alice", password="password")
    return create_group(alice, "Tuesday table", ["Ann", "Ben"]).pk


def test_a_signed_out_poll_sends_the_browser_to_log_in_and_back_to_its_page(
    client: Client, group_id: int
) -> None:
    page = f"http://testserver/groups/{group_id}/statistics/?players=3"
    response = client.get(
        f"/groups/{group_id}/statistics/?players=2", headers={**HTMX, "HX-Current-URL": page}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == (
        f"/accounts/login/?next=%2Fgroups%2F{group_id}%2Fstatistics%2F%3Fplayers%3D3"
    )
    assert response.content == b""  # nothing for htmx to swap in


def test_a_signed_out_post_from_htmx_is_sent_to_log_in_too(client: Client, group_id: int) -> None:
    response = client.post(
        f"/groups/{group_id}/record/",
        {"action": "passed"},
        headers={**HTMX, "HX-Current-URL": f"http://testserver/groups/{group_id}/"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgroups%2F{group_id}%2F"


@pytest.mark.parametrize(
    "current", [None, "https://elsewhere.example/groups/1/", "javascript:alert(1)"]
)
def test_without_a_page_of_ours_the_log_in_returns_to_what_was_asked(
    client: Client, group_id: int, current: str | None
) -> None:
    headers = dict(HTMX) if current is None else {**HTMX, "HX-Current-URL": current}
    response = client.get(f"/groups/{group_id}/", headers=headers)
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgroups%2F{group_id}%2F"


def test_without_htmx_the_log_in_redirect_is_left_as_it_is(client: Client, group_id: int) -> None:
    response = client.get(f"/groups/{group_id}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/groups/{group_id}/"
    assert "HX-Redirect" not in response


def test_other_redirects_reach_htmx_unchanged() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponseRedirect("/groups/7/")

    request = RequestFactory().get("/hints/3/what-if/", headers=HTMX)
    response = HtmxLoginRedirectMiddleware(view)(request)
    assert response.status_code == 302 and response["Location"] == "/groups/7/"


def test_a_signed_in_member_polls_as_before(client: Client, group_id: int) -> None:
    client.force_login(User.objects.get(username="alice"))
    response = client.get(f"/groups/{group_id}/", headers=HTMX)
    assert response.status_code == 200 and "HX-Redirect" not in response
