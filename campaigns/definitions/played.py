"""Which rules a group plays a clock by: the one answer, asked by the group page, the clock
page and the editor, recording an attempt (its verdict and the version it names), the layout
check, the hint form, the hint API and the hint job."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from campaigns.definitions.community import sees_community, shared_definitions
from campaigns.models import ClockTranscription, CommunityDefinition, Group
from campaigns.play.state import CampaignState
from rules.canonical import fingerprint
from rules.catalogue import get_clock
from rules.clock import Clock


@dataclass(frozen=True)
class DefinitionChoice:
    """The rules a group plays a clock by, and where they come from: ``own`` (its latest
    version ``version``), ``promoted`` (the site-wide default staff chose), ``shipped``
    (the catalogue file; ``clock.transcribed`` False when its special rules are unknown), or
    ``community`` (a confirmed definition of other tables, typed by ``groups`` of them; only
    when asked for with ``community=True``)."""

    source: str
    clock: Clock
    version: int = 0
    fingerprint: str = ""
    groups: int = 0

    OWN = "own"
    PROMOTED = "promoted"
    SHIPPED = "shipped"
    COMMUNITY = "community"


def played_definition(
    group: Group, clock_id: str, *, community: bool = False, state: CampaignState | None = None
) -> DefinitionChoice:
    """The definition ``group`` plays ``clock_id`` by, in this order: its own latest
    version; the promoted one; the shipped one when its rules are known; with ``community``
    (the hint form and the hint API), a confirmed definition other tables typed, if the
    group sees them (``state``: its campaign's, read when not given); else the shipped one,
    rules unknown. Without ``community`` other tables' definitions are only offered
    (``community.agreement_offer``), never played behind the group's back."""
    own = (
        ClockTranscription.objects.filter(group=group, clock_id=clock_id, latest=True)
        .only("definition", "version", "fingerprint")
        .first()
    )
    if own is not None:
        clock = Clock.from_json(own.definition)
        return DefinitionChoice(DefinitionChoice.OWN, clock, own.version, own.fingerprint)
    promoted = CommunityDefinition.objects.filter(clock_id=clock_id, promoted=True).first()
    if promoted is not None:
        clock = Clock.from_json(promoted.definition)
        return DefinitionChoice(DefinitionChoice.PROMOTED, clock, 0, promoted.fingerprint)
    shipped = get_clock(clock_id)
    choice = DefinitionChoice(DefinitionChoice.SHIPPED, shipped, 0, fingerprint(shipped))
    if shipped.transcribed or not community or not sees_community(group, clock_id, state):
        return choice
    top = next(iter(shared_definitions(group, clock_id, state)), None)  # confirmed first
    if top is None or not top.confirmed:
        return choice
    return DefinitionChoice(DefinitionChoice.COMMUNITY, top.clock, 0, top.fingerprint, top.groups)


def recorded_definitions(
    group: Group, recorded: Iterable[tuple[str, int]]
) -> dict[tuple[str, int], Clock]:
    """The definition each recorded (clock, version) was played and judged by: the group's
    version ``version``, or for 0 (or a version since deleted) the promoted definition,
    else the shipped one — ``played_definition``'s order when the attempt was recorded, as
    an attempt keeps the version it named. At most two queries, for any number of
    attempts."""
    wanted = set(recorded)
    clock_ids = {clock_id for clock_id, _ in wanted}
    versions = {version for _, version in wanted if version}
    found: dict[tuple[str, int], Clock] = {}
    if versions:
        rows = ClockTranscription.objects.filter(
            group=group, clock_id__in=clock_ids, version__in=versions
        ).only("clock_id", "version", "definition")
        for row in rows:
            if (row.clock_id, row.version) in wanted:
                found[(row.clock_id, row.version)] = Clock.from_json(row.definition)
    unowned = {clock_id for clock_id, version in wanted - found.keys()}
    promoted: dict[str, Clock] = {}
    if unowned:
        rows_promoted = CommunityDefinition.objects.filter(
            clock_id__in=unowned, promoted=True
        ).only("clock_id", "definition")
        promoted = {row.clock_id: Clock.from_json(row.definition) for row in rows_promoted}
    for key in wanted - found.keys():
        found[key] = promoted.get(key[0]) or get_clock(key[0])
    return found
