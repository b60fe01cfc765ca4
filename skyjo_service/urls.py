"""Root URLs: the API under /api/v1/, its schema and docs, the admin, and the web pages (the
lobby at /, tables and replays under /games/)."""

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from games.api.problems import not_found_view

#: Swagger UI's and Redoc's pages configure themselves with inline scripts and styles (and Redoc
#: runs a worker from a blob): they are the API's documentation, holding no player's data, so
#: their CSP allows that; every other page's does not (settings.CONTENT_SECURITY_POLICY).
third_party_docs = csp_update(
    {
        "script-src": ["'unsafe-inline'"],
        "style-src": ["'unsafe-inline'"],
        "worker-src": ["'self'", "blob:"],
    }
)

urlpatterns = [
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        third_party_docs(SpectacularSwaggerView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
    path(
        "api/redoc/",
        third_party_docs(SpectacularRedocView.as_view(url_name="schema")),
        name="redoc",
    ),
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
