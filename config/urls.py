from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path, register_converter
from django.utils.csp import CSP
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.defaults import page_not_found
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.ids import IdConverter

# Registered before the apps' URLs are included: their ids are <id:…>, never <int:…>.
register_converter(IdConverter, "id")

# The policy of every page, with inline styles allowed (see the Swagger page below).
DOCS_CSP: dict[str, Any] = dict(settings.SECURE_CSP)
DOCS_CSP["style-src"] = [CSP.SELF, CSP.UNSAFE_INLINE]


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """An unknown /api/… path answers the API's JSON 404, the others Django's page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return page_not_found(request, exception)


handler404 = not_found

urlpatterns = [
    path("", include("ops.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI's set-up script is a file of its own (the split view); its page keeps a
    # small inline <style>, so this page alone allows inline styles.
    path(
        "api/docs/",
        csp_override(DOCS_CSP)(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path("", include("solver.urls")),
    path("", include("campaigns.urls")),
]

# An error about the database or the disk raised outside a view is a 503/507 with a reason.
handler500 = "ops.middleware.server_error"
