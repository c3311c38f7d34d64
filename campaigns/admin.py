"""The admin: for looking into a group when someone asks for help, not for playing.

Read-mostly. A campaign's state changes only through its services
(``campaigns.play.services``: row lock, an event for undo), so campaigns, their progress,
sessions, attempts and transcriptions are shown but not edited here; only a group's name and
its community opt-out, and a player's name, may be corrected. Groups are created by their
owners, never here.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _

from campaigns.definitions import community, described
from campaigns.models import (
    Attempt,
    Campaign,
    ClockTranscription,
    CommunityDefinition,
    DefinitionReport,
    DescribedRuleKind,
    Group,
    Membership,
    Player,
    Session,
)
from config.i18n import current_lang
from rules.clock import Clock


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
    list_display = [
        "clock_id",
        "version",
        "group",
        "fingerprint",
        "latest",
        "adopted",
        "author",
        "created",
    ]
    list_filter = ["latest", "adopted"]
    search_fields = ["group__name", "clock_id", "=fingerprint"]
    list_select_related = ["group", "author"]


# --- definitions shared between tables ----------------------------------------------------


class DefinitionReportInline(ReadOnlyInline):
    model = DefinitionReport
    fields = ["created", "group", "user", "reason"]
    show_change_link = False


@admin.register(CommunityDefinition)
class CommunityDefinitionAdmin(ReadOnlyAdmin):
    """Staff keep the shared definitions clean: hide one (offered to no table), or promote
    one to the site-wide default of its clock (played like a shipped definition by groups
    with none of their own; the shipped files stay as they are). The definitions themselves
    come from what tables typed, so they are never edited here: only the actions change
    them, through ``campaigns.definitions.community``."""

    list_display = ["clock_id", "fingerprint", "rules_in_words", "reports", "hidden", "promoted"]
    list_filter = ["hidden", "promoted", "clock_id"]
    search_fields = ["=clock_id", "=fingerprint"]
    readonly_fields = [
        "clock_id",
        "fingerprint",
        "rules_in_words",
        "definition",
        "hidden",
        "promoted",
    ]
    inlines = [DefinitionReportInline]
    actions = ["hide", "show", "promote"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[CommunityDefinition]:
        return super().get_queryset(request).annotate(report_count=Count("reports"))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The actions need it; every field is read-only.
        return bool(request.user.is_staff)

    @admin.display(description=_("rules"))
    def rules_in_words(self, definition: CommunityDefinition) -> str:
        return " ".join(Clock.from_json(definition.definition).describe(current_lang()))

    @admin.display(description=_("reports"), ordering="report_count")
    def reports(self, definition: CommunityDefinition) -> int:
        return int(getattr(definition, "report_count", 0))

    @admin.action(description=_("Hide from every table"))
    def hide(self, request: HttpRequest, queryset: QuerySet[CommunityDefinition]) -> None:
        for definition in queryset:
            community.hide(definition)
        self.message_user(request, _("Hidden from every table."))

    @admin.action(description=_("Show to the tables again"))
    def show(self, request: HttpRequest, queryset: QuerySet[CommunityDefinition]) -> None:
        queryset.update(hidden=False)
        self.message_user(request, _("Shown to the tables again."))

    @admin.action(description=_("Promote to the site-wide default of its clock"))
    def promote(self, request: HttpRequest, queryset: QuerySet[CommunityDefinition]) -> None:
        chosen = list(queryset)
        if len({definition.clock_id for definition in chosen}) != len(chosen):
            self.message_user(
                request, _("Choose one definition per clock to promote."), messages.ERROR
            )
            return
        for definition in chosen:
            community.promote(definition)
        self.message_user(request, _("Promoted: tables without rules of their own now use it."))


@admin.register(DescribedRuleKind)
class DescribedRuleKindAdmin(admin.ModelAdmin):
    """Learning which kinds to add: the rules tables typed in their own words (kind
    ``described``), listed across the groups that share with the community on the page "in
    use"; and staff's word that some words are now expressible as a kind Timekeeper checks.
    Groups using those words are then offered the structured rule in their editor."""

    list_display = ["text", "rule", "created"]
    search_fields = ["text"]
    change_list_template = "admin/campaigns/describedrulekind/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        in_use = self.admin_site.admin_view(self.in_use_view)
        return [
            path("in-use/", in_use, name="campaigns_describedrulekind_in_use"),
            *super().get_urls(),
        ]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"text": request.GET.get("text", ""), "rule": {"kind": ""}}

    def in_use_view(self, request: HttpRequest) -> TemplateResponse:
        """Every described rule of the sharing groups' latest definitions, most used first:
        its words, clock, how many groups, one group's definition, and whether staff have
        already marked it."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        rows = [
            {
                "item": item,
                "example_url": reverse(
                    "admin:campaigns_clocktranscription_change", args=[item.example]
                ),
                "mark_url": reverse("admin:campaigns_describedrulekind_add")
                + "?"
                + urlencode({"text": item.text}),
            }
            for item in described.in_use()
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Rules tables typed in their own words"),
            "opts": self.model._meta,
            "rows": rows,
        }
        return TemplateResponse(request, "admin/campaigns/describedrulekind/in_use.html", context)
