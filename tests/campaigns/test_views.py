"""The campaign pages: permissions, one-tap recording (with and without htmx), forms."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from campaigns.forms import LAYOUT_EXAMPLE
from campaigns.groups.services import current_session, new_campaign
from campaigns.models import Campaign, ClockTranscription, Group, Session
from campaigns.play.services import record_attempt, skip
from campaigns.play.state import campaign_state
from rules.catalogue import get_clock
from rules.inputs import check_layout

AsRole = Callable[[str], Client]
PageUrl = Callable[..., str]  # the page fixture (tests/campaigns/conftest.py)
Tap = Callable[..., Any]  # the tap fixture
ROLES = ["owner", "member", "viewer", "outsider"]
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"
FAILING_1_1 = "S1 | S2 | S3 | S4 M1 | S5 M3 M4 | S6 S7 S8 M2"


def test_the_dashboard_lists_my_groups(group: Group, as_role: AsRole) -> None:
    response = as_role("member").get("/")
    assert response.status_code == 200
    assert b"Tuesday table" in response.content and b"1-1" in response.content


def test_the_dashboard_hides_other_groups(group: Group, as_role: AsRole) -> None:
    assert b"Tuesday table" not in as_role("outsider").get("/").content


def test_the_dashboard_creates_a_group(
    page: PageUrl, alice: User, login: Callable[[User], Client]
) -> None:
    response = login(alice).post("/", {"name": "Fridays", "players": "Ann\nBen\n"})
    group = Group.objects.get(name="Fridays")
    assert response.status_code == 302 and response["Location"] == page(group)
    assert group.players.count() == 2


def test_a_too_long_group_name_is_a_form_error(
    alice: User, login: Callable[[User], Client]
) -> None:
    response = login(alice).post("/", {"name": "x" * 81})
    assert response.status_code == 400
    assert "name" in response.context["form"].errors and not Group.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(page: PageUrl, group: Group) -> None:
    response = Client().get(page(group))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_group_page_shows_the_next_clock(page: PageUrl, group: Group, as_role: AsRole) -> None:
    response = as_role("owner").get(page(group))
    content = response.content.decode()
    assert 'class="chapter-map"' in content and 'data-clock="1-1"' in content
    assert 'name="action" value="passed"' in content and "hx-post" in content


def test_viewers_see_no_buttons(page: PageUrl, group: Group, as_role: AsRole) -> None:
    content = as_role("viewer").get(page(group)).content.decode()
    assert 'data-clock="1-1"' in content and 'value="passed"' not in content


def test_a_tap_records_and_redirects_without_javascript(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    response = tap(as_role("member"), group, "failed")
    assert response.status_code == 302 and response["Location"] == page(group)
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
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").get(page(group), HTTP_HX_REQUEST="true")
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
    page: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    data: dict[str, Any],
    field: str | None,
) -> None:
    body = {"clock": "1-1", "players": 3, "action": "passed", **data}
    response = as_role("owner").post(page(group, "record/"), body)
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
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "passed", request_key="form-1")
    response = client.post(
        page(group, "record/"),
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
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("viewer").post(
        page(group, "check/"), {"clock": "1-1", "layout": FAILING_1_1}, HTTP_HX_REQUEST="true"
    )
    content = response.content.decode()
    assert response.status_code == 200 and content.lstrip().startswith('<div id="verdict"')
    assert "This layout fails" in content and "Segment 6" in content
    assert 'data-clock="1-1"' in content  # the face, with the cards typed


def test_the_live_check_shows_parse_errors(page: PageUrl, group: Group, as_role: AsRole) -> None:
    response = as_role("owner").post(page(group, "check/"), {"clock": "1-1", "layout": "S1 X9"})
    assert b"badge bad" in response.content


def test_undo_reverts_the_last_tap(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("member")
    tap(client, group, "failed")
    event = campaign.events.get()
    response = client.post(page(group, "undo/"), {"event": event.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.bonus_tokens == 0 and campaign.attempts.count() == 0


@pytest.mark.parametrize("htmx", [True, False])
def test_an_undo_that_names_no_change_undoes_nothing(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole, htmx: bool
) -> None:
    """A hand-made POST without ``event`` is refused like a stale undo (409, the fresh board):
    it must not revert a change the phone never showed."""
    client = as_role("member")
    tap(client, group, "passed")
    tap(client, group, "failed")
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(page(group, "undo/"), {"expected_event": 0}, headers=headers)
    # htmx swaps in the fresh board (200) and hears the refusal; a plain form gets 409.
    assert response.status_code == (200 if htmx else 409)
    assert "nothing was undone" in response.content.decode()
    assert ("timekeeper:refused" in response.get("HX-Trigger", "")) == htmx
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 2 and campaign.bonus_tokens == 1
    assert not campaign.events.filter(undone__isnull=False).exists()


def test_a_double_tap_on_undo_undoes_once(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("member")
    tap(client, group, "passed")
    tap(client, group, "failed")
    event = campaign.events.order_by("-id").first()
    assert event is not None
    for _ in range(2):
        client.post(page(group, "undo/"), {"event": event.pk})
    campaign.refresh_from_db()
    assert campaign.attempts.count() == 1 and campaign.bonus_tokens == 0


def test_the_sleeve_page_puts_a_clock_back_on_top(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    assert b"1-1" in client.get(page(group, "sleeve/")).content
    response = client.post(page(group, "sleeve/"), {"clock": "1-1"})
    assert response.status_code == 302
    assert campaign_state(campaign).next_clock == "1-1"


def test_the_sleeve_page_refuses_a_clock_not_in_it(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    assert as_role("owner").post(page(group, "sleeve/"), {"clock": "1-1"}).status_code == 400


def test_clocks_of_unopened_chapters_stay_hidden(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    hidden = client.get(page(group, "clocks/3-1/"))
    assert b"data-clock" not in hidden.content and b"spoilers=1" in hidden.content
    shown = client.get(page(group, "clocks/3-1/") + "?spoilers=1")
    assert b'data-clock="3-1"' in shown.content


def test_an_unknown_clock_page_is_404(page: PageUrl, group: Group, as_role: AsRole) -> None:
    assert as_role("owner").get(page(group, "clocks/12-9/")).status_code == 404


def test_the_settings_page_starts_a_campaign_mid_game(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("member").post(
        page(group, "settings/"), {"kind": "normal", "start_chapter": 5}
    )
    assert response.status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "5-1"


def test_the_settings_page_marks_clocks_already_passed(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    data = {"kind": "normal", "start_chapter": 3, "passed": ["3-1", "3-2", "3-3"]}
    assert as_role("owner").post(page(group, "settings/"), data).status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "3-4"


def test_the_settings_page_refuses_an_early_rebirth(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    response = as_role("owner").post(
        page(group, "settings/"), {"kind": "rebirth", "start_chapter": 1}
    )
    assert response.status_code == 400 and response.context["form"].has_error("kind")


def test_the_group_page_counts_up_to_the_40th_attempted_clock_then_opens_rebirth(
    page: PageUrl, group: Group, as_role: AsRole, alice: User
) -> None:
    campaign = new_campaign(group, start_chapter=10)  # 36 clocks passed
    for clock in ("10-1", "10-2", "10-3"):
        record_attempt(campaign, alice, clock, "failed", 3)
        skip(campaign, alice, clock)
    content = as_role("member").get(page(group)).content.decode()
    assert "Rebirth: 39 of 40 clocks attempted" in content
    assert "Rebirth unlocked" not in content and "map-rebirth rebirth-locked" in content
    record_attempt(campaign, alice, "10-4", "failed", 3)
    content = as_role("member").get(page(group)).content.decode()
    assert "Rebirth unlocked" in content and "map-rebirth rebirth-open" in content
    assert "of 40 clocks attempted" not in content


def test_a_completed_rebirth_campaign_says_so_on_the_group_page(
    page: PageUrl, group: Group, as_role: AsRole, alice: User
) -> None:
    for kind in (Campaign.Kind.NORMAL, Campaign.Kind.REBIRTH):
        campaign = new_campaign(group, kind, start_chapter=10)
        for clock in ("10-1", "10-2", "10-3", "10-4"):
            record_attempt(campaign, alice, clock, "passed", 3)
    content = as_role("member").get(page(group)).content.decode()
    assert '<span class="badge warn">Rebirth</span>' in content
    assert "map-rebirth rebirth-locked" not in content and "map-rebirth next" in content
    record_attempt(campaign, alice, "rebirth", "passed", 3)
    content = as_role("member").get(page(group)).content.decode()
    assert "Campaign complete: all clocks passed!" in content
    assert '<span class="badge warn">Rebirth</span>' in content
    assert "map-rebirth passed" in content and 'id="play-title"' not in content
    assert "complete" in as_role("member").get("/").content.decode()


def test_statistics_draw_svg_charts(page: PageUrl, tap: Tap, group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "passed")
    content = client.get(page(group, "statistics/")).content.decode()
    assert content.count('<svg class="chart ') == 3


def test_the_history_round_trips_through_an_upload(
    page: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed", duration_min=5, notes="close")
    tap(client, group, "skip")
    tap(client, group, "passed", layout="")
    exported = client.get(page(group, "export.json")).content
    upload = SimpleUploadedFile("history.json", exported, content_type="application/json")
    response = client.post("/groups/import/", {"history": upload})
    copy = Group.objects.exclude(pk=group.pk).get()
    assert response.status_code == 302
    # the same name is taken by the original: the copy is told apart by "(2)"
    assert copy.name == f"{group.name} (2)"
    again = json.loads(client.get(page(copy, "export.json")).content)
    assert {**again, "name": group.name} == json.loads(exported)


def test_a_broken_history_upload_is_a_form_error(group: Group, as_role: AsRole) -> None:
    upload = SimpleUploadedFile("h.json", b'{"format": "other"}')
    response = as_role("owner").post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)] and Group.objects.count() == 1
    html = response.content.decode()
    assert "The history was not imported" in html
    # the person's groups are still listed: not "You are not in a group yet"
    assert group.name in html and "not in a group yet" not in html


def test_importing_the_same_history_again_names_the_copy(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    exported = client.get(page(group, "export.json")).content
    for _ in range(2):
        upload = SimpleUploadedFile("history.json", exported, content_type="application/json")
        assert client.post("/groups/import/", {"history": upload}).status_code == 302
    names = sorted(Group.objects.values_list("name", flat=True))
    assert names == sorted([group.name, f"{group.name} (2)", f"{group.name} (3)"])


def test_the_csv_export_has_a_row_per_attempt(
    page: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "passed")
    lines = client.get(page(group, "export.csv")).content.decode().strip().splitlines()
    assert len(lines) == 3 and lines[1].split(",")[3:5] == ["1-1", "failed"]


# --- permissions: every page, every role ---------------------------------------------------

READ_PAGES = [
    "",
    "sessions/",
    "sleeve/",
    "clocks/1-1/",
    "members/",
    "settings/",
    "statistics/",
    "export.json",
    "export.csv",
]
READ_STATUS = {"owner": 200, "member": 200, "viewer": 200, "outsider": 404}
OWNER_ONLY = {"member": 403, "viewer": 403, "outsider": 404}
WRITE_PAGES: list[tuple[str, dict[str, Any]]] = [
    ("record/", {"clock": "1-1", "players": 3, "action": "failed"}),
    ("undo/", {}),
    ("sleeve/", {"clock": "1-1"}),
    ("sessions/", {"date": "2026-11-27"}),
    ("settings/", {"kind": "normal", "start_chapter": 2}),
    ("clocks/5-1/edit/", {"start": 2, "rules": "", "action": "save"}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("tail", READ_PAGES)
def test_pages_are_for_members_only(
    page: PageUrl, group: Group, as_role: AsRole, role: str, tail: str
) -> None:
    assert as_role(role).get(page(group, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ROLES)
def test_session_pages_are_for_members_only(
    page: PageUrl, group: Group, campaign: Campaign, as_role: AsRole, role: str
) -> None:
    session = current_session(campaign)
    for tail in (f"sessions/{session.pk}/", f"sessions/{session.pk}/bgstats.json"):
        assert as_role(role).get(page(group, tail)).status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_editor_is_for_writers(page: PageUrl, group: Group, as_role: AsRole, role: str) -> None:
    expected = {"owner": 200, "member": 200, "viewer": 403, "outsider": 404}[role]
    assert as_role(role).get(page(group, "clocks/5-1/edit/")).status_code == expected


@pytest.mark.parametrize("role", ROLES)
def test_the_live_check_is_for_members(
    page: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    response = as_role(role).post(page(group, "check/"), {"clock": "1-1", "layout": PASSING_1_1})
    assert response.status_code == READ_STATUS[role]


@pytest.mark.parametrize("role", ["viewer", "outsider"])
@pytest.mark.parametrize(("tail", "data"), WRITE_PAGES)
def test_viewers_and_outsiders_cannot_write(
    page: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    role: str,
    tail: str,
    data: dict,
) -> None:
    response = as_role(role).post(page(group, tail), data)
    assert response.status_code == {"viewer": 403, "outsider": 404}[role]
    assert campaign.events.count() == 0 and group.campaigns.count() == 1
    assert not Session.objects.exists() and not ClockTranscription.objects.exists()


def ready_for(tail: str, campaign: Campaign, alice: User) -> None:
    """The state in which the write to ``tail`` is allowed: a failed 1-1 to undo, 1-1 in the
    Sleeve to put back."""
    if tail in ("undo/", "sleeve/"):
        record_attempt(campaign, alice, "1-1", "failed", 3)
    if tail == "sleeve/":
        skip(campaign, alice, "1-1")


def assert_written(tail: str, group: Group, campaign: Campaign, user: User) -> None:
    """What the write to ``tail`` changed, by ``user``."""
    campaign.refresh_from_db()
    state = campaign_state(campaign)
    last = campaign.events.order_by("-id").first()
    if tail == "record/":
        attempt = campaign.attempts.get()
        assert (attempt.clock_id, attempt.outcome, attempt.players) == ("1-1", "failed", 3)
        assert attempt.event.user == user and state.bonus_tokens == 1
    elif tail == "undo/":
        assert campaign.events.get(kind="failed").undone is not None
        assert last is not None and (last.kind, last.user) == ("undone", user)
        assert not campaign.attempts.exists() and state.bonus_tokens == 0
    elif tail == "sleeve/":
        assert state.sleeve == [] and state.next_clock == "1-1" and campaign.stack_top == ["1-1"]
        assert last is not None and (last.kind, last.user) == ("retrieved", user)
    elif tail == "sessions/":
        session = campaign.sessions.get()
        assert session.date.isoformat() == "2026-11-27"
    elif tail == "settings/":
        current = campaign_state(group.current_campaign())
        assert group.campaigns.count() == 2 and current.campaign != campaign
        assert current.chapter == 2 and current.next_clock == "2-1"
    else:
        transcription = ClockTranscription.objects.get(group=group, clock_id="5-1")
        assert (transcription.version, transcription.author) == (1, user)
        assert transcription.definition["start"] == 2


@pytest.mark.parametrize("role", ["owner", "member"])
@pytest.mark.parametrize(("tail", "data"), WRITE_PAGES)
def test_owners_and_members_may_write(
    page: PageUrl,
    group: Group,
    campaign: Campaign,
    as_role: AsRole,
    users: dict[str, User],
    alice: User,
    role: str,
    tail: str,
    data: dict,
) -> None:
    ready_for(tail, campaign, alice)
    if tail == "undo/":  # an Undo names the change it reverts, as the button does
        data = {"event": campaign.events.get().pk}
    response = as_role(role).post(page(group, tail), data)
    assert response.status_code in (200, 302, 400)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert_written(tail, group, campaign, users[role])


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_post_to_the_members_page(
    page: PageUrl, group: Group, as_role: AsRole, role: str
) -> None:
    User.objects.create_user("erin")
    response = as_role(role).post(page(group, "members/"), {"username": "erin"})
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 302)
    erin = group.memberships.filter(user__username="erin").first()
    if role == "owner":
        assert response["Location"] == page(group, "members/")
        assert erin is not None and erin.role == "member"
    else:
        assert erin is None


@pytest.mark.parametrize("role", ROLES)
def test_only_owners_change_members(
    page: PageUrl, group: Group, as_role: AsRole, role: str, dave: User
) -> None:
    viewer = group.memberships.get(user=dave)
    response = as_role(role).post(page(group, f"members/{viewer.pk}/"), {"remove": "1"})
    assert response.status_code == (OWNER_ONLY[role] if role != "owner" else 302)
    if role == "owner":
        assert response["Location"] == page(group, "members/")
    assert group.memberships.filter(user=dave).exists() == (role != "owner")


@pytest.mark.parametrize(
    ("method", "tail"),
    [
        ("get", "record/"),
        ("get", "undo/"),
        ("get", "check/"),
        ("get", "members/1/"),
        ("post", "statistics/"),
        ("post", "clocks/1-1/"),
        ("post", "export.json"),
        ("post", "export.csv"),
        ("post", ""),
        ("put", "sessions/"),
        ("put", "sleeve/"),
        ("put", "settings/"),
        ("put", "members/"),
    ],
)
def test_wrong_methods_answer_405(
    page: PageUrl, group: Group, as_role: AsRole, method: str, tail: str
) -> None:
    assert getattr(as_role("owner"), method)(page(group, tail)).status_code == 405


def test_wrong_method_on_import_and_dashboard(group: Group, as_role: AsRole) -> None:
    client = as_role("owner")
    assert client.get("/groups/import/").status_code == 405
    assert client.put("/").status_code == 405


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
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(group)).content.decode()
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


def test_statistics_of_a_campaign_without_attempts_say_so(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(group, "statistics/")).content.decode()
    assert "No attempt recorded here yet" in body and 'class="chart stats-progress"' not in body


def test_leaving_a_campaign_in_progress_needs_the_confirmation_box(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    response = client.post(page(group, "settings/"), {"kind": "normal", "start_chapter": 4})
    assert response.status_code == 400 and response.context["form"].has_error("confirm")
    assert group.current_campaign() == campaign


def test_a_confirmed_new_campaign_replaces_the_one_in_progress(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    data = {"kind": "normal", "start_chapter": 4, "confirm": "on"}
    assert client.post(page(group, "settings/"), data).status_code == 302
    assert campaign_state(group.current_campaign()).next_clock == "4-1"


def test_a_campaign_not_yet_played_is_replaced_without_confirmation(
    page: PageUrl, group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(page(group, "settings/")).content.decode()
    assert 'name="confirm"' not in body


def test_a_double_tap_on_put_on_top_puts_the_clock_back_once(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "skip")
    body = client.get(page(group, "sleeve/")).content.decode()
    field = re.search(r'name="request_key" value="([^"]+)"', body)
    assert field is not None
    key = field[1]
    responses = [
        client.post(page(group, "sleeve/"), {"clock": "1-1", "request_key": key}) for _ in range(2)
    ]
    assert [r.status_code for r in responses] == [302, 302]
    assert campaign.events.filter(kind="retrieved").count() == 1


def test_the_clock_page_keeps_attempts_of_earlier_campaigns(
    page: PageUrl, tap: Tap, group: Group, campaign: Campaign, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    client.post(page(group, "settings/"), {"kind": "normal", "start_chapter": 1, "confirm": "on"})
    assert group.current_campaign() != campaign
    body = client.get(page(group, "clocks/1-1/")).content.decode()
    assert "earlier campaign" in body and "No attempt at this clock yet." not in body


def test_the_confirmation_box_is_shown_while_a_campaign_is_in_progress(
    page: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    body = client.get(page(group, "settings/")).content.decode()
    assert re.search(r'<label class="check" for="id_confirm"><input type="checkbox"', body)
