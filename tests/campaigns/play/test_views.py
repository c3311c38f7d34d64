"""The play pages: the group page, one-tap recording (with and without htmx), the live
check, Undo and the Sleeve."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.forms import LAYOUT_EXAMPLE
from campaigns.groups.services import new_campaign
from campaigns.models import Campaign, Group
from campaigns.play.services import record_attempt, skip
from campaigns.play.state import campaign_state
from rules.catalogue import get_clock
from rules.inputs import check_layout
from tests.campaigns.shapes import FAILING_1_1, PASSING_1_1, AsRole, PageUrl, Tap


def test_anonymous_visitors_are_sent_to_log_in(group_url: PageUrl, group: Group) -> None:
    response = Client().get(group_url(group))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_group_page_shows_the_next_clock(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").get(group_url(group))
    content = response.content.decode()
    assert 'class="chapter-map"' in content and 'data-clock="1-1"' in content
    assert 'name="action" value="passed"' in content and "hx-post" in content


def test_viewers_see_no_buttons(group_url: PageUrl, group: Group, as_role: AsRole) -> None:
    content = as_role("viewer").get(group_url(group)).content.decode()
    assert 'data-clock="1-1"' in content and 'value="passed"' not in content


def test_a_tap_records_and_redirects_without_javascript(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    response = tap(as_role("member"), group, "failed")
    assert response.status_code == 302 and response["Location"] == group_url(group)
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 1


def test_a_tap_with_htmx_answers_the_board_partial(
    tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    response = tap(as_role("member"), group, "passed", htmx=True)
    content = response.content.decode()
    assert response.status_code == 200 and content.lstrip().startswith('<div id="board"')
    assert "<html" not in content and 'data-clock="1-2"' in content
    assert response["Vary"].count("HX-Request") == 1


def test_the_group_page_answers_its_board_to_htmx(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").get(group_url(group), HTTP_HX_REQUEST="true")
    assert response.content.decode().lstrip().startswith('<div id="board"')


def test_skip_puts_the_clock_in_the_sleeve(
    tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    assert campaign_state(campaign).sleeve == ["1-1"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"players": 5}, "players"),
        ({"clock": "11-1"}, "clock"),
        ({"clock": "3-1"}, "clock"),
        ({"layout": FAILING_1_1}, "layout"),
        ({"layout": "S1 | S1"}, "layout"),
        ({"action": "won"}, None),
    ],
)
def test_bad_input_is_a_form_error_and_records_nothing(
    group_url: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    data: dict[str, Any],
    field: str | None,
) -> None:
    body = {"clock": "1-1", "players": 3, "action": "passed", **data}
    response = as_role("owner").post(group_url(group, "record/"), body)
    assert response.status_code == 400
    assert response.context["form"].has_error(field or "__all__")
    assert campaign.attempts.count() == 0 and campaign.events.count() == 0


def test_a_bad_tap_with_htmx_swaps_the_form_with_its_error(
    tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    response = tap(as_role("owner"), group, "passed", htmx=True, layout=FAILING_1_1)
    assert response.status_code == 200 and b"errorlist" in response.content
    assert campaign.attempts.count() == 0


def test_a_double_submit_of_the_same_form_records_once(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "passed", request_key="form-1")
    response = client.post(
        group_url(group, "record/"),
        {"clock": "1-1", "players": 3, "action": "passed", "request_key": "form-1"},
    )
    assert response.status_code == 302
    assert campaign.attempts.count() == 1


def test_a_layout_is_recorded_with_its_verdict(
    tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    tap(as_role("owner"), group, "passed", layout=PASSING_1_1)
    verdict = campaign.attempts.get().verdict
    assert verdict is not None and verdict["passed"] is True


def test_the_live_check_shows_the_engines_reasons(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("viewer").post(
        group_url(group, "check/"), {"clock": "1-1", "layout": FAILING_1_1}, HTTP_HX_REQUEST="true"
    )
    content = response.content.decode()
    assert response.status_code == 200 and content.lstrip().startswith('<div id="verdict"')
    assert "This layout fails" in content and "Segment 6" in content
    assert 'data-clock="1-1"' in content  # the face, with the cards typed


def test_the_live_check_shows_parse_errors(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        group_url(group, "check/"), {"clock": "1-1", "layout": "S1 X9"}
    )
    assert b"badge bad" in response.content


def test_undo_reverts_the_last_tap(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("member")
    tap(client, group, "failed")
    event = campaign.events.get()
    response = client.post(group_url(group, "undo/"), {"event": event.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 0 and campaign.attempts.count() == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_an_undo_that_names_no_change_undoes_nothing(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole, htmx: bool
) -> None:
    """A hand-made POST without ``event`` is refused like a stale undo (409, the fresh board):
    it must not revert a change the phone never showed."""
    client = as_role("member")
    tap(client, group, "passed")
    tap(client, group, "failed")
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(group_url(group, "undo/"), {"expected_event": 0}, headers=headers)
    # htmx swaps in the fresh board (200) and hears the refusal; a plain form gets 409.
    assert response.status_code == (200 if htmx else 409)
    assert "nothing was undone" in response.content.decode()
    assert ("timekeeper:refused" in response.get("HX-Trigger", "")) == htmx
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 2 and campaign.bonus_tokens == 1
    assert not campaign.events.filter(undone__isnull=False).exists()


def test_a_double_tap_on_undo_undoes_once(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("member")
    tap(client, group, "passed")
    tap(client, group, "failed")
    event = campaign.events.order_by("-id").first()
    assert event is not None
    for _ in range(2):
        client.post(group_url(group, "undo/"), {"event": event.pk})
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 1 and campaign.bonus_tokens == 0


def test_the_sleeve_page_puts_a_clock_back_on_top(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    assert b"1-1" in client.get(group_url(group, "sleeve/")).content
    response = client.post(group_url(group, "sleeve/"), {"clock": "1-1"})
    assert response.status_code == 302
    assert campaign_state(campaign).next_clock == "1-1"


def test_the_sleeve_page_refuses_a_clock_not_in_it(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    assert as_role("owner").post(group_url(group, "sleeve/"), {"clock": "1-1"}).status_code == 400


def test_the_group_page_counts_up_to_the_40th_attempted_clock_then_opens_rebirth(
    group_url: PageUrl, group: Group, as_role: AsRole, alice: User
) -> None:
    campaign = new_campaign(group, start_chapter=10)  # 36 clocks passed
    for clock in ("10-1", "10-2", "10-3"):
        record_attempt(campaign, alice, clock, "failed", 3)
        skip(campaign, alice, clock)
    content = as_role("member").get(group_url(group)).content.decode()
    assert "Rebirth: 39 of 40 clocks attempted" in content
    assert "Rebirth unlocked" not in content and "map-rebirth rebirth-locked" in content
    record_attempt(campaign, alice, "10-4", "failed", 3)
    content = as_role("member").get(group_url(group)).content.decode()
    assert "Rebirth unlocked" in content and "map-rebirth rebirth-open" in content
    assert "of 40 clocks attempted" not in content


def test_a_completed_rebirth_campaign_says_so_on_the_group_page(
    group_url: PageUrl, group: Group, as_role: AsRole, alice: User
) -> None:
    for kind in (Campaign.Kind.NORMAL, Campaign.Kind.REBIRTH):
        campaign = new_campaign(group, kind, start_chapter=10)
        for clock in ("10-1", "10-2", "10-3", "10-4"):
            record_attempt(campaign, alice, clock, "passed", 3)
    content = as_role("member").get(group_url(group)).content.decode()
    assert '<span class="badge warn">Rebirth</span>' in content
    assert "map-rebirth rebirth-locked" not in content and "map-rebirth next" in content
    record_attempt(campaign, alice, "rebirth", "passed", 3)
    content = as_role("member").get(group_url(group)).content.decode()
    assert "Campaign complete: all clocks passed!" in content
    assert '<span class="badge warn">Rebirth</span>' in content
    assert "map-rebirth passed" in content and 'id="play-title"' not in content
    assert "complete" in as_role("member").get("/").content.decode()


def test_the_live_check_shows_parse_errors_in_dutch(group: Group, as_role: AsRole) -> None:
    response = as_role("owner").post(
        f"/groups/{group.pk}/check/",
        {"clock": "1-1", "layout": "S1 X9"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert response.status_code == 200
    assert response.context["verdict_error"] == (
        "Een kaartverdeling in segmentvorm heeft zes groepen gescheiden door '|' "
        "(segmenten 1–6); deze heeft er 1."
    )


def test_the_layout_example_is_a_whole_layout_that_the_engine_judges() -> None:
    verdict = check_layout(get_clock("1-1"), LAYOUT_EXAMPLE)
    assert verdict.passed


def test_the_group_page_shows_the_valid_layout_example(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(group_url(group)).content.decode()
    assert f'placeholder="{LAYOUT_EXAMPLE}"' in body


def test_a_failure_with_three_tokens_up_does_not_promise_a_fourth(
    tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    for _ in range(3):
        tap(client, group, "failed", follow=True)
    body = tap(client, group, "failed", follow=True).content.decode()
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 3
    assert "All three Bonus tokens are already face up." in body
    assert "one more Bonus token" not in body


def test_a_double_tap_on_put_on_top_puts_the_clock_back_once(
    group_url: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    body = client.get(group_url(group, "sleeve/")).content.decode()
    field = re.search(r'name="request_key" value="([^"]+)"', body)
    assert field is not None
    key = field[1]
    responses = [
        client.post(group_url(group, "sleeve/"), {"clock": "1-1", "request_key": key})
        for _ in range(2)
    ]
    assert [r.status_code for r in responses] == [302, 302]
    assert campaign.events.filter(kind="retrieved").count() == 1
