from django.urls import path

from ops.views import healthz, manifest, offline, service_worker

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The installable app: at the root, so the service worker may serve every page.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline/", offline, name="offline"),
]
