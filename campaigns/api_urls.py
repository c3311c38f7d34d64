"""/api/… routes of campaigns (included from campaigns/urls.py)."""

from django.urls import path

from campaigns import api
from campaigns.definitions import community_api
from campaigns.statistics import api as statistics_api

group = "groups/<id:group_id>/"

urlpatterns = [
    path("clocks/", api.clock_list, name="api-clocks"),
    path("clocks/<str:clock_id>/", api.clock_detail, name="api-clock"),
    path("layouts/check/", api.layout_check, name="api-layout-check"),
    path("groups/", api.group_list, name="api-groups"),
    path("groups/import/", api.group_import, name="api-group-import"),
    path("imports/<id:import_id>/", api.import_detail, name="api-import"),
    path(group, api.group_detail, name="api-group"),
    path(group + "progress/", api.progress, name="api-progress"),
    path(group + "attempts/", api.attempts, name="api-attempts"),
    path(group + "sleeve/", api.sleeve, name="api-sleeve"),
    path(group + "sleeve/retrieve/", api.sleeve_retrieve, name="api-sleeve-retrieve"),
    path(group + "undo/", api.undo, name="api-undo"),
    path(group + "events/", api.events, name="api-events"),
    path(group + "members/", api.members, name="api-members"),
    path(group + "members/<id:member_id>/", api.member_detail, name="api-member"),
    path(group + "campaigns/", api.campaigns, name="api-campaigns"),
    path(group + "sessions/", api.sessions, name="api-sessions"),
    path(group + "transcriptions/", api.transcriptions, name="api-transcriptions"),
    path(group + "transcriptions/adopt/", community_api.adopt, name="api-transcriptions-adopt"),
    path(group + "community/<str:clock_id>/", community_api.shared_list, name="api-community"),
    path(
        group + "community/<str:clock_id>/<str:fingerprint>/report/",
        community_api.report,
        name="api-community-report",
    ),
    path(group + "statistics/", statistics_api.statistics, name="api-statistics"),
    path(group + "statistics.csv", statistics_api.statistics_csv, name="api-statistics-csv"),
    path(group + "export/", api.export_json, name="api-export"),
    path(group + "export.csv", api.export_csv, name="api-export-csv"),
    path(group + "sessions/<id:session_id>/bgstats/", api.export_bgstats, name="api-bgstats"),
]
