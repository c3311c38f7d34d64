"""The campaign pages' template filters."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone, translation

from campaigns.templatetags.timekeeper import ago


def test_a_moment_in_the_last_minute_is_just_now() -> None:
    assert ago(timezone.now() - timedelta(seconds=59)) == "just now"


def test_older_moments_say_how_long_ago() -> None:
    assert ago(timezone.now() - timedelta(minutes=5, seconds=3)) == "5\xa0minutes ago"


def test_it_speaks_the_readers_language() -> None:
    with translation.override("nl"):
        assert ago(timezone.now()) == "zojuist"


def test_no_moment_says_nothing() -> None:
    assert ago(None) == ""
