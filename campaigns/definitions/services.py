"""Clock ids a person typed, and saving a group's own versions of its clocks (typed here, or
adopted from other tables through ``campaigns.definitions.community``). Which version a
group plays is ``campaigns.definitions.played.played_definition``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import CampaignError, signed_in
from campaigns.models import ClockTranscription, CommunityDefinition, Group
from config.errors import LimitReached
from rules.canonical import as_typed, canonical_json, fingerprint
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.errors import RulesError


def known_clock(clock_id: object, field_name: str = "clock") -> str:
    """The canonical id of a catalogue clock, or CampaignError naming ``field_name``."""
    if not isinstance(clock_id, str):
        raise CampaignError(_("Give a clock id like 1-1."), field_name)
    try:
        return get_clock(clock_id).id
    except RulesError:
        raise CampaignError(
            _("Unknown clock %(clock)s: clocks are 1-1 … 10-4 and rebirth.")
            % {"clock": clock_id[:20]},
            field_name,
        ) from None


MAX_VERSIONS_PER_HOUR = 30  # per user, typed and adopted versions together


class TranscriptionLimitReached(CampaignError, LimitReached):
    """A user saved or adopted too many versions in the last hour (429)."""


def check_transcription_limits(user: User | None, clock: Clock) -> None:
    """At most MAX_VERSIONS_PER_HOUR new versions per user (typed or adopted), which keeps
    what tables share with each other usable. (The rule count is bounded where every clock
    definition is read: rules.clock.MAX_RULES.)"""
    if user is None:
        return
    since = timezone.now() - timedelta(hours=1)
    if (
        ClockTranscription.objects.filter(author=user, created__gte=since).count()
        >= MAX_VERSIONS_PER_HOUR
    ):
        raise TranscriptionLimitReached(
            _("You saved %(n)d clock versions in the last hour; try again later.")
            % {"n": MAX_VERSIONS_PER_HOUR},
            "rules",
        )


def save_version(
    group: Group, clock: Clock, user: User | None, adopted: bool = False
) -> ClockTranscription:
    """Store ``clock`` as the group's next version of its clock, in canonical form, and make
    it the latest (the one other tables count). A version typed to equal one the group
    adopted earlier stays adopted: retyping what one copied is not independent."""
    # The group's version keeps described words as typed; other tables share the folded
    # canonical definition, found by the fingerprint.
    definition = as_typed(clock).to_json()
    print_ = fingerprint(clock)
    with transaction.atomic():
        Group.objects.select_for_update().get(pk=group.pk)  # versions are numbered in order
        versions = ClockTranscription.objects.filter(group=group, clock_id=clock.id)
        last = versions.order_by("-version").values_list("version", flat=True).first()
        adopted = adopted or versions.filter(fingerprint=print_, adopted=True).exists()
        versions.filter(latest=True).update(latest=False)
        # get_or_create takes care of another table saving the same definition at once.
        CommunityDefinition.objects.get_or_create(
            clock_id=clock.id, fingerprint=print_, defaults={"definition": canonical_json(clock)}
        )
        return ClockTranscription.objects.create(
            group=group,
            clock_id=clock.id,
            version=(last or 0) + 1,
            definition=definition,
            fingerprint=print_,
            latest=True,
            adopted=adopted,
            author=user,
        )


def transcribe(
    group: Group, clock_id: str, definition: dict[str, Any], user: User | None
) -> ClockTranscription:
    """Save a new version of the group's definition of ``clock_id`` (RulesError if invalid,
    CampaignError past the limits), in canonical form."""
    clock_id = known_clock(clock_id)
    definition = {**definition, "id": clock_id}
    definition.pop("transcribed", None)
    clock = Clock.from_json(definition)  # validates; RulesError names the field
    author = signed_in(user)
    check_transcription_limits(author, clock)
    return save_version(group, clock, author)
