"""Who sits where: the names the hint form starts from, and the last seating of a group.

The form asks for one name per seat in play order (the order of the colours). It starts
from the group's last seating (saved whenever the group asks for a hint with names), and
where that does not cover the table, from the group's listed players in the order they were
added. The words then speak to people by these names (``solver.core.words``).
"""

from __future__ import annotations

from collections.abc import Sequence

from campaigns.models import Group
from solver.models import Seating


def last_seating(group: Group) -> list[str]:
    """The names of the group's last hint with names, in seat order ([] if none)."""
    row = Seating.objects.filter(group=group).only("names").first()
    return [str(name) for name in row.names] if row is not None else []


def suggested_names(group: Group, players: int, typed: Sequence[str] = ()) -> list[str]:
    """One name per seat for a table of ``players``: the names already ``typed`` on the form
    (in their order), then the last seating, then the group's players; "" where nobody is
    left. The same name never sits twice (ignoring case)."""
    listed = list(group.players.order_by("id").values_list("name", flat=True))
    names: list[str] = []
    seen: set[str] = set()
    for name in [*typed, *last_seating(group), *listed]:
        name = " ".join(str(name).split())
        if name and name.casefold() not in seen:
            names.append(name)
            seen.add(name.casefold())
    return (names + [""] * players)[:players]


def remember(group: Group, names: Sequence[str]) -> None:
    """Keep ``names`` as the group's last seating (nothing to keep without names)."""
    if names:
        Seating.objects.update_or_create(group=group, defaults={"names": list(names)})
