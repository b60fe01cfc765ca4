from django.urls import path

from . import history_views, meta_views, views

urlpatterns = [
    path("rules", meta_views.RulesView.as_view(), name="rules"),
    path("problems", meta_views.ProblemIndexView.as_view(), name="problem-types"),
    path("problems/<str:code>", meta_views.ProblemTypeView.as_view(), name="problem-type"),
    path("games", views.GameListView.as_view(), name="games"),
    path("games/import", history_views.ImportView.as_view(), name="import"),
    path("games/<str:game_id>", views.GameDetailView.as_view(), name="game"),
    path("games/<str:game_id>/events", history_views.EventFeedView.as_view(), name="events"),
    path("games/<str:game_id>/history", history_views.HistoryView.as_view(), name="history"),
    path("games/<str:game_id>/players", views.JoinView.as_view(), name="join"),
    path(
        "games/<str:game_id>/players/<int:seat>/token",
        views.RotateTokenView.as_view(),
        name="rotate-token",
    ),
    path("games/<str:game_id>/actions/reveal", views.RevealView.as_view(), name="reveal"),
    path("games/<str:game_id>/actions/draw", views.DrawView.as_view(), name="draw"),
    path(
        "games/<str:game_id>/actions/take-discard",
        views.TakeDiscardView.as_view(),
        name="take-discard",
    ),
    path("games/<str:game_id>/actions/replace", views.ReplaceView.as_view(), name="replace"),
    path("games/<str:game_id>/actions/discard", views.DiscardView.as_view(), name="discard"),
]
