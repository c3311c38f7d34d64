"""The admin: for looking into a group when someone asks for help, not for playing.

Read-mostly. A campaign's state changes only through ``campaigns.services`` (row lock, an
event for undo), so campaigns, their progress, sessions, attempts and transcriptions are
shown but not edited here; only a group's name and its community opt-out, and a player's
name, may be corrected. Groups are created by their owners, never here.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from campaigns.models import (
    Attempt,
    Campaign,
    ClockTranscription,
    Group,
    Membership,
    Player,
    Session,
)


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Lists and shows; adds and edits nothing."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(ReadOnlyInline):
    model = Membership
    fields = ["user", "role"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "user"]
    readonly_fields = ["user"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CampaignInline(ReadOnlyInline):
    model = Campaign
    fields = ["kind", "bonus_tokens", "created", "completed"]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "created", "share_with_community"]
    list_filter = ["share_with_community"]
    search_fields = ["name", "memberships__user__username"]
    fields = ["name", "share_with_community", "created", "invite_token"]
    readonly_fields = ["created", "invite_token"]
    inlines = [MembershipInline, PlayerInline, CampaignInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a group starts with its owner and first campaign: services.create_group


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ["group", "user", "role"]
    list_filter = ["role"]
    search_fields = ["group__name", "user__username"]
    list_select_related = ["group", "user"]


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "group", "kind", "bonus_tokens", "created", "completed"]
    list_filter = ["kind"]
    search_fields = ["group__name"]
    list_select_related = ["group"]
    date_hierarchy = "created"


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ["date", "campaign", "player_names"]
    search_fields = ["campaign__group__name", "players__name"]
    list_select_related = ["campaign__group"]
    date_hierarchy = "date"

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("players")

    @admin.display(description=_("Players"))
    def player_names(self, session: Session) -> str:
        return ", ".join(player.name for player in session.players.all())


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = [
        "created",
        "campaign",
        "clock_id",
        "outcome",
        "players",
        "bonus_tokens",
        "face_up",
        "clock_version",
    ]
    list_filter = ["outcome", "players"]
    search_fields = ["campaign__group__name", "clock_id"]
    list_select_related = ["campaign__group"]
    date_hierarchy = "created"


@admin.register(ClockTranscription)
class ClockTranscriptionAdmin(ReadOnlyAdmin):
    list_display = ["clock_id", "version", "group", "author", "created"]
    search_fields = ["group__name", "clock_id"]
    list_select_related = ["group", "author"]
