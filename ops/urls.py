from django.urls import path

from ops.views import healthz, manifest, offline, service_worker, trust, trust_certificate

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The installable app: at the root, so the service worker may serve every page.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline/", offline, name="offline"),
    # make serve's local certificate authority, for phones to trust (public: before log-in).
    path("trust/", trust, name="trust"),
    path("trust/timekeeper-ca.crt", trust_certificate, name="trust-certificate"),
]
