# Placeholder until the campaigns app lands: the dashboard route the foundation redirects to.
from django.urls import path

from campaigns import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
]
