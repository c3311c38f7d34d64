from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # login, logout, password_change(_done), password_reset(_done/_confirm/_complete)
    path("", include("django.contrib.auth.urls")),
]
