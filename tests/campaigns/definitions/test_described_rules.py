"""A rule in the table's own words (kind ``described``) on the pages: the editor adds it,
the live check says "check yourselves", two tables typing the same words share them, and
staff see the words in use and may offer a structured rule in their place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.definitions.played import played_definition
from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group
from campaigns.models import ClockTranscription, DescribedRuleKind, Group

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]
WORDS = "The segment nearest to 10 holds a Moon"
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"


def edit(group: Group, clock_id: str = "1-1") -> str:
    return f"/groups/{group.pk}/clocks/{clock_id}/edit/"


def described(text: str = WORDS, **more: Any) -> dict[str, Any]:
    return {"kind": "described", "text": text, **more}


def own(group: Group, *rules: dict[str, Any], clock_id: str = "1-1") -> ClockTranscription:
    definition = {"id": clock_id, "start": 1, "cap": 24, "rules": list(rules)}
    return transcribe(group, clock_id, definition, None)


def test_the_editor_offers_a_rule_timekeeper_does_not_know_last(
    group: Group, as_role: AsRole
) -> None:
    body = as_role("owner").get(edit(group)).content.decode()
    options = body.split('<select name="new_kind"')[1].split("</select>")[0]
    assert options.rstrip().endswith(
        '<option value="described">A rule Timekeeper doesn&#x27;t know yet</option>'
    )
    assert "fit none of these" in body


def test_the_editor_adds_and_saves_a_described_rule_at_the_centre_or_a_segment(
    group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    chosen = client.post(edit(group), {"start": 1, "new_kind": "described"}).content.decode()
    assert '<textarea name="p_text"' in chosen
    assert '<option value="">The centre (the whole clock)</option>' in chosen
    response = client.post(
        edit(group),
        {"start": 1, "new_kind": "described", "p_text": WORDS, "p_segment": "4", "action": "save"},
    )
    assert response.status_code == 302
    choice = played_definition(group, "1-1")
    clock, version = choice.clock, choice.version
    assert version == 1
    (rule,) = clock.rules
    assert rule.to_json() == {"kind": "described", "text": WORDS, "segment": 4}
    face = client.get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    assert WORDS in face


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "1 to 200 characters"), ("x" * 201, "1 to 200 characters")],
)
def test_the_editor_refuses_empty_or_long_words_with_a_reason(
    group: Group, as_role: AsRole, text: str, reason: str
) -> None:
    response = as_role("owner").post(
        edit(group), {"start": 1, "new_kind": "described", "p_text": text, "action": "add"}
    )
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not ClockTranscription.objects.exists()


@pytest.mark.parametrize(
    ("lang", "passes", "check"),
    [
        ("en", "Passes every rule Timekeeper knows", "Check yourselves"),
        ("nl", "Voldoet aan elke regel die Timekeeper kent", "Controleer zelf"),
        ("ja", "Timekeeperが知っているルールはすべて満たしています", "自分たちで確認"),
    ],
)
def test_the_live_check_passes_the_known_rules_and_says_check_yourselves(
    group: Group, as_role: AsRole, lang: str, passes: str, check: str
) -> None:
    own(group, described(segment=2))
    response = as_role("member").post(
        f"/groups/{group.pk}/check/",
        {"clock": "1-1", "layout": PASSING_1_1},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert passes in body
    assert check in body and WORDS in body


def test_two_tables_typing_the_same_words_differently_share_one_definition(
    alice: User, bob: User
) -> None:
    ours = create_group(alice, "Ours", [])
    theirs = create_group(bob, "Theirs", [])
    first = own(ours, described("The segment  nearest to 10"))
    second = own(theirs, described("the SEGMENT nearest\tto １０"))
    assert first.fingerprint == second.fingerprint


def test_staff_see_the_words_in_use_and_groups_are_offered_the_structured_rule(
    group: Group, as_role: AsRole, alice: User, bob: User, login: Callable[[User], Client]
) -> None:
    own(group, described("At most three cards on segment 2"))
    other = create_group(bob, "Other table", [])
    own(other, described("at most  THREE cards on segment 2"))
    private = create_group(bob, "Private table", [])
    private.share_with_community = False
    private.save(update_fields=["share_with_community"])
    own(private, described("at most three cards on segment 2"))
    staff = User.objects.create_superuser("staff", "staff@example.org", "password")
    page = login(staff).get("/admin/campaigns/describedrulekind/in-use/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "at most three cards on segment 2" in body.casefold()
    row = body.split("<tbody>")[1].split("</tr>")[0]
    assert "<td>1-1</td>" in row and "<td>2</td>" in row  # the private table is not counted

    DescribedRuleKind.objects.create(
        text="at most three cards on segment 2",
        rule={"kind": "max_cards", "segment": 2, "count": 3},
    )
    client = as_role("owner")
    editor = client.get(edit(group)).content.decode()
    assert "Timekeeper now knows" in editor
    assert 'name="replace" value="0"' in editor
    # Offered, never changed behind the table's back: the saved version is still words.
    assert played_definition(group, "1-1").clock.rules[0].kind == "described"
    replaced = client.post(edit(group), {"start": 1, "rules": _rules(group), "replace": "0"})
    assert "Segment 2 may hold at most 3 cards." in replaced.content.decode()
    assert played_definition(group, "1-1").clock.rules[0].kind == "described"


def test_staff_may_only_mark_words_as_a_kind_timekeeper_checks() -> None:
    from django.core.exceptions import ValidationError

    mark = DescribedRuleKind(text="  Nearest to TEN ", rule={"kind": "described", "text": "x"})
    with pytest.raises(ValidationError):
        mark.full_clean()
    mark.rule = {"kind": "max_cards", "segment": 2, "count": 3}
    mark.full_clean()
    assert mark.text == "nearest to ten"


def test_the_staff_page_is_for_staff_only(group: Group, as_role: AsRole) -> None:
    response = as_role("owner").get("/admin/campaigns/describedrulekind/in-use/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def _rules(group: Group) -> str:
    import json

    choice = played_definition(group, "1-1")

    clock, _version = choice.clock, choice.version
    return "\n".join(json.dumps(rule.to_json()) for rule in clock.rules)


def test_the_words_keep_their_capital_letter_as_typed(
    group: Group, as_role: AsRole, alice: User
) -> None:
    """The saved text once lost its capital ("the card on segment 3 …") on the clock page,
    in the hint and in the export; only the fingerprint compares folded words."""
    typed = "The card on segment 3  is a Moon"
    version = own(group, described(typed, segment=3))
    assert version.definition["rules"] == [
        {"kind": "described", "text": "The card on segment 3 is a Moon", "segment": 3}
    ]
    other = own(create_group(alice, "Other", []), described(typed.lower(), segment=3))
    assert version.fingerprint == other.fingerprint
    assert list(played_definition(group, "1-1").clock.described_texts("en")) == [
        "Segment 3: The card on segment 3 is a Moon"
    ]
    page = as_role("member").get(f"/groups/{group.pk}/clocks/1-1/").content.decode()
    assert "The card on segment 3 is a Moon" in page
    export = as_role("member").get(f"/groups/{group.pk}/export.json").content.decode()
    assert "The card on segment 3 is a Moon" in export
