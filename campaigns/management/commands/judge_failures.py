"""``python manage.py judge_failures``: answer "was it winnable?" for the failed attempts
recorded with a layout that have no answer yet — those recorded before the question was
asked when a failure is recorded. Safe to run again: judged attempts are left as they are.
Prints how many were judged; exit 0."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from campaigns.winnable import judge_recorded


class Command(BaseCommand):
    help = (
        "Was it winnable? Judge the failed attempts recorded with a layout but without an "
        "answer (attempts recorded before this was asked when recording)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        judged, left = judge_recorded()
        self.stdout.write(f"Judged {judged} failed attempts; {left} could not be judged.")
