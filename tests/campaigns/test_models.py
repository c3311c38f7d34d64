"""Database constraints behind the invariants of campaigns.models."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError, transaction

from campaigns.models import Attempt, Campaign, ClockProgress

Play = Callable[..., Attempt]


def test_the_database_refuses_a_fourth_bonus_token(campaign: Campaign) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(bonus_tokens=4)


def test_the_database_refuses_a_wrong_face_up_count(campaign: Campaign, play: Play) -> None:
    attempt = play(campaign, "failed")
    with pytest.raises(IntegrityError), transaction.atomic():
        Attempt.objects.filter(pk=attempt.pk).update(face_up=9)


def test_the_database_refuses_two_progress_rows_for_a_clock(campaign: Campaign) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        ClockProgress.objects.create(campaign=campaign, clock_id="1-1", position=99)
