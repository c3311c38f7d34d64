"""/api/… routes of campaigns (included from campaigns/urls.py)."""

from django.urls import path

from campaigns.definitions import api as definitions_api
from campaigns.definitions import community_api
from campaigns.groups import api as groups_api
from campaigns.history import api as history_api
from campaigns.play import api as play_api
from campaigns.statistics import api as statistics_api

group = "groups/<id:group_id>/"

urlpatterns = [
    path("clocks/", definitions_api.clock_list, name="api-clocks"),
    path("clocks/<str:clock_id>/", definitions_api.clock_detail, name="api-clock"),
    path("layouts/check/", definitions_api.layout_check, name="api-layout-check"),
    path("groups/", groups_api.group_list, name="api-groups"),
    path("groups/import/", history_api.group_import, name="api-group-import"),
    path("imports/<id:import_id>/", history_api.import_detail, name="api-import"),
    path(group, groups_api.group_detail, name="api-group"),
    path(group + "progress/", play_api.progress, name="api-progress"),
    path(group + "attempts/", play_api.attempts, name="api-attempts"),
    path(group + "sleeve/", play_api.sleeve, name="api-sleeve"),
    path(group + "sleeve/retrieve/", play_api.sleeve_retrieve, name="api-sleeve-retrieve"),
    path(group + "undo/", play_api.undo, name="api-undo"),
    path(group + "redo/", play_api.redo, name="api-redo"),
    path(group + "events/", play_api.events, name="api-events"),
    path(group + "members/", groups_api.members, name="api-members"),
    path(group + "members/<id:member_id>/", groups_api.member_detail, name="api-member"),
    path(group + "campaigns/", groups_api.campaigns, name="api-campaigns"),
    path(group + "sessions/", groups_api.sessions, name="api-sessions"),
    path(group + "transcriptions/", definitions_api.transcriptions, name="api-transcriptions"),
    path(group + "transcriptions/adopt/", community_api.adopt, name="api-transcriptions-adopt"),
    path(group + "community/<str:clock_id>/", community_api.shared_list, name="api-community"),
    path(
        group + "community/<str:clock_id>/<str:fingerprint>/report/",
        community_api.report,
        name="api-community-report",
    ),
    path(group + "statistics/", statistics_api.statistics, name="api-statistics"),
    path(group + "statistics.csv", statistics_api.statistics_csv, name="api-statistics-csv"),
    path(group + "export/", history_api.export_json, name="api-export"),
    path(group + "export.csv", history_api.export_csv, name="api-export-csv"),
    path(
        group + "sessions/<id:session_id>/bgstats/", history_api.export_bgstats, name="api-bgstats"
    ),
]
