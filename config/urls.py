from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.ids import IdConverter

# Registered before the apps' URLs are included: their ids are <id:…>, never <int:…>.
register_converter(IdConverter, "id")

urlpatterns = [
    path("", include("ops.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("solver.urls")),
    path("", include("campaigns.urls")),
]
