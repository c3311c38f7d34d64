"""Transcriptions shared between tables (campaigns.definitions.community and its API): counting the
tables behind each definition, adoption, spoilers, opting out, staff decisions, limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.definitions import community
from campaigns.definitions.played import played_definition
from campaigns.definitions.services import MAX_VERSIONS_PER_HOUR, transcribe
from campaigns.groups.services import add_member, create_group, new_campaign
from campaigns.models import ClockTranscription, CommunityDefinition, DefinitionReport, Group
from config.errors import NotVisible
from rules.canonical import fingerprint
from rules.clock import Clock
from rules.errors import RulesError

ApiAs = Callable[[str], APIClient]
RULES: list[dict[str, Any]] = [
    {"kind": "card_count", "segment": 6, "count": 3},
    {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
]
REORDERED: list[dict[str, Any]] = [
    {"kind": "forbidden_values", "segment": 2, "values": [7, 3]},
    {"kind": "card_count", "segment": 6, "count": 3},
]
OTHER_RULES: list[dict[str, Any]] = [{"kind": "strictly_rising"}]


def definition(rules: list[dict[str, Any]], clock_id: str = "2-1") -> dict[str, Any]:
    return {"start": 1, "cap": 24, "rules": rules, "id": clock_id}


def print_of(rules: list[dict[str, Any]], clock_id: str = "2-1") -> str:
    return fingerprint(Clock.from_json(definition(rules, clock_id)))


def typed(group: Group, rules: list[dict[str, Any]], clock_id: str = "2-1") -> ClockTranscription:
    return transcribe(group, clock_id, definition(rules, clock_id), None)


# --- counting ---------------------------------------------------------------------------


def test_three_tables_typing_the_same_rules_in_any_order_confirm_them(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    typed(another_table("B"), REORDERED)
    shared = community.shared_definitions(at_chapter_2, "2-1")
    assert [(s.fingerprint, s.groups, s.confirmed) for s in shared] == [(print_of(RULES), 2, False)]
    typed(another_table("C"), RULES)
    (shared_now,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared_now.groups == 3 and shared_now.confirmed
    assert shared_now.to_json()["definition"]["rules"] == [
        {"kind": "card_count", "segment": 6, "count": 3},
        {"kind": "forbidden_values", "segment": 2, "values": [3, 7]},
    ]


def one_persons_three_tables_typed(rules: list[dict[str, Any]]) -> None:
    """One person (mallory) owns three tables at chapter 2, each typing ``rules`` for 2-1."""
    mallory = User.objects.create_user("mallory")
    for name in ("M1", "M2", "M3"):
        mine = create_group(mallory, name, first_campaign=False)
        new_campaign(mine, start_chapter=2)
        typed(mine, rules)


def test_three_tables_of_one_person_do_not_confirm_their_rules(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    one_persons_three_tables_typed(RULES)
    (shared,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.groups == 3 and not shared.confirmed
    assert shared.to_json()["confirmed"] is False
    assert played_definition(at_chapter_2, "2-1", community=True).source == "shipped"


def test_the_prefill_fills_only_rules_confirmed_by_people_with_nothing_in_common(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    from solver.prefill import community_games

    one_persons_three_tables_typed(RULES)
    assert community_games() == []  # one person's three tables confirm nothing
    for name in ("A", "B", "C"):
        typed(another_table(name), RULES)
    assert [game.label for game in community_games()] == [f"2-1 {print_of(RULES)}"]


def test_tables_sharing_a_writing_member_count_as_one_confirmation(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    User.objects.create_user("everywhere")
    sharing = [another_table(name) for name in ("A", "B", "C")]
    for group in sharing:
        add_member(group, "everywhere", "member")
        typed(group, RULES)
    typed(another_table("D"), RULES)
    (shared,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.groups == 4 and not shared.confirmed  # D and one of A, B, C: two
    typed(another_table("E"), RULES)
    (shared,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.confirmed  # D, E and one of A, B, C: three tables of different people
    assert played_definition(at_chapter_2, "2-1", community=True).source == "community"


def test_a_viewer_in_every_table_does_not_stop_a_confirmation(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    User.objects.create_user("watcher")
    for name in ("A", "B", "C"):
        group = another_table(name)
        add_member(group, "watcher", "viewer")
        typed(group, RULES)
    (shared,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.confirmed


def test_independent_needs_that_many_groups_with_no_person_in_common() -> None:
    assert community.independent([{1}, {2}, {3}], 3)
    assert not community.independent([{1, 2}, {2, 3}, {3, 4}, {4, 5}], 3)
    assert community.independent([{1, 2}, {2, 3}, {3, 4}, {5}], 3)  # {1,2} {3,4} {5}
    assert not community.independent([{1}, {2}], 3)


def test_adoption_never_raises_the_count(
    at_chapter_2: Group, another_table: Callable[..., Group], alice: User
) -> None:
    typed(another_table("A"), RULES)
    typed(another_table("B"), RULES)
    for name in ("C", "D", "E"):
        community.adopt(another_table(name), "2-1", print_of(RULES), None)
    row = community.adopt(at_chapter_2, "2-1", print_of(RULES), alice)
    assert row.adopted and row.latest and row.version == 1
    (shared,) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.groups == 2 and not shared.confirmed and shared.mine


def test_retyping_an_adopted_definition_stays_adopted(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    community.adopt(at_chapter_2, "2-1", print_of(RULES), None)
    typed(at_chapter_2, OTHER_RULES)
    again = typed(at_chapter_2, REORDERED)
    assert again.adopted
    (shared, *_rest) = community.shared_definitions(at_chapter_2, "2-1")
    assert shared.fingerprint == print_of(RULES) and shared.groups == 1


def test_only_each_groups_latest_version_counts(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    changed_mind = another_table("A")
    typed(changed_mind, RULES)
    typed(changed_mind, OTHER_RULES)
    typed(another_table("B"), RULES)
    counts = {s.fingerprint: s.groups for s in community.shared_definitions(at_chapter_2, "2-1")}
    assert counts == {print_of(RULES): 1, print_of(OTHER_RULES): 1}
    assert ClockTranscription.objects.filter(group=changed_mind, latest=True).count() == 1


def test_a_definition_only_my_table_typed_is_not_listed(at_chapter_2: Group) -> None:
    typed(at_chapter_2, RULES)
    assert community.shared_definitions(at_chapter_2, "2-1") == []


def test_the_list_costs_the_same_queries_for_two_or_forty_tables(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            community.shared_definitions(at_chapter_2, "2-1")
        return len(captured.captured_queries)

    for name in ("A", "B", "C"):  # three, so that the people behind RULES are read too
        typed(another_table(name), RULES)
    typed(another_table("D"), OTHER_RULES)
    few = queries()
    for n in range(38):
        typed(
            another_table(f"T{n}"),
            [*RULES, {"kind": "max_cards", "segment": 1, "count": n % 5 + 2}],
        )
    assert len(community.shared_definitions(at_chapter_2, "2-1")) == 7
    assert queries() == few


# --- spoilers and opting out ------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "member", "viewer"])
def test_a_clock_of_a_chapter_not_opened_is_404_for_every_role(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group], role: str
) -> None:
    typed(another_table("A", chapter=3), RULES, "3-1")
    assert api_as(role).get(f"/api/groups/{at_chapter_2.pk}/community/3-1/").status_code == 404
    assert api_as(role).get(f"/api/groups/{at_chapter_2.pk}/community/2-1/").status_code == 200
    response = api_as(role).post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "3-1", "fingerprint": print_of(RULES, "3-1")},
        format="json",
    )
    assert response.status_code == (403 if role == "viewer" else 404)


def test_an_outsider_sees_nothing(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    assert (
        api_as("outsider").get(f"/api/groups/{at_chapter_2.pk}/community/2-1/").status_code == 404
    )
    response = api_as("outsider").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "2-1", "fingerprint": print_of(RULES)},
        format="json",
    )
    assert response.status_code == 404


def test_a_table_that_opts_out_neither_shares_nor_sees(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    quiet = another_table("Quiet", share=False)
    typed(quiet, RULES)
    typed(another_table("A"), OTHER_RULES)
    assert [s.fingerprint for s in community.shared_definitions(at_chapter_2, "2-1")] == [
        print_of(OTHER_RULES)
    ]
    assert community.shared_definitions(quiet, "2-1") == []
    with pytest.raises(NotVisible):
        community.adopt(quiet, "2-1", print_of(OTHER_RULES), None)


# --- the API ----------------------------------------------------------------------------


def test_the_list_api_answers_each_definition_with_its_tables(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    for name in "ABC":
        typed(another_table(name), RULES)
    typed(at_chapter_2, RULES)
    typed(another_table("D"), OTHER_RULES)
    response = api_as("viewer").get(f"/api/groups/{at_chapter_2.pk}/community/2-1/")
    assert response.status_code == 200
    first, second = response.json()
    assert first["fingerprint"] == print_of(RULES)
    assert (first["groups"], first["confirmed"], first["mine"]) == (4, True, True)
    assert (second["groups"], second["confirmed"], second["mine"]) == (1, False, False)
    assert Clock.from_json(second["definition"]).rules[0].kind == "strictly_rising"


def test_adopting_records_a_new_adopted_version_equal_to_the_definition(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), REORDERED)
    typed(at_chapter_2, OTHER_RULES)
    response = api_as("member").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "2-1", "fingerprint": print_of(RULES)},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["version"], body["adopted"], body["fingerprint"]) == (2, True, print_of(RULES))
    choice = played_definition(at_chapter_2, "2-1")
    clock, version = choice.clock, choice.version
    assert version == 2 and fingerprint(clock) == print_of(RULES)
    row = ClockTranscription.objects.get(group=at_chapter_2, version=2)
    assert row.adopted and row.latest and row.author is not None


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"clock": "2-1", "fingerprint": "0123456789ab"}, 404),
        ({"clock": "9-9", "fingerprint": "0123456789ab"}, 404),
        ({"clock": "2-1"}, 400),
    ],
    ids=["unknown-fingerprint", "unknown-clock", "no-fingerprint"],
)
def test_adopting_refuses_what_it_cannot_find(
    api_as: ApiAs, at_chapter_2: Group, body: dict[str, str], status: int
) -> None:
    url = f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/"
    assert api_as("member").post(url, body, format="json").status_code == status
    assert not ClockTranscription.objects.filter(group=at_chapter_2).exists()


def test_adopting_answers_only_post(api_as: ApiAs, at_chapter_2: Group) -> None:
    url = f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/"
    assert api_as("member").get(url).status_code == 405


def test_a_viewer_may_not_adopt(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    response = api_as("viewer").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "2-1", "fingerprint": print_of(RULES)},
        format="json",
    )
    assert response.status_code == 403
    assert not ClockTranscription.objects.filter(group=at_chapter_2).exists()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Unknown rule kind 'secret_symbol'"),
        ("nl", "Onbekende regelsoort 'secret_symbol'"),
        ("ja", "不明なルールの種類'secret_symbol'です"),
    ],
)
def test_a_definition_outside_the_rule_vocabulary_is_400_in_the_readers_language(
    api_as: ApiAs, at_chapter_2: Group, lang: str, expected: str
) -> None:
    response = api_as("member").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/",
        {"clock": "2-1", "rules": [{"kind": "secret_symbol", "segment": 2}]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert response.json()["rules[0].kind"][0].startswith(expected)
    assert not ClockTranscription.objects.exists() and not CommunityDefinition.objects.exists()


def test_a_member_reports_a_definition_with_a_reason(
    api_as: ApiAs, at_chapter_2: Group, another_table: Callable[..., Group], bob: User
) -> None:
    typed(another_table("A"), RULES)
    url = f"/api/groups/{at_chapter_2.pk}/community/2-1/{print_of(RULES)}/report/"
    assert api_as("member").post(url, {"reason": " "}, format="json").status_code == 400
    assert api_as("viewer").post(url, {"reason": "Wrong"}, format="json").status_code == 403
    assert api_as("member").get(url).status_code == 405
    response = api_as("member").post(url, {"reason": "Segment 2 forbids 8, not 7."}, format="json")
    assert response.status_code == 201
    report = DefinitionReport.objects.get()
    assert (report.user, report.group, report.reason) == (
        bob,
        at_chapter_2,
        "Segment 2 forbids 8, not 7.",
    )
    assert report.definition.fingerprint == print_of(RULES)
    bad = url.replace(print_of(RULES), "0123456789ab")
    assert api_as("member").post(bad, {"reason": "x"}, format="json").status_code == 404


# --- staff decisions ----------------------------------------------------------------------


def test_a_hidden_definition_is_offered_to_nobody(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    community.hide(CommunityDefinition.objects.get(fingerprint=print_of(RULES)))
    assert community.shared_definitions(at_chapter_2, "2-1") == []
    with pytest.raises(NotVisible):
        community.adopt(at_chapter_2, "2-1", print_of(RULES), None)


def test_a_promoted_definition_is_played_like_a_shipped_one(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), OTHER_RULES)
    typed(another_table("B"), RULES)
    community.promote(CommunityDefinition.objects.get(fingerprint=print_of(OTHER_RULES)))
    community.promote(CommunityDefinition.objects.get(fingerprint=print_of(RULES)))
    assert CommunityDefinition.objects.filter(promoted=True).count() == 1
    choice = played_definition(at_chapter_2, "2-1")
    clock, version = choice.clock, choice.version
    assert fingerprint(clock) == print_of(RULES) and version == 0 and clock.transcribed
    choice = played_definition(at_chapter_2, "2-1", community=True)
    assert choice.source == "promoted"
    typed(at_chapter_2, OTHER_RULES)  # the group's own still comes first
    assert played_definition(at_chapter_2, "2-1", community=True).source == "own"


def test_the_best_definition_offers_a_confirmed_one_only(
    at_chapter_2: Group, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    typed(another_table("B"), RULES)
    assert played_definition(at_chapter_2, "2-1", community=True).source == "shipped"
    typed(another_table("C"), RULES)
    choice = played_definition(at_chapter_2, "2-1", community=True)
    assert (choice.source, choice.fingerprint, choice.groups) == ("community", print_of(RULES), 3)
    assert played_definition(at_chapter_2, "2-1").source == "shipped"
    assert played_definition(at_chapter_2, "2-1").clock.transcribed is False


# --- limits -------------------------------------------------------------------------------


def test_a_clock_has_at_most_40_rules(at_chapter_2: Group) -> None:
    many = [
        {"kind": "value_range", "segment": s % 6 + 1, "min": 0, "max": 100 + s} for s in range(41)
    ]
    with pytest.raises(RulesError, match="at most 40"):
        typed(at_chapter_2, many)
    assert not ClockTranscription.objects.exists()


def test_a_user_saving_too_many_versions_in_an_hour_is_told_to_wait(
    api_as: ApiAs, at_chapter_2: Group, alice: User, another_table: Callable[..., Group]
) -> None:
    typed(another_table("A"), RULES)
    ClockTranscription.objects.bulk_create(
        ClockTranscription(
            group=at_chapter_2,
            clock_id="3-1",
            version=n + 1,
            definition=definition([], "3-1"),
            author=alice,
            created=timezone.now() - timedelta(minutes=n),
        )
        for n in range(MAX_VERSIONS_PER_HOUR)
    )
    response = api_as("owner").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "2-1", "fingerprint": print_of(RULES)},
        format="json",
    )
    assert response.status_code == 429
    response = api_as("owner").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/",
        {"clock": "2-1", "rules": RULES},
        format="json",
    )
    assert response.status_code == 429
    assert not ClockTranscription.objects.filter(group=at_chapter_2, clock_id="2-1").exists()
    ClockTranscription.objects.filter(author=alice).update(
        created=timezone.now() - timedelta(hours=2)
    )
    response = api_as("owner").post(
        f"/api/groups/{at_chapter_2.pk}/transcriptions/adopt/",
        {"clock": "2-1", "fingerprint": print_of(RULES)},
        format="json",
    )
    assert response.status_code == 201
