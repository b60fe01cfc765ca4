"""The pages' paths: the lobby at `/`, each game's table and replay under `/games/{id}`, the
answers to a challenge under `/challenges/{id}`, quick play's ("Play now" at `/play`, a
person's seek at `/seeks/{id}`), the accounts' pages (`/signup`, `/login`, `/logout`,
`/account`), and the ratings' (`/leaderboard`, `/players/{handle}`, `/ladder`)."""

from django.urls import path

from games.web import accounts, challenges, chat, quick_play, rating_pages, views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    # Browsers ask for it whatever the page's icon link says (a page answered to a POST, say).
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/new", views.create, name="create"),
    path("games/bots", views.play_bots, name="play-bots"),
    path("play", quick_play.play_now, name="play-now"),
    path("seeks/<str:seek_id>", quick_play.seek_page, name="seek"),
    path("seeks/<str:seek_id>/status", quick_play.seek_status, name="seek-status"),
    path("seeks/<str:seek_id>/cancel", quick_play.cancel_seek, name="cancel-seek"),
    path("games/<str:game_id>", views.table, name="table"),
    path("games/<str:game_id>/table", views.table_partial, name="table-partial"),
    path("games/<str:game_id>/join", views.join, name="join"),
    path("games/<str:game_id>/act", views.act, name="act"),
    path("games/<str:game_id>/leave", views.leave, name="leave"),
    path("games/<str:game_id>/rematch", views.rematch, name="rematch"),
    path("games/<str:game_id>/replay", views.replay, name="replay"),
    path("challenges/<str:challenge_id>/accept", challenges.accept, name="challenge-accept"),
    path("challenges/<str:challenge_id>/decline", challenges.decline, name="challenge-decline"),
    path("challenges/<str:challenge_id>/cancel", challenges.cancel, name="challenge-cancel"),
    path("games/<str:game_id>/chat", chat.chat_poll, name="chat-poll"),
    path("games/<str:game_id>/chat/send", chat.chat_send, name="chat-send"),
    path("games/<str:game_id>/chat/mute", chat.chat_mute, name="chat-mute"),
    path("signup", accounts.signup, name="signup"),
    path("login", accounts.LoginPage.as_view(), name="login"),
    path("logout", accounts.LogoutPage.as_view(), name="logout"),
    path("account", accounts.account, name="account"),
    path("account/tokens", accounts.create_token, name="create-token"),
    path("account/tokens/<int:token_id>/revoke", accounts.revoke_token, name="revoke-token"),
    path("leaderboard", rating_pages.leaderboard, name="leaderboard"),
    path("players/<str:handle>", rating_pages.player, name="player"),
    path("ladder", rating_pages.ladder, name="ladder"),
]
