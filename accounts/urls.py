from django.contrib.auth.views import LoginView
from django.urls import include, path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("token/", views.api_token, name="api_token"),
    path("login/", LoginView.as_view(authentication_form=LoginForm), name="login"),
    # logout, password_change(_done), password_reset(_done/_confirm/_complete)
    path("", include("django.contrib.auth.urls")),
]
