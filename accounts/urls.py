from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("token/", views.api_token, name="api_token"),
    # login, logout, password_change(_done), password_reset(_done/_confirm/_complete)
    path("", include("django.contrib.auth.urls")),
]
