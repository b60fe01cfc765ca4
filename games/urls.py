from django.urls import path

from . import views

urlpatterns = [
    path("games", views.GameListView.as_view(), name="games"),
    path("games/<str:game_id>", views.GameDetailView.as_view(), name="game"),
    path("games/<str:game_id>/players", views.JoinView.as_view(), name="join"),
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
