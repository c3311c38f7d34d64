from django.urls import include, path

from campaigns.definitions import community_views
from campaigns.definitions import views as definitions_views
from campaigns.groups import views as groups_views
from campaigns.history import views as history_views
from campaigns.play import views as play_views
from campaigns.recap import views as recap_views
from campaigns.statistics import views as statistics_views

group = "groups/<id:group_id>/"

# The pages, namespaced "campaigns:" (e.g. reverse("campaigns:group", args=[group_id])).
pages = [
    path("groups/import/", history_views.group_import, name="import"),
    path("imports/<id:import_id>/", history_views.import_progress, name="import_progress"),
    path(group, play_views.group_page, name="group"),
    path(group + "live/", play_views.live, name="live"),
    path(group + "table/", play_views.table, name="table"),
    path(group + "record/", play_views.record, name="record"),
    path(group + "check/", play_views.layout_check, name="check"),
    path(group + "undo/", play_views.undo, name="undo"),
    path(group + "redo/", play_views.redo, name="redo"),
    path(group + "sessions/", groups_views.sessions, name="sessions"),
    path(group + "sessions/<id:session_id>/", groups_views.session_detail, name="session"),
    path(
        group + "sessions/<id:session_id>/bgstats.json",
        history_views.export_bgstats,
        name="bgstats",
    ),
    path(group + "sessions/<id:session_id>/recap.png", recap_views.recap_png, name="recap_png"),
    path(group + "sleeve/", play_views.sleeve, name="sleeve"),
    path(group + "clocks/<str:clock_id>/", definitions_views.clock_page, name="clock"),
    path(group + "clocks/<str:clock_id>/edit/", definitions_views.transcribe, name="transcribe"),
    path(
        group + "clocks/<str:clock_id>/community/use/",
        community_views.adopt,
        name="community_adopt",
    ),
    path(
        group + "clocks/<str:clock_id>/community/report/",
        community_views.report,
        name="community_report",
    ),
    path(group + "members/", groups_views.members, name="members"),
    path(group + "members/invite/", groups_views.invite_rotate, name="invite"),
    path(group + "members/<id:member_id>/", groups_views.member_change, name="member"),
    path(group + "players/<id:player_id>/", groups_views.player_change, name="player"),
    path(group + "settings/", groups_views.settings_page, name="settings"),
    path(group + "settings/sharing/", community_views.sharing, name="sharing"),
    path(group + "statistics/", statistics_views.statistics_page, name="stats"),
    path(group + "export.json", history_views.export_json, name="export_json"),
    path(group + "export.csv", history_views.export_csv, name="export_csv"),
    path("join/<str:token>/", groups_views.join, name="join"),
]

urlpatterns = [
    # The foundation (settings.LOGIN_REDIRECT_URL, base.html) names the dashboard "dashboard".
    path("", groups_views.dashboard, name="dashboard"),
    path("api/", include("campaigns.api_urls")),
    path("", include((pages, "campaigns"))),
]
