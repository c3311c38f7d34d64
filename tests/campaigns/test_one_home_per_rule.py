"""Each rule has one home, and every caller asks it (issue 47). The guards read the source
with ``ast`` and fail when a rule is written out again somewhere else; the behaviour tests
check that the one home answers as its callers did.

- an invite link lets you in while it is open, or when you are already a member:
  ``campaigns.groups.services.invite_for``;
- who may write to a group: ``Membership.WRITERS`` (``can_write``, ``access.may_write``);
- the definition a recorded attempt was played and judged by:
  ``campaigns.definitions.played.recorded_definitions``;
- what a person reads of a refusal: ``config.errors.refusal_text``;
- the six segments: ``rules.layout.SEGMENTS``, never ``range(1, 7)``.
"""

from __future__ import annotations

import ast
from datetime import timedelta
from functools import cache
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from campaigns.access import may_write
from campaigns.definitions.played import recorded_definitions
from campaigns.definitions.services import transcribe
from campaigns.groups.services import Invite, invite_for
from campaigns.models import CommunityDefinition, Group, Membership
from rules.catalogue import get_clock

ROOT = Path(__file__).resolve().parents[2]
CODE = ("accounts", "bench", "campaigns", "config", "ops", "rules", "scripts", "solver", "tests")


@cache
def _modules() -> list[tuple[str, ast.Module]]:
    found = []
    for package in CODE:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            found.append((path.relative_to(ROOT).as_posix(), ast.parse(path.read_text("utf-8"))))
    return found


def _functions_where(test: object) -> set[str]:
    """``path:function`` of every function (or module level, ``path:``) holding a node
    ``test`` accepts."""
    assert callable(test)
    places = set()
    for path, tree in _modules():
        owner: dict[ast.AST, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    owner.setdefault(inner, node.name)
        for node in ast.walk(tree):
            if test(node):
                places.add(f"{path}:{owner.get(node, '')}")
    return places


def _attribute(name: str) -> object:
    return lambda node: isinstance(node, ast.Attribute) and node.attr == name


def _range_1_7(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and [ast.unparse(a) for a in node.args] == ["1", "7"]
    )


def _writers_listed(node: ast.AST) -> bool:
    """A tuple, list or set that names the owner and the member role: who may write."""
    if not isinstance(node, ast.Tuple | ast.List | ast.Set):
        return False
    names = {e.attr for e in node.elts if isinstance(e, ast.Attribute)}
    return {"OWNER", "MEMBER"} <= names


def test_the_invite_rule_is_read_in_one_function() -> None:
    places = _functions_where(_attribute("invite_open"))
    assert {p for p in places if not p.startswith("tests/")} == {
        "campaigns/groups/services.py:invite_for"
    }


def test_who_may_write_is_listed_once() -> None:
    assert _functions_where(_writers_listed) == {"campaigns/models.py:"}


def _worded_for_the_reader(node: ast.AST) -> bool:
    """``error.in_language(current_lang())``: a refusal worded for the person reading."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "in_language"
        and any("current_lang" in ast.unparse(a) for a in node.args)
    )


def test_a_refusal_is_worded_for_its_reader_in_one_function() -> None:
    assert _functions_where(_worded_for_the_reader) == {"config/errors.py:refusal_text"}


def _promoted_asked(node: ast.AST) -> bool:
    """``….filter(…, promoted=True)``: the site-wide default definition looked up."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    return node.func.attr in ("filter", "get", "exclude") and any(
        k.arg == "promoted" and ast.unparse(k.value) == "True" for k in node.keywords
    )


def test_which_definition_is_walked_in_the_definitions_room_only() -> None:
    """own → promoted → shipped: ``played_definition`` and ``recorded_definitions`` (and
    the community's promotion itself), never again beside them (as winnable.py did)."""
    places = {p for p in _functions_where(_promoted_asked) if not p.startswith("tests/")}
    assert {p.split(":")[0] for p in places} <= {
        "campaigns/definitions/played.py",
        "campaigns/definitions/community.py",
    }


def test_no_api_builds_its_own_404() -> None:
    """A clock or object not found answers through ``access.clock_or_404`` or the
    services' NotVisible, not a hand-made ``{"detail": "Not found."}``."""
    places = _functions_where(_attribute("HTTP_404_NOT_FOUND"))
    assert {p for p in places if not p.startswith("tests/")} == set()


def test_the_segments_are_never_counted_out_again() -> None:
    assert _functions_where(_range_1_7) == set()


def test_the_guards_see_what_they_look_for() -> None:
    tree = ast.parse("def f(g, m):\n    return g.invite_open, range(1, 7), (m.OWNER, m.MEMBER)")
    nodes = list(ast.walk(tree))
    assert any(_range_1_7(n) for n in nodes)
    assert any(_writers_listed(n) for n in nodes)
    assert any(_attribute("invite_open")(n) for n in nodes)  # type: ignore[operator]
    said = ast.parse("e.in_language(current_lang())")
    assert any(_worded_for_the_reader(n) for n in ast.walk(said))


# --- the homes answer as their callers did ---------------------------------------------------


@pytest.mark.django_db
def test_an_invite_is_open_expired_or_already_yours(
    group: Group, alice: User, charlie: User
) -> None:
    assert invite_for(group, charlie) == Invite.OPEN
    assert invite_for(group, AnonymousUser()) == Invite.OPEN
    assert invite_for(group, alice) == Invite.MEMBER
    group.invite_expires = timezone.now() - timedelta(seconds=1)
    group.save()
    assert invite_for(group, charlie) == Invite.EXPIRED
    assert invite_for(group, AnonymousUser()) == Invite.EXPIRED
    assert invite_for(group, alice) == Invite.MEMBER


@pytest.mark.django_db
def test_may_write_is_the_memberships_can_write(group: Group, charlie: User) -> None:
    for membership in group.memberships.select_related("user"):
        assert may_write(membership.user, group.pk) == membership.can_write
    assert not may_write(charlie, group.pk)
    assert not may_write(AnonymousUser(), group.pk)
    assert not may_write(charlie, None)
    assert {r for r in Membership.Role if Membership(role=r).can_write} == set(Membership.WRITERS)


@pytest.mark.django_db
def test_a_recorded_attempt_keeps_the_definition_of_its_version(group: Group, alice: User) -> None:
    first = {"start": 1, "cap": 20, "rules": []}
    second = {"start": 1, "cap": 30, "rules": []}
    transcribe(group, "1-2", first, alice)
    transcribe(group, "1-2", second, alice)
    shipped = get_clock("1-3")
    promoted = {"id": "1-3", "start": 2, "cap": 25, "rules": []}
    CommunityDefinition.objects.create(
        clock_id="1-3", definition=promoted, fingerprint="x", promoted=True
    )
    found = recorded_definitions(group, [("1-2", 1), ("1-2", 2), ("1-2", 0), ("1-3", 0)])
    assert found[("1-2", 1)].cap == 20
    assert found[("1-2", 2)].cap == 30
    assert found[("1-2", 0)] == get_clock("1-2")  # played before the group typed it
    assert found[("1-3", 0)].cap == 25 and found[("1-3", 0)] != shipped
