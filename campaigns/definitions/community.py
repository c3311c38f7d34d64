"""Clock transcriptions shared between tables, without spoilers.

Only clock 1-1 ships with its special rules; every other clock is transcribed by a group
from its own box. One table's transcription can serve every table that reaches that clock:

- Every version a group saves carries the fingerprint of its canonical definition
  (``rules.canonical``); the group's newest version is marked ``latest`` and counts once.
- A group sees the distinct definitions other groups hold for a clock, with how many groups
  typed each one themselves. ``confirmed`` takes ``CONFIRMED_AT`` of those groups with no
  person in common (their owners and writing members, and whoever typed the version), so
  one person, or one table with three accounts, cannot confirm rules alone. A version taken
  over with ``adopt`` is recorded as adopted and never counts, so copying cannot confirm.
- Spoilers: a group sees nothing of a clock whose chapter it has not opened (chapter
  contents are secret in the box): the list and adoption answer 404.
- ``Group.share_with_community`` off: the group neither shares nor sees.
- Staff may hide a definition (offered to nobody) or promote one: the site-wide default for
  its clock, used like a shipped one by groups that have none of their own.

Which definition a group plays is ``campaigns.definitions.played.played_definition``; it asks
here for the confirmed one when a hint may use other tables' rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.definitions.services import (
    check_transcription_limits,
    save_version,
)
from campaigns.errors import CampaignError
from campaigns.models import (
    ClockTranscription,
    CommunityDefinition,
    DefinitionReport,
    Group,
    Membership,
)
from campaigns.play.state import CampaignState, campaign_state
from config.errors import NotVisible
from rules.clock import Clock

CONFIRMED_AT = 3  # groups with no person in common typing the same rules
REASON_LENGTH = 500


# --- what a group may see -----------------------------------------------------------------


def _state(group: Group, state: CampaignState | None) -> CampaignState:
    return state or campaign_state(group.current_campaign())


def sees_community(group: Group, clock_id: str, state: CampaignState | None = None) -> bool:
    """The group shares (so it sees) and has opened the clock's chapter."""
    return group.share_with_community and _state(group, state).clock_open(clock_id)


# --- the shared list ----------------------------------------------------------------------


@dataclass(frozen=True)
class SharedDefinition:
    """One distinct definition of a clock held by other tables: ``definition`` its canonical
    JSON as stored, ``groups`` the sharing groups whose latest version typed it themselves
    (this group included, if it did); ``confirmed`` when ``CONFIRMED_AT`` of them have no
    person in common (``independent``)."""

    fingerprint: str
    definition: dict[str, Any]
    groups: int
    mine: bool
    confirmed: bool = False

    @cached_property
    def clock(self) -> Clock:
        # Read only when drawn or adopted: the API answers the stored JSON as it is.
        return Clock.from_json(self.definition)

    def to_json(self) -> dict[str, Any]:
        """The public ``GET /api/groups/{id}/community/{clock}/`` item."""
        return {
            "fingerprint": self.fingerprint,
            "definition": self.definition,
            "groups": self.groups,
            "confirmed": self.confirmed,
            "mine": self.mine,
        }


def shared_definitions(
    group: Group, clock_id: str, state: CampaignState | None = None
) -> list[SharedDefinition]:
    """The definitions of ``clock_id`` that other sharing tables typed themselves, confirmed
    ones first, then most groups. NotVisible (a 404) when the chapter is not opened; empty when the
    group opts out.

    Two queries whatever the number of groups: one aggregate over the latest versions of the
    clock (index ``transcription_community_idx``), one for the definitions themselves; two
    more, for the people behind them, when a definition has ``CONFIRMED_AT`` groups."""
    if not _state(group, state).clock_open(clock_id):
        raise NotVisible
    if not group.share_with_community:
        return []
    typed = Q(adopted=False)
    # The few groups that opt out, excluded by id: no join to the groups per row.
    silent = Group.objects.filter(share_with_community=False).values("id")
    rows = (
        ClockTranscription.objects.filter(clock_id=clock_id, latest=True)
        .exclude(group__in=silent)
        .values("fingerprint")
        .annotate(  # counting group ids, which the index holds (ids would need the rows)
            groups=Count("group", filter=typed),
            others=Count("group", filter=typed & ~Q(group=group)),
            mine=Count("group", filter=Q(group=group)),
        )
        .filter(others__gt=0)
    )
    counts = {row["fingerprint"]: row for row in rows}
    candidates = [print_ for print_, row in counts.items() if row["groups"] >= CONFIRMED_AT]
    confirmed = confirmed_fingerprints(clock_id, candidates) if candidates else set()
    definitions = CommunityDefinition.objects.filter(
        clock_id=clock_id, fingerprint__in=list(counts), hidden=False
    ).values_list("fingerprint", "definition")
    shared = [
        SharedDefinition(
            fingerprint=print_,
            definition=definition,
            groups=counts[print_]["groups"],
            mine=counts[print_]["mine"] > 0,
            confirmed=print_ in confirmed,
        )
        for print_, definition in definitions
    ]
    shared.sort(key=lambda s: (not s.confirmed, -s.groups, s.fingerprint))
    return shared


def confirmed_fingerprints(clock_id: str, fingerprints: list[str]) -> set[str]:
    """Which of ``fingerprints`` ``CONFIRMED_AT`` sharing groups with no person in common
    typed: the one home of "confirmed", for the list, the definition a hint plays and the
    prefill. A group's people: its owners and writing members, and the author of its version
    (who may have left it since); a group with nobody is no one's confirmation."""
    silent = Group.objects.filter(share_with_community=False).values("id")
    typed = (
        ClockTranscription.objects.filter(
            clock_id=clock_id, latest=True, adopted=False, fingerprint__in=fingerprints
        )
        .exclude(group__in=silent)
        .values_list("fingerprint", "group_id", "author_id")
    )
    people: dict[int, set[int]] = {}
    groups_of: dict[str, list[int]] = {}
    for print_, group_id, author_id in typed:
        groups_of.setdefault(print_, []).append(group_id)
        people.setdefault(group_id, set()).update([author_id] if author_id else [])
    writers = Membership.objects.filter(
        group_id__in=list(people), role__in=Membership.WRITERS
    ).values_list("group_id", "user_id")
    for group_id, user_id in writers:
        people[group_id].add(user_id)
    return {
        print_
        for print_, group_ids in groups_of.items()
        if independent([people[g] for g in group_ids if people[g]], CONFIRMED_AT)
    }


def independent(groups: list[set[int]], needed: int) -> bool:
    """Whether ``needed`` of ``groups`` (each the set of its people) share no person: a
    search that stops at the first such choice (at most len(groups)**needed steps, and far
    fewer when groups are strangers, as they usually are)."""

    def choose(start: int, taken: set[int], left: int) -> bool:
        if left == 0:
            return True
        return any(
            not groups[i] & taken and choose(i + 1, taken | groups[i], left - 1)
            for i in range(start, len(groups) - left + 1)
        )

    return choose(0, set(), needed)


def shared_definition(group: Group, clock_id: str, fingerprint_: str) -> SharedDefinition:
    """One definition of the list (what the group may adopt or report), else NotVisible (a 404)."""
    for shared in shared_definitions(group, clock_id):
        if shared.fingerprint == fingerprint_:
            return shared
    raise NotVisible


# --- the offer on the group page -----------------------------------------------------------


def agreement_offer(group: Group, clock: Clock, state: CampaignState) -> SharedDefinition | None:
    """For the next-clock card: the definition most tables typed, when the group has nothing
    of its own for the clock (``clock``, the one it plays, has no known rules) and sees other
    tables' definitions."""
    if clock.transcribed or not sees_community(group, clock.id, state):
        return None
    return next(iter(shared_definitions(group, clock.id, state)), None)


def agreement_text(groups: int) -> str:
    return ngettext(
        "%(n)d table typed this clock's rules — use them?",
        "%(n)d tables agree on this clock's rules — use them?",
        groups,
    ) % {"n": groups}


# --- saving versions ----------------------------------------------------------------------


def adopt(group: Group, clock_id: str, fingerprint_: str, user: User | None) -> ClockTranscription:
    """Take over a definition other tables typed as the group's new version, recorded as
    adopted. NotVisible (a 404) for a definition the group cannot see (unknown, hidden, another
    chapter, opted out). The caller checked that the user may write."""
    shared = shared_definition(group, clock_id, fingerprint_)
    check_transcription_limits(user, shared.clock)
    return save_version(group, shared.clock, user, adopted=True)


def report(
    group: Group, clock_id: str, fingerprint_: str, user: User, reason: str
) -> DefinitionReport:
    """A member reports a shared definition to the staff, with a reason (once per user and
    definition: a second report replaces the reason)."""
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError(_("Say what is wrong with these rules."), "reason")
    if len(reason) > REASON_LENGTH:
        raise CampaignError(
            _("A reason has at most %(max)d characters.") % {"max": REASON_LENGTH}, "reason"
        )
    shared_definition(group, clock_id, fingerprint_)
    definition = CommunityDefinition.objects.get(clock_id=clock_id, fingerprint=fingerprint_)
    row, _created = DefinitionReport.objects.update_or_create(
        definition=definition, user=user, defaults={"group": group, "reason": reason}
    )
    return row


# --- staff --------------------------------------------------------------------------------


def promote(definition: CommunityDefinition) -> None:
    """Make ``definition`` the site-wide default for its clock (replacing any other)."""
    with transaction.atomic():
        CommunityDefinition.objects.filter(clock_id=definition.clock_id, promoted=True).exclude(
            pk=definition.pk
        ).update(promoted=False)
        definition.promoted, definition.hidden = True, False
        definition.save(update_fields=["promoted", "hidden"])


def hide(definition: CommunityDefinition) -> None:
    """Offer ``definition`` to nobody (a promoted one stops being the default)."""
    definition.hidden, definition.promoted = True, False
    definition.save(update_fields=["hidden", "promoted"])
