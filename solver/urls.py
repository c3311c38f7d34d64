from django.urls import path

from solver import api, postmortem_api, views

app_name = "solver"

urlpatterns = [
    path("hints/", views.hint_list, name="list"),
    path("hints/new/", views.hint_new, name="new"),
    path("hints/<id:hint_id>/", views.hint_detail, name="detail"),
    path("hints/<id:hint_id>/cancel/", views.hint_cancel, name="cancel"),
    path("hints/<id:hint_id>/retry/", views.hint_retry, name="retry"),
    path("hints/<id:hint_id>/what-if/", views.hint_what_if, name="what_if"),
    path("groups/<id:group_id>/table/plan/<str:clock_id>/", views.table_plan, name="table_plan"),
    path("api/hints/", api.hint_create, name="api-create"),
    path("api/hints/<id:hint_id>/", api.hint_status, name="api-detail"),
    path("api/hints/<id:hint_id>/cancel/", api.hint_cancel, name="api-cancel"),
    path("api/layouts/postmortem/", postmortem_api.layout_postmortem, name="api-postmortem"),
]
