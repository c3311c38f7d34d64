"""Was it winnable? for recorded attempts: stored when a failure is recorded with a layout,
drawn on the group page and the clock page beside what the table played, and counted by the
statistics as "failed, but the cards were winnable"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaigns import winnable
from campaigns.definitions.services import transcribe
from campaigns.models import Attempt, Campaign, Group
from campaigns.play.services import record_attempt
from campaigns.statistics.compute import group_statistics
from rules.catalogue import get_clock
from rules.inputs import check_layout

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
Play = Callable[..., Attempt]

# Fails 1-1 (two cards at segment 1, then values drop), but its cards can pass.
LOST = "S3 M5 | S2 | M3 | M9 S1 | S6 S8 M2 | M12 S9 M1"
# Twelve Moons: 1-1 wants one Sun alone at segment 1, so no arrangement passes.
HOPELESS = "M1 M2 | M3 | M4 | M5 M6 | M7 M8 | M9 M10 M11 M12"
PASSING = "S1 | M1 | S2 | M2 | S3 M5 M3 S6 S8 | M9 M12 S9"


def _faces(html: str) -> int:
    return len(re.findall(r'<svg[^>]*class="clock-face"', html))


def test_a_failure_with_a_layout_stores_whether_its_cards_could_pass(
    campaign: Campaign, play: Play
) -> None:
    attempt = play(campaign, "failed", layout=LOST)
    attempt.refresh_from_db()
    assert attempt.postmortem is not None
    assert attempt.postmortem["winnable"] is True
    assert attempt.postmortem["placement_checked"] is False
    assert check_layout(get_clock("1-1"), attempt.postmortem["witness"]).passed
    hopeless = play(campaign, "failed", layout=HOPELESS)
    hopeless.refresh_from_db()
    assert hopeless.postmortem == {
        "winnable": False,
        "witness": None,
        "placement_checked": False,
        "special_rules_known": True,
        "unchecked": [],
    }


def test_a_layout_in_move_form_is_judged_with_its_seats(campaign: Campaign, play: Play) -> None:
    moves = "S3@1 M5@1 S2@2 M3@3 M9@4 S1@4 S6@5 S8@5 M2@5 M12@6 S9@6 M1@6"
    attempt = play(campaign, "failed", players=4, layout=moves)
    assert attempt.postmortem is not None
    assert attempt.postmortem["placement_checked"] is True
    assert attempt.postmortem["witness"].count("@") == 12


def test_passes_and_failures_without_a_layout_store_nothing(campaign: Campaign, play: Play) -> None:
    assert play(campaign, "failed").postmortem is None
    assert play(campaign, "passed", layout=PASSING).postmortem is None


def test_without_the_solver_registered_nothing_is_stored(
    campaign: Campaign, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(winnable, "_judges", [])
    assert play(campaign, "failed", layout=LOST).postmortem is None


def test_the_group_page_draws_the_witness_beside_what_the_table_played(
    group: Group, campaign: Campaign, play: Play, as_role: AsRole
) -> None:
    play(campaign, "failed", layout=LOST)
    body = as_role("viewer").get(f"/groups/{group.pk}/").content.decode()
    assert "Was it winnable?" in body
    assert "Yes: these cards could have passed" in body
    section = body[body.index('<details class="winnable">') :]
    section = section[: section.index("</details>")]
    assert _faces(section) == 2  # what the table played, and the same cards laid out to pass
    assert "What the table played" in section and "The same cards, laid out to pass" in section
    assert "Judged by the layout rules only" not in section  # 1-1 has no placement rule
    witness = Attempt.objects.get().postmortem["witness"]  # type: ignore[index]
    # the cards, segment by segment, as text a phone can read: as played and laid out to pass
    rows = re.findall(r"<tr><th scope=\"row\">(\d)</th><td>(.*?)</td><td>(.*?)</td></tr>", section)
    assert [passing for _n, _played, passing in rows] == [s.strip() for s in witness.split("|")]
    assert [played for _n, played, _passing in rows] == [s.strip() for s in LOST.split("|")]


def test_the_group_page_says_when_no_arrangement_passes(
    group: Group, campaign: Campaign, play: Play, as_role: AsRole
) -> None:
    play(campaign, "failed", layout=HOPELESS)
    body = as_role("owner").get(f"/groups/{group.pk}/").content.decode()
    section = body[body.index('<details class="winnable">') :]
    section = section[: section.index("</details>")]
    assert "No: no arrangement of these cards passes" in section
    assert _faces(section) == 1


def test_the_group_page_shows_nothing_for_attempts_without_an_answer(
    group: Group, campaign: Campaign, play: Play, as_role: AsRole
) -> None:
    play(campaign, "failed")
    play(campaign, "passed", layout=PASSING)
    body = as_role("owner").get(f"/groups/{group.pk}/").content.decode()
    assert "Was it winnable?" not in body


def test_the_clock_page_shows_it_for_each_failure_in_the_readers_language(
    group: Group, campaign: Campaign, play: Play, as_role: AsRole
) -> None:
    play(campaign, "failed", layout=LOST)
    play(campaign, "failed", layout=HOPELESS)
    play(campaign, "failed")
    client = as_role("viewer")
    body = client.get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    assert body.count('<details class="winnable">') == 2
    assert "Yes: these cards could have passed" in body
    assert "No: no arrangement of these cards passes" in body
    dutch = client.get(f"/groups/{group.pk}/clocks/1-1/", HTTP_ACCEPT_LANGUAGE="nl")
    text = dutch.content.decode()
    assert "Was het te winnen?" in text and "Was it winnable?" not in text
    japanese = client.get(f"/groups/{group.pk}/clocks/1-1/", HTTP_ACCEPT_LANGUAGE="ja")
    assert "勝てたか？" in japanese.content.decode()


def test_outsiders_see_no_attempt_of_the_group(
    group: Group, campaign: Campaign, play: Play, as_role: AsRole
) -> None:
    play(campaign, "failed", layout=LOST)
    outsider = as_role("outsider")
    assert outsider.get(f"/groups/{group.pk}/clocks/1-1/").status_code == 404
    assert outsider.get(f"/groups/{group.pk}/").status_code == 404


def test_the_faces_use_the_definition_the_attempt_was_judged_by(
    group: Group, campaign: Campaign, play: Play, alice: User, as_role: AsRole
) -> None:
    """The group's own 1-1 (one card at segment 1, any colour; cap lifted): a Moon may open."""
    transcribe(
        group,
        "1-1",
        {"start": 1, "cap": None, "rules": [{"kind": "card_count", "segment": 1, "count": 1}]},
        alice,
    )
    attempt = play(campaign, "failed", layout=HOPELESS)
    assert attempt.clock_version == 1
    assert attempt.postmortem is not None and attempt.postmortem["winnable"] is True
    body = as_role("owner").get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    section = body[body.index('<details class="winnable">') :]
    assert "Yes: these cards could have passed" in section[: section.index("</details>")]


def test_the_statistics_count_failures_whose_cards_were_winnable(
    group: Group,
    campaign: Campaign,
    play: Play,
    api_as: Callable[[str], APIClient],
    as_role: AsRole,
) -> None:
    play(campaign, "failed", layout=LOST)
    play(campaign, "failed", layout=HOPELESS)
    play(campaign, "failed")
    play(campaign, "passed", layout=PASSING)
    totals = group_statistics(group).totals
    assert (totals["failed"], totals["failed_winnable"]) == (3, 1)
    assert group_statistics(group, players=4).totals["failed_winnable"] == 0
    body = api_as("viewer").get(f"/api/groups/{group.pk}/statistics/").json()
    assert body["totals"]["failed_winnable"] == 1
    page = as_role("viewer").get(f"/groups/{group.pk}/statistics/").content.decode()
    assert re.search(r"<dt>Failed, but the cards were winnable</dt><dd>1</dd>", page)
    dutch = as_role("viewer").get(f"/groups/{group.pk}/statistics/", HTTP_ACCEPT_LANGUAGE="nl")
    assert "Mislukt, maar de kaarten waren te winnen" in dutch.content.decode()


def test_the_count_adds_no_query_to_the_statistics(
    group: Group, campaign: Campaign, play: Play, api_as: Callable[[str], APIClient]
) -> None:
    client = api_as("viewer")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/api/groups/{group.pk}/statistics/").status_code == 200
        return len(captured.captured_queries)

    before = queries()
    for layout in (LOST, HOPELESS, LOST):
        play(campaign, "failed", layout=layout)
    assert queries() == before == 11  # the membership, the computation's nine, the table's rate


def test_an_untranscribed_clock_is_shown_but_not_counted(
    group: Group, campaign: Campaign, alice: User, as_role: AsRole, **_: Any
) -> None:
    """1-2 is untranscribed: its answer rests on the rules known of it, so it is shown with a
    note and left out of the count."""
    record_attempt(campaign, alice, "1-1", "passed", 3)
    campaign.refresh_from_db()
    attempt = record_attempt(campaign, alice, "1-2", "failed", 3, layout=LOST)
    assert attempt.postmortem is not None
    assert attempt.postmortem["special_rules_known"] is False
    totals = group_statistics(group).totals
    assert (totals["failed_winnable"], totals["failed_winnable_unknown"]) == (0, 1)
    body = as_role("owner").get(f"/groups/{group.pk}/clocks/1-2/").content.decode()
    assert "special rules are not transcribed yet" in body
    assert "the statistics do not count it" in body
    # and the statistics page says which failures it leaves out, and why
    stats = as_role("owner").get(f"/groups/{group.pk}/statistics/").content.decode()
    assert "Not counted: 1 failure that looked winnable" in stats


def test_failures_recorded_without_an_answer_are_judged_by_the_command(
    group: Group, campaign: Campaign, play: Play, monkeypatch: pytest.MonkeyPatch, alice: User
) -> None:
    """As if recorded before the question was asked: the command answers them once, with
    the definition each was judged by (the group's own 1-1 from the second attempt on)."""
    from io import StringIO

    from django.core.management import call_command

    judges = list(winnable._judges)
    monkeypatch.setattr(winnable, "_judges", [])
    first = play(campaign, "failed", layout=HOPELESS)  # shipped 1-1: a Sun alone at 1
    transcribe(
        group,
        "1-1",
        {"start": 1, "cap": None, "rules": [{"kind": "card_count", "segment": 1, "count": 1}]},
        alice,
    )
    second = play(campaign, "failed", layout=HOPELESS)  # the group's 1-1: any one card
    play(campaign, "failed")  # no layout: nothing to judge
    assert Attempt.objects.filter(postmortem__isnull=False).count() == 0
    monkeypatch.setattr(winnable, "_judges", judges)
    out = StringIO()
    call_command("judge_failures", stdout=out)
    assert out.getvalue().strip() == "Judged 2 failed attempts; 0 could not be judged."
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.postmortem is not None and first.postmortem["winnable"] is False
    assert second.postmortem is not None and second.postmortem["winnable"] is True
    out = StringIO()
    call_command("judge_failures", stdout=out)
    assert out.getvalue().startswith("Judged 0 failed attempts")


def test_the_attempts_api_carries_the_answer(
    group: Group, api_as: Callable[[str], APIClient]
) -> None:
    client = api_as("member")
    url = f"/api/groups/{group.pk}/attempts/"
    payload = {"clock": "1-1", "outcome": "failed", "players": 3, "layout": LOST}
    created = client.post(url, payload, format="json")
    assert created.status_code == 201
    answer = created.json()["postmortem"]
    assert answer["winnable"] is True and answer["placement_checked"] is False
    assert check_layout(get_clock("1-1"), answer["witness"]).passed
    listed = api_as("viewer").get(url).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[-1]["postmortem"] == answer


def test_a_clock_with_a_placement_rule_says_the_segment_form_could_not_judge_it(
    group: Group, campaign: Campaign, play: Play, alice: User, as_role: AsRole
) -> None:
    rules = [
        {"kind": "first_cards", "segments": [2, 3]},
        {"kind": "card_count", "segment": 6, "count": 3},
    ]
    transcribe(group, "1-1", {"start": 1, "cap": None, "rules": rules}, alice)
    play(campaign, "failed", layout=LOST)
    moves = "S3@2 M5@3 S2@1 M3@3 M9@4 S1@4 S6@5 S8@5 M2@5 M12@6 S9@6 M1@1"
    play(campaign, "failed", layout=moves)
    body = as_role("owner").get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    sections = body.split('<details class="winnable">')[1:]
    assert len(sections) == 2
    assert "Judged by the layout rules only" in sections[0]
    assert "Judged by the layout rules only" not in sections[1]
