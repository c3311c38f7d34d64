"""What the campaign tests of several rooms share: the types of the conftest fixtures'
helpers, the roles, and clock 1-1's layouts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from campaigns.models import Attempt, Group

Play = Callable[..., Attempt]  # the play fixture (tests/campaigns/conftest.py)
PageUrl = Callable[..., str]  # the group_url fixture
Tap = Callable[..., Any]  # the tap fixture
AsRole = Callable[[str], Client]  # the as_role fixture (tests/conftest.py)
ApiAs = Callable[[str], APIClient]  # the api_as fixture
ROLES = ["owner", "member", "viewer", "outsider"]
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"
BAD_CARD = PASSING_1_1.replace("S1", "S13")


def url(group: Group, tail: str) -> str:
    return f"/api/groups/{group.pk}/{tail}"
