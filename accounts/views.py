from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from accounts.models import ApiToken
from accounts.throttle import signup_allowed
from config.http import AuthenticatedHttpRequest, on_this_site


def _safe_next(request: HttpRequest) -> str:
    """Where to go after signing up: ?next= (an invite link, say) if it stays on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if on_this_site(request, target):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and not signup_allowed(request):
        form.add_error(None, _("Too many sign-ups from your address; please try again later."))
        context = {"form": form, "next": next_url}
        return render(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "dashboard")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@never_cache  # the page shows a new token's key: no cache may keep it
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The account's API token: which one it has (its first digits), make a new one
    (``create``; it replaces the earlier one), or revoke it (``revoke``). A new password
    revokes it too (accounts.signals).

    The database keeps only the key's hash (accounts.models), so the key is shown once: in
    the answer to the POST that made it, never stored in the session or a message, and
    never again after."""
    key = ""
    if request.method == "POST":
        if "revoke" in request.POST:
            if ApiToken.objects.filter(user=request.user).delete()[0]:
                messages.success(request, _("Your API token was revoked; it no longer works."))
            return redirect("api_token")
        key = ApiToken.issue(request.user)
    token = ApiToken.objects.filter(user=request.user).first()
    context = {"token": token, "key": key}
    return render(request, "registration/api_token.html", context)
