from django.urls import include, path

from campaigns import views
from campaigns.definitions import community_views
from campaigns.statistics import views as statistics_views

group = "groups/<id:group_id>/"

# The pages, namespaced "campaigns:" (e.g. reverse("campaigns:group", args=[group_id])).
pages = [
    path("groups/import/", views.group_import, name="import"),
    path("imports/<id:import_id>/", views.import_progress, name="import_progress"),
    path(group, views.group_page, name="group"),
    path(group + "live/", views.live, name="live"),
    path(group + "table/", views.table, name="table"),
    path(group + "record/", views.record, name="record"),
    path(group + "check/", views.layout_check, name="check"),
    path(group + "undo/", views.undo, name="undo"),
    path(group + "sessions/", views.sessions, name="sessions"),
    path(group + "sessions/<id:session_id>/", views.session_detail, name="session"),
    path(group + "sessions/<id:session_id>/bgstats.json", views.export_bgstats, name="bgstats"),
    path(group + "sleeve/", views.sleeve, name="sleeve"),
    path(group + "clocks/<str:clock_id>/", views.clock_page, name="clock"),
    path(group + "clocks/<str:clock_id>/edit/", views.transcribe, name="transcribe"),
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
    path(group + "members/", views.members, name="members"),
    path(group + "members/invite/", views.invite_rotate, name="invite"),
    path(group + "members/<id:member_id>/", views.member_change, name="member"),
    path(group + "players/<id:player_id>/", views.player_change, name="player"),
    path(group + "settings/", views.settings_page, name="settings"),
    path(group + "settings/sharing/", community_views.sharing, name="sharing"),
    path(group + "statistics/", statistics_views.statistics_page, name="stats"),
    path(group + "export.json", views.export_json, name="export_json"),
    path(group + "export.csv", views.export_csv, name="export_csv"),
    path("join/<str:token>/", views.join, name="join"),
]

urlpatterns = [
    # The foundation (settings.LOGIN_REDIRECT_URL, base.html) names the dashboard "dashboard".
    path("", views.dashboard, name="dashboard"),
    path("api/", include("campaigns.api_urls")),
    path("", include((pages, "campaigns"))),
]
