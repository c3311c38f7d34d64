"""Viewers of a group read its hints but attach none to it: not on the page, not through the
API, not by retrying a group hint (the rule itself is in solver.services.request_hint)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Group
from solver import jobs, services
from solver.hint_inputs import parse_input
from solver.models import HintRequest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit_at_once")]
COLOURS = "SSM/MMS/SMM/SSM"


def test_a_viewer_cannot_ask_for_a_group_hint_through_the_api(
    api: Callable[[User], APIClient], group: Group, bob: User, dave: User, sent: list[int]
) -> None:
    body = {"clock": "1-1", "colours": COLOURS, "group": group.pk}
    assert api(dave).post("/api/hints/", body, format="json").status_code == 403
    assert not HintRequest.objects.exists() and sent == []
    # A member may; and the viewer may still ask for a hint of their own.
    assert api(bob).post("/api/hints/", body, format="json").status_code == 202
    mine = {"clock": "1-1", "colours": COLOURS}
    assert api(dave).post("/api/hints/", mine, format="json").status_code == 202
    assert HintRequest.objects.filter(user=dave, group=None).count() == 1


def test_a_viewer_cannot_ask_for_a_group_hint_on_the_page(
    group: Group, dave: User, login: Callable[[User], Client], sent: list[int]
) -> None:
    client = login(dave)
    assert client.get(f"/hints/new/?group={group.pk}").status_code == 403
    data = {"clock": "1-1", "face_up": 4, "colours": COLOURS, "group": group.pk}
    assert client.post("/hints/new/", data).status_code == 403
    assert not HintRequest.objects.exists()
    # The group page offers them no such link.
    html = client.get(f"/groups/{group.pk}/").content.decode()
    assert f"/hints/new/?group={group.pk}" not in html


def test_a_viewer_cannot_retry_a_group_hint(
    group: Group, alice: User, dave: User, login: Callable[[User], Client], sent: list[int]
) -> None:
    hint, _ = services.request_hint(alice, parse_input("1-1", COLOURS, 4), group=group)
    jobs.fail(hint.pk, HintRequest.Failure.WORKER_LOST, "lost")
    client = login(dave)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert f'action="/hints/{hint.pk}/retry/"' not in html
    assert client.post(f"/hints/{hint.pk}/retry/").status_code == 403
    assert HintRequest.objects.count() == 1


def test_the_service_refuses_a_viewer_and_an_outsider(
    group: Group, dave: User, charlie: User
) -> None:
    for user in (dave, charlie):
        with pytest.raises(PermissionDenied):
            services.request_hint(user, parse_input("1-1", COLOURS, 4), group=group)
