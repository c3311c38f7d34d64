from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional; needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class LoginForm(AuthenticationForm):
    """Django's log-in form, refusing a username longer than any account's before anyone
    authenticates it: django-axes records a failed log-in's username in a 255-character
    column, which PostgreSQL refuses to overflow (a 500). Django's form sets the field's
    ``max_length`` after building it, so no validator of its own checks the length."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        longest = self.username_field.max_length or 150  # the account model's column
        self.fields["username"].validators.append(MaxLengthValidator(longest))
