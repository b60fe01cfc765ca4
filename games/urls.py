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
    path("games/<str:game_id>/actions", views.AnyActionView.as_view(), name="act"),
    *(
        path(f"games/<str:game_id>/actions/{segment}", view.as_view(), name=segment)
        for segment, view in (
            (views.action_segment(kind), view) for kind, view in views.TYPED_ACTION_VIEWS.items()
        )
    ),
]
