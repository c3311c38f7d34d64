"""The statistics page: what it shows, its filters with and without htmx, bad input,
permissions, and its number of queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns import demo
from campaigns.groups.services import create_group, fill_in_session
from campaigns.models import Campaign, Group, Membership
from campaigns.play.services import record_attempt
from campaigns.statistics.community import refresh_community

AsRole = Callable[[str], Client]
READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}


def page(group: Group) -> str:
    return f"/groups/{group.pk}/statistics/"


@pytest.mark.parametrize("role", list(READ_STATUS))
def test_members_see_the_page_and_outsiders_get_404(
    five_attempts_in_a_session: Group, as_role: AsRole, role: str
) -> None:
    assert as_role(role).get(page(five_attempts_in_a_session)).status_code == READ_STATUS[role]


def test_anonymous_visitors_are_sent_to_log_in(five_attempts_in_a_session: Group) -> None:
    response = Client().get(page(five_attempts_in_a_session))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_posting_is_405(five_attempts_in_a_session: Group, as_role: AsRole) -> None:
    assert as_role("owner").post(page(five_attempts_in_a_session)).status_code == 405


def test_the_heat_map_colours_each_clock_by_its_attempts_to_pass(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    body = as_role("viewer").get(page(five_attempts_in_a_session)).content.decode()
    assert '<g class="cell heat-4"><title>1-1: passed after 4 attempts</title>' in body
    assert '<g class="cell heat-1"><title>1-2: passed at attempt 1</title>' in body
    assert '<g class="cell unplayed"><title>1-3: not played</title>' in body
    assert '<g class="cell locked"><title>2-1: chapter not opened yet</title>' in body


def test_each_chart_has_words_or_a_table_beside_it(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(five_attempts_in_a_session)).content.decode()
    assert body.count('role="img"') == 3  # map, progress, Bonus tokens (no hint yet)
    assert "The clocks as a table" in body
    assert "Campaign 1: 2 clocks passed after 1 session" in body
    assert '<th scope="row">Ann</th>' in body and "2 of 5" in body


def test_a_rate_of_no_attempts_is_a_dash_not_zero_percent(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(five_attempts_in_a_session)).content.decode()
    tokens = body[body.index('class="chart stats-tokens"') :]
    tokens = tokens[: tokens.index("</svg>")]
    # 3 failures then 2 passes: tokens 0, 1, 2 then 3 face up, then 0 again
    assert re.findall(r'class="value"[^>]*>([^<]*)<', tokens) == ["50 %", "0 %", "0 %", "100 %"]
    sizes = body[body.index('id="sizes-title"') :]
    assert '<th scope="row">2</th>\n        <td>0 of 0</td>\n        <td>—</td>' in sizes


def test_text_in_charts_and_tables_is_escaped(
    group: Group, campaign: Campaign, as_role: AsRole, play: Callable[..., Any]
) -> None:
    player = group.players.create(name="<script>x</script>")
    session = fill_in_session(campaign, [player])
    play(campaign, "passed", session=session, opener=player)
    body = as_role("owner").get(page(group)).content.decode()
    assert "<script>x" not in body and "&lt;script&gt;x&lt;/script&gt;" in body


def test_an_empty_campaign_says_what_to_record(group: Group, as_role: AsRole) -> None:
    body = as_role("owner").get(page(group)).content.decode()
    assert "Record attempts at the table to colour the map." in body
    assert "Start a session and record its attempts" in body
    assert "Ask for a hint before an attempt" in body
    assert 'class="chart progress"' not in body


def test_the_community_sentence_compares_with_other_tables(
    five_attempts_in_a_session: Group, as_role: AsRole, bob: User
) -> None:
    for n, tries in enumerate([1, 2, 2, 3, 2]):
        other = create_group(bob, f"Table {n}")
        campaign = other.current_campaign()
        for outcome in ["failed"] * (tries - 1) + ["passed"]:
            record_attempt(campaign, bob, "1-1", outcome, 3)
            campaign.refresh_from_db()
    refresh_community()
    body = as_role("owner").get(page(five_attempts_in_a_session)).content.decode()
    assert "<strong>1-1</strong>: you took 4 tries; tables usually take 2" in body


# --- filters ----------------------------------------------------------------------------------


def test_the_filters_are_a_plain_get_form_that_htmx_also_drives(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(five_attempts_in_a_session)).content.decode()
    form = re.search(r"<form method=\"get\"[^>]*>", body)
    assert (
        form and f'action="{page(five_attempts_in_a_session)}"' in form[0] and 'hx-get="' in form[0]
    )
    assert '<select name="campaign">' in body and '<select name="players">' in body


def test_a_filter_narrows_the_figures(five_attempts_in_a_session: Group, as_role: AsRole) -> None:
    body = as_role("owner").get(page(five_attempts_in_a_session), {"players": 2}).content.decode()
    assert "Campaign 1, 2 players" in body
    assert '<g class="cell unplayed"><title>1-1: not played</title>' in body


def test_htmx_gets_only_the_statistics_body(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    response = as_role("owner").get(
        page(five_attempts_in_a_session), {"campaign": "all"}, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="statistics-body"') and "<html" not in body
    assert "All campaigns" in body
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"campaign": "abc"}, "Give a campaign id of this group, or all."),
        ({"players": "5"}, "Choose 2, 3 or 4 players, or nothing for every table size."),
    ],
)
def test_a_malformed_filter_is_a_400_that_says_why(
    five_attempts_in_a_session: Group, as_role: AsRole, params: dict[str, str], reason: str
) -> None:
    response = as_role("owner").get(page(five_attempts_in_a_session), params)
    assert response.status_code == 400 and reason in response.content.decode()


def test_a_campaign_of_another_group_is_a_404(
    five_attempts_in_a_session: Group, as_role: AsRole, bob: User
) -> None:
    other = create_group(bob, "Elsewhere").current_campaign()
    client = as_role("owner")
    assert client.get(page(five_attempts_in_a_session), {"campaign": other.pk}).status_code == 404
    assert (
        client.get(page(five_attempts_in_a_session), {"campaign": other.pk + 99}).status_code == 404
    )


def test_the_page_speaks_dutch_and_japanese(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    client.cookies["django_language"] = "nl"
    assert "Welke klokken" in client.get(page(five_attempts_in_a_session)).content.decode()
    client.cookies["django_language"] = "ja"
    assert "どの時計盤" in client.get(page(five_attempts_in_a_session)).content.decode()


def test_the_page_makes_at_most_13_queries_on_a_long_history(
    alice: User, login: Callable[[User], Client]
) -> None:
    demo.seed(1, 2000, seed=5)
    group = Group.objects.get(name__startswith="Demo table")
    Membership.objects.create(group=group, user=alice, role=Membership.Role.MEMBER)
    refresh_community()
    client = login(alice)
    params: dict[str, str]
    for params in ({}, {"campaign": "all", "players": "3"}):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(page(group), params)
        assert response.status_code == 200
        # 12, and one for the table's slip rate
        assert len(queries.captured_queries) <= 13, [q["sql"][:80] for q in queries]


def test_a_group_that_does_not_share_is_told_where_to_change_it(
    five_attempts_in_a_session: Group, as_role: AsRole
) -> None:
    five_attempts_in_a_session.share_with_community = False
    five_attempts_in_a_session.save(update_fields=["share_with_community"])
    body = as_role("viewer").get(page(five_attempts_in_a_session)).content.decode()
    assert "does not share its statistics with other tables" in body
    assert f'href="/groups/{five_attempts_in_a_session.pk}/settings/#sharing"' in body


# Attributes of an SVG element that hold numbers (a number, a list of them, or "x,y" pairs).
GEOMETRY = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "dy", "width", "height"}
LISTS = {"viewbox", "points"}


class _Geometry(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.values: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.depth += 1
        if self.depth:
            self.values += [(tag, name, value or "") for name, value in attrs]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.values += [(tag, name, value or "") for name, value in attrs]

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.depth -= 1


def _not_numbers(html: str) -> list[str]:
    parser = _Geometry()
    parser.feed(html)
    wrong = []
    for tag, name, value in parser.values:
        if name in GEOMETRY:
            numbers = [value]
        elif name in LISTS:
            # points="x,y x,y": the comma separates a pair, so each pair has exactly one
            numbers = [n for pair in value.split() for n in pair.split(",")]
            if name == "points" and any(pair.count(",") != 1 for pair in value.split()):
                wrong.append(f"<{tag} {name}={value!r}>")
                continue
        else:
            continue
        try:
            [float(number) for number in numbers]
        except ValueError:
            wrong.append(f"<{tag} {name}={value!r}>")
    return wrong


@pytest.mark.parametrize("language", ["en", "nl", "ja"])
def test_every_chart_keeps_its_numbers_as_numbers_in_every_language(
    alice: User, login: Callable[[User], Client], language: str
) -> None:
    """SVG reads "15.8", never the Dutch "15,8": a comma there hides a bar or a whisker."""
    demo.seed(1, 300, seed=7)
    group = Group.objects.get(name__startswith="Demo table")
    Membership.objects.create(group=group, user=alice, role=Membership.Role.MEMBER)
    refresh_community()
    client = login(alice)
    client.cookies["django_language"] = language
    html = client.get(page(group), {"campaign": "all"}).content.decode()
    charts = ("stats-heat", "stats-progress", "stats-tokens", "reliability", "bar-cell")
    assert all(f'class="chart {c}"' in html or f'class="{c}"' in html for c in charts)
    assert _not_numbers(html) == []
    assert re.search(r'x1="\d+\.\d+"', html), "a whisker with a decimal is drawn"


def test_the_page_says_how_many_more_hinted_clocks_the_table_needs(
    group: Group, as_role: Callable[[str], Client]
) -> None:
    response = as_role("viewer").get(page(group))
    assert "After 8 more hinted clocks, Timekeeper can tell" in response.content.decode()


def test_the_tables_rate_is_said_as_one_card_in_so_many() -> None:
    from campaigns.statistics.table_rate import TableRate
    from campaigns.statistics.views import table_words

    assert table_words(TableRate(0.11, (0.07, 0.16), 23, 0)) == (
        "Your table plays like one that misplaces about 1 card in 9 (between 1 in 14 and "
        "1 in 6), from 23 hinted clocks."
    )
