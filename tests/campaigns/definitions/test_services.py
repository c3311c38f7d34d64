"""The clock definitions' services (campaigns.definitions.services), one behaviour per
test."""

from __future__ import annotations

from django.contrib.auth.models import User

from campaigns.definitions.played import played_definition
from campaigns.definitions.services import transcribe
from campaigns.models import Group


def test_transcriptions_are_versioned(group: Group, alice: User) -> None:
    definition = {
        "start": 3,
        "cap": 24,
        "rules": [{"kind": "card_count", "segment": 2, "count": 2}],
    }
    transcribe(group, "5-2", definition, alice)
    transcribe(group, "5-2", {**definition, "start": 4}, alice)
    choice = played_definition(group, "5-2")
    clock, version = choice.clock, choice.version
    assert (clock.start, version, clock.transcribed) == (4, 2, True)
