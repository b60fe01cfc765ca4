"""The stream tier's URLs (`skyjo_service.asgi.stream_tier`): the game streams, and the
rules as its health check. Every other path answers 404 `not_found`: the API servers serve
them, and a sync request here (a long poll, an account stream) would hold the thread that
every sync view of the tier shares."""

from django.urls import path, re_path

from games.api.problems import not_found_view
from games.api.views import live, meta

urlpatterns = [
    path("api/v1/games/<str:game_id>/stream", live.StreamView.as_view(), name="stream"),
    path("api/v1/rules", meta.RulesView.as_view(), name="rules"),
    re_path(r"", not_found_view),  # a problem document, even with DEBUG on
]

handler400 = "games.api.problems.bad_request_view"
handler404 = "games.api.problems.not_found_view"
handler500 = "games.api.problems.server_error_view"
