"""The pages' paths: the lobby at `/`, each game's table and replay under `/games/{id}`."""

from django.urls import path

from games.web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new", views.create, name="create"),
    path("games/<str:game_id>", views.table, name="table"),
    path("games/<str:game_id>/table", views.table_partial, name="table-partial"),
    path("games/<str:game_id>/join", views.join, name="join"),
    path("games/<str:game_id>/act", views.act, name="act"),
    path("games/<str:game_id>/leave", views.leave, name="leave"),
    path("games/<str:game_id>/replay", views.replay, name="replay"),
]
