"""The definitions room's fixtures: the cast's group at chapter 2, and other tables that type
definitions for the community tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.definitions.services import transcribe
from campaigns.groups.services import create_group, new_campaign
from campaigns.models import Group


@pytest.fixture
def another_table(db: None) -> Callable[..., Group]:
    """another_table(name, chapter=2, share=True): another group, at that chapter, owned by a user
    of its own."""
    made: list[Group] = []

    def _table(name: str, chapter: int = 2, share: bool = True) -> Group:
        owner = User.objects.create_user(f"owner-{len(made)}-{name}")
        group = create_group(owner, name, first_campaign=False)
        new_campaign(group, start_chapter=chapter)
        if not share:
            group.share_with_community = False
            group.save(update_fields=["share_with_community"])
        made.append(group)
        return group

    return _table


@pytest.fixture
def at_chapter_2(group: Group) -> Group:
    """The cast's group (Alice owner, Bob member, Dave viewer) playing chapter 2."""
    new_campaign(group, start_chapter=2)
    return group


@pytest.fixture
def tables(db: None) -> Callable[..., None]:
    """tables(rules, n, clock_id="2-1", chapter=2): n other tables type these rules."""
    count = [0]

    def _tables(
        rules: list[dict[str, Any]], n: int, clock_id: str = "2-1", chapter: int = 2
    ) -> None:
        for _ in range(n):
            count[0] += 1
            owner = User.objects.create_user(f"other-{count[0]}")
            other = create_group(owner, f"Table {count[0]}", first_campaign=False)
            new_campaign(other, start_chapter=chapter)
            transcribe(other, clock_id, {"rules": rules}, owner)

    return _tables
