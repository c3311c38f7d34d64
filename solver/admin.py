from django.contrib import admin

from solver.models import HintRequest


@admin.register(HintRequest)
class HintRequestAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "user",
        "clock_id",
        "colours",
        "face_up",
        "status",
        "progress",
        "queued_at",
    ]
    list_filter = ["status", "failure", "players"]
    search_fields = ["user__username", "clock_id", "colours", "input_hash", "task_id"]
    raw_id_fields = ["user", "group", "campaign", "attempt", "reused_from"]
    readonly_fields = [
        "input_hash",
        "task_id",
        "runs",
        "queued_at",
        "sent_at",
        "started_at",
        "beat_at",
        "finished_at",
    ]
