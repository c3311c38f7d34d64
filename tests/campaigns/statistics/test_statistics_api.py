"""The statistics API and CSV: the documented shape, the schema, bad input, permissions, and
a number of queries that does not grow with the history."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaigns import demo
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import Attempt, Campaign, Group, Membership
from solver.models import HintRequest

ApiAs = Callable[[str], APIClient]
ROLES = ["owner", "member", "viewer", "outsider"]
READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}


def url(group: Group, tail: str = "statistics/") -> str:
    return f"/api/groups/{group.pk}/{tail}"


FIELDS = {
    "scope": {"campaigns", "players"},
    "totals": {
        "sessions",
        "attempts",
        "passed",
        "failed",
        "skips",
        "clocks_passed",
        "first_try_passes",
        "failed_winnable",
        "failed_winnable_unknown",
        "minutes",
    },
    "clocks": {
        "clock",
        "chapter",
        "attempts",
        "passes",
        "skips",
        "attempts_to_pass",
        "first_try",
        "minutes",
        "community",
    },
    "chapters": {"chapter", "attempts", "passes", "clocks_passed"},
    "players": {"id", "name", "attempts", "passes", "rate", "interval", "opened", "opened_passes"},
    "sessions": {"id", "date", "attempts", "passes", "clocks_passed_after", "minutes"},
    "streaks": {"longest_pass", "longest_fail", "current"},
    "hints": {"asked", "rated", "predicted_mean", "actual_rate", "brier", "bins", "at_table"},
    "table": {"slip_rate", "interval", "hinted_attempts", "needed"},
}


def test_the_answer_has_exactly_the_documented_fields(
    two_attempts_played: Group, api_as: ApiAs
) -> None:
    data = api_as("owner").get(url(two_attempts_played)).json()
    assert set(data) == {*FIELDS, "by_players", "by_bonus_tokens"}
    for name in ("scope", "totals", "streaks", "hints", "table"):
        assert set(data[name]) == FIELDS[name], name
    for name in ("clocks", "chapters", "players", "sessions"):
        assert data[name] and all(set(row) == FIELDS[name] for row in data[name]), name
    assert set(data["by_players"]) == {"2", "3", "4"}
    assert all(
        set(v) == {"attempts", "passes", "rate", "interval"} for v in data["by_players"].values()
    )
    assert set(data["by_bonus_tokens"]) == {"0", "1", "2", "3"}
    assert all(set(v) == {"attempts", "passes"} for v in data["by_bonus_tokens"].values())
    assert all(
        set(b) == {"from", "to", "hints", "predicted", "actual"} for b in data["hints"]["bins"]
    )
    assert set(data["streaks"]["current"]) == {"outcome", "length"}


def test_the_answer_carries_the_figures(
    two_attempts_played: Group, campaign: Campaign, api_as: ApiAs
) -> None:
    data = api_as("viewer").get(url(two_attempts_played)).json()
    assert data["scope"] == {"campaigns": [campaign.pk], "players": None}
    assert data["clocks"][0] == {
        "clock": "1-1",
        "chapter": 1,
        "attempts": 2,
        "passes": 1,
        "skips": 0,
        "attempts_to_pass": 2,
        "first_try": False,
        "minutes": None,
        "community": None,
    }
    assert data["by_players"]["2"] == {
        "attempts": 1,
        "passes": 1,
        "rate": 1.0,
        "interval": [
            pytest.approx(0.2065, abs=1e-4),
            1.0,
        ],
    }
    assert data["streaks"]["current"] == {"outcome": "passed", "length": 1}
    assert [b["from"] for b in data["hints"]["bins"]] == [0.0, 0.2, 0.4, 0.6, 0.8]


RATES = [round(i / 50, 2) for i in range(26)]
CURVE = {"rates": RATES, "passes": [0.8 * (1 - rate) ** 12 for rate in RATES]}


def _hinted(attempt: Attempt, user: User, curve: dict[str, Any] | None = CURVE) -> None:
    """A finished hint asked for ``attempt``, with its pass curve (None: not computed yet)."""
    HintRequest.objects.create(
        user=user,
        group=attempt.campaign.group,
        campaign=attempt.campaign,
        attempt=attempt,
        clock_id=attempt.clock_id,
        clock_definition={},
        colours="SSMM/MMSS/SMSM",
        players=3,
        face_up=3,
        input_hash=f"hint-{attempt.pk}",
        status=HintRequest.Status.DONE,
        result={"pass_rate": 0.4},
        pass_curve=curve,
        finished_at=attempt.created,
    )


def test_a_table_whose_hinted_clocks_fail_slips_more_than_the_default(
    group: Group, campaign: Campaign, play: Callable[..., Any], alice: User, api_as: ApiAs
) -> None:
    for _ in range(10):
        _hinted(play(campaign, "failed"), alice)
    _hinted(play(campaign, "failed"), alice, curve=None)  # not counted until beat fills it
    table = api_as("viewer").get(url(group)).json()["table"]
    assert table["hinted_attempts"] == 10 and table["needed"] == 0
    assert table["slip_rate"] > 0.05
    low, high = table["interval"]
    assert low < table["slip_rate"] < high


def test_below_eight_hinted_clocks_the_table_has_no_rate_and_says_how_many_more(
    group: Group, campaign: Campaign, play: Callable[..., Any], alice: User, api_as: ApiAs
) -> None:
    for outcome in ("failed", "passed", "failed"):
        _hinted(play(campaign, outcome), alice)
    play(campaign, "failed")  # no hint: not counted
    table = api_as("viewer").get(url(group)).json()["table"]
    assert table == {"slip_rate": None, "interval": None, "hinted_attempts": 3, "needed": 5}


def test_filters_by_campaign_and_table_size(two_attempts_played: Group, api_as: ApiAs) -> None:
    client = api_as("member")
    old = two_attempts_played.current_campaign()
    new = new_campaign(two_attempts_played)
    assert client.get(url(two_attempts_played), {"players": 2}).json()["totals"]["attempts"] == 0
    everything = client.get(url(two_attempts_played), {"campaign": "all", "players": "2"}).json()
    assert everything["scope"] == {"campaigns": [old.pk, new.pk], "players": 2}
    assert everything["totals"]["attempts"] == 1
    assert (
        client.get(url(two_attempts_played), {"campaign": old.pk}).json()["totals"]["attempts"] == 2
    )


def test_the_schema_documents_every_field(api_as: ApiAs, two_attempts_played: Group) -> None:
    schema = api_as("owner").get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    operation = schema["paths"]["/api/groups/{group_id}/statistics/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"campaign", "players"}
    top = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    data = api_as("owner").get(url(two_attempts_played)).json()

    def check(value: Any, spec: dict[str, Any], where: str) -> None:
        if "$ref" in spec:
            spec = components[spec["$ref"].rsplit("/", 1)[1]]
        if "allOf" in spec:
            spec = components[spec["allOf"][0]["$ref"].rsplit("/", 1)[1]]
        if isinstance(value, dict):
            assert set(value) == set(spec["properties"]), where
            for key, item in value.items():
                check(item, spec["properties"][key], f"{where}.{key}")
        elif isinstance(value, list) and value and spec.get("items"):
            check(value[0], spec["items"], f"{where}[0]")

    check(data, {"$ref": top}, "statistics")
    assert "/api/groups/{group_id}/statistics.csv" in schema["paths"]


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"campaign": "abc"}, "campaign"),
        ({"campaign": "-1"}, "campaign"),
        ({"campaign": "1.5"}, "campaign"),
        ({"players": "5"}, "players"),
        ({"players": "three"}, "players"),
        ({"players": "1"}, "players"),
    ],
)
@pytest.mark.parametrize("tail", ["statistics/", "statistics.csv"])
def test_malformed_parameters_are_a_400_naming_them(
    two_attempts_played: Group, api_as: ApiAs, params: dict[str, str], field: str, tail: str
) -> None:
    response = api_as("owner").get(url(two_attempts_played, tail), params)
    assert response.status_code == 400
    assert set(response.json()) == {field} and response.json()[field][0]


@pytest.mark.parametrize("tail", ["statistics/", "statistics.csv"])
def test_a_campaign_of_another_group_or_none_is_a_404(
    two_attempts_played: Group, api_as: ApiAs, bob: User, tail: str
) -> None:
    other = create_group(bob, "Elsewhere").current_campaign()
    client = api_as("owner")
    for campaign in (other.pk, other.pk + 1000, "99999999999999999999999999"):
        assert client.get(url(two_attempts_played, tail), {"campaign": campaign}).status_code == 404


def test_the_refusal_is_in_the_readers_language(two_attempts_played: Group, api_as: ApiAs) -> None:
    client = api_as("owner")
    english = client.get(url(two_attempts_played), {"players": 5}).json()["players"][0]
    dutch = client.get(url(two_attempts_played), {"players": 5}, HTTP_ACCEPT_LANGUAGE="nl").json()
    assert dutch["players"][0] != english


# --- permissions ------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("tail", ["statistics/", "statistics.csv"])
def test_members_read_and_outsiders_get_404(
    two_attempts_played: Group, api_as: ApiAs, role: str, tail: str
) -> None:
    assert api_as(role).get(url(two_attempts_played, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("tail", ["statistics/", "statistics.csv"])
def test_writing_is_405(two_attempts_played: Group, api_as: ApiAs, tail: str) -> None:
    assert api_as("owner").post(url(two_attempts_played, tail)).status_code == 405


def test_anonymous_callers_are_refused(two_attempts_played: Group) -> None:
    assert APIClient().get(url(two_attempts_played)).status_code in (401, 403)
    assert APIClient().get(url(two_attempts_played, "statistics.csv")).status_code in (401, 403)


# --- CSV ----------------------------------------------------------------------------------------


def test_the_csv_holds_the_clock_table_then_the_player_table(
    two_attempts_played: Group, api_as: ApiAs
) -> None:
    response = api_as("viewer").get(url(two_attempts_played, "statistics.csv"), {"campaign": "all"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    clocks, players = response.content.decode().split("\r\n\r\n")
    clock_rows = list(csv.reader(io.StringIO(clocks)))
    assert clock_rows[0][:4] == ["clock", "chapter", "attempts", "passes"]
    assert clock_rows[1] == ["1-1", "1", "2", "1", "0", "2", "false", "", "", ""]
    assert len(clock_rows) == 41
    player_rows = list(csv.reader(io.StringIO(players)))
    assert player_rows[0][:3] == ["player", "name", "attempts"]
    assert [row[1] for row in player_rows[1:]] == ["Ann", "Ben", "Cleo"]


def test_a_player_name_cannot_become_a_spreadsheet_formula(
    two_attempts_played: Group, api_as: ApiAs
) -> None:
    two_attempts_played.players.create(name="=HYPERLINK(1)")
    text = api_as("owner").get(url(two_attempts_played, "statistics.csv")).content.decode()
    assert ",'=HYPERLINK(1)," in text


# --- queries ------------------------------------------------------------------------------------


def _seeded(alice: User, attempts: int) -> Group:
    before = set(Group.objects.values_list("id", flat=True))
    demo.seed(1, attempts, seed=3)
    group = Group.objects.exclude(id__in=before).get()
    Membership.objects.create(group=group, user=alice, role=Membership.Role.VIEWER)
    assert sum(c.attempts.count() for c in group.campaigns.all()) == attempts
    return group


def _queries(client: APIClient | Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, {"campaign": "all"})
    assert response.status_code == 200
    return len(queries.captured_queries)


def test_the_api_makes_as_many_queries_at_2000_attempts_as_at_10(
    alice: User, api: Callable[[User], APIClient]
) -> None:
    small, large = _seeded(alice, 10), _seeded(alice, 2000)
    client = api(alice)
    # the membership (access to the group), the computation's nine queries, then the
    # table's slip rate
    assert _queries(client, url(small)) == _queries(client, url(large)) == 11
