"""The pages' paths: the lobby at `/`, each game's table and replay under `/games/{id}`, and the
accounts' pages (`/signup`, `/login`, `/logout`, `/account`)."""

from django.urls import path

from games.web import accounts, views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    # Browsers ask for it whatever the page's icon link says (a page answered to a POST, say).
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/new", views.create, name="create"),
    path("games/<str:game_id>", views.table, name="table"),
    path("games/<str:game_id>/table", views.table_partial, name="table-partial"),
    path("games/<str:game_id>/join", views.join, name="join"),
    path("games/<str:game_id>/act", views.act, name="act"),
    path("games/<str:game_id>/leave", views.leave, name="leave"),
    path("games/<str:game_id>/rematch", views.rematch, name="rematch"),
    path("games/<str:game_id>/replay", views.replay, name="replay"),
    path("signup", accounts.signup, name="signup"),
    path("login", accounts.LoginPage.as_view(), name="login"),
    path("logout", accounts.LogoutPage.as_view(), name="logout"),
    path("account", accounts.account, name="account"),
    path("account/tokens", accounts.create_token, name="create-token"),
    path("account/tokens/<int:token_id>/revoke", accounts.revoke_token, name="revoke-token"),
]
