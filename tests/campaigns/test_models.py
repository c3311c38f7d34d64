"""Database constraints behind the invariants of campaigns.models."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from campaigns.groups.services import create_group, new_campaign
from campaigns.models import Attempt, Campaign, ClockProgress, Group, Membership

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


def test_reading_the_current_campaign_creates_nothing(alice: User) -> None:
    group = create_group(alice, "Fridays", first_campaign=False)
    with pytest.raises(Campaign.DoesNotExist):
        group.current_campaign()
    assert not Campaign.objects.filter(group=group).exists()


def test_the_current_campaign_is_the_newest(group: Group) -> None:
    first = group.current_campaign()
    newer = new_campaign(group, start_chapter=2)
    assert group.current_campaign() == newer != first


def test_the_database_refuses_an_unknown_role(group: Group, alice: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(group=group, user=alice).update(role="admin")
