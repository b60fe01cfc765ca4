"""Root URLs: the API under /api/v1/, its schema and docs, the admin, and the web pages (the
lobby at /, tables and replays under /games/)."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from games.api.problems import not_found_view

urlpatterns = [
    path("api/v1/", include("games.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("admin/", admin.site.urls),
    # Unknown API paths answer problem details even with DEBUG on.
    re_path(r"^api/", not_found_view),
    path("", include("games.web.urls")),
]

if settings.BENCH_ENDPOINTS:  # the load benchmark's bare endpoint, never in production
    urlpatterns.insert(0, path("bench/", include("loadtest.urls")))

handler400 = "games.api.problems.bad_request_view"
handler404 = "games.api.problems.not_found_view"
handler500 = "games.api.problems.server_error_view"
