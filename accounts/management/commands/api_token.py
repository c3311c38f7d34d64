"""``manage.py api_token USERNAME``: a new API token for an account, printed once.

The database keeps only the token's hash (accounts.models), so the key cannot be shown
again: a new one replaces any earlier token of the account. The output line has the form of
DRF's ``drf_create_token``: "Generated token KEY for user USERNAME".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import ApiToken


class Command(BaseCommand):
    help = "Make a new API token for an account (replacing its earlier one) and print it once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account is named {username!r}.", returncode=2)
        key = ApiToken.issue(user)
        self.stdout.write(f"Generated token {key} for user {username}")
        self.stderr.write("It is shown only now: the database keeps only its hash.")
