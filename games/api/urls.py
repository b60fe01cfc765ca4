from django.urls import path, register_converter

from games.api.views import (
    account_live,
    accounts,
    challenges,
    chat,
    history,
    ladder,
    live,
    lobby,
    meta,
    ratings,
    rematch,
    seeks,
    turns,
)


class RoomConverter:
    """A chat room's name in a path (another word is no path: 404 `not_found`)."""

    regex = "players|spectators"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RoomConverter, "room")

urlpatterns = [
    # The requests of a game in play first: Django tries the patterns in order, and each one
    # passed over costs a match (a third of an action's routing, docs/PERFORMANCE.md). A game
    # id is never "import" (a UUID), but `games/import` still comes before the game's path.
    path("games/import", history.ImportView.as_view(), name="import"),
    path("games/<str:game_id>", lobby.GameDetailView.as_view(), name="game"),
    path("games/<str:game_id>/actions", turns.AnyActionView.as_view(), name="act"),
    *(
        path(f"games/<str:game_id>/actions/{segment}", view.as_view(), name=segment)
        for segment, view in (
            (turns.action_segment(kind), view) for kind, view in turns.TYPED_ACTION_VIEWS.items()
        )
    ),
    path("rules", meta.RulesView.as_view(), name="rules"),
    path("problems", meta.ProblemIndexView.as_view(), name="problem-types"),
    path("problems/<str:code>", meta.ProblemTypeView.as_view(), name="problem-type"),
    path("account/stream", account_live.AccountStreamView.as_view(), name="account-stream"),
    path("account/events", account_live.AccountEventsView.as_view(), name="account-events"),
    path("bots", lobby.BotListView.as_view(), name="bots"),
    path("accounts", accounts.AccountListView.as_view(), name="accounts"),
    path("account", accounts.AccountView.as_view(), name="account"),
    path("account/tokens", accounts.TokenListView.as_view(), name="account-tokens"),
    path("account/tokens/<int:token_id>", accounts.TokenView.as_view(), name="account-token"),
    path("account/games", accounts.MyGamesView.as_view(), name="account-games"),
    path("account/ladder", ladder.AccountLadderView.as_view(), name="account-ladder"),
    path("ladder", ladder.LadderView.as_view(), name="ladder"),
    path("players/<str:handle>", accounts.PlayerView.as_view(), name="player"),
    path("players/<str:handle>/games", accounts.PlayerGamesView.as_view(), name="player-games"),
    path(
        "players/<str:handle>/ratings",
        ratings.PlayerRatingsView.as_view(),
        name="player-ratings",
    ),
    path("leaderboard", ratings.LeaderboardView.as_view(), name="leaderboard"),
    path("challenges", challenges.ChallengeListView.as_view(), name="challenges"),
    path(
        "challenges/<str:challenge_id>",
        challenges.ChallengeDetailView.as_view(),
        name="challenge",
    ),
    *(
        path(f"challenges/<str:challenge_id>/{verb}", view.as_view(), name=f"challenge-{verb}")
        for verb, view in (
            ("accept", challenges.AcceptChallengeView),
            ("decline", challenges.DeclineChallengeView),
            ("cancel", challenges.CancelChallengeView),
        )
    ),
    path("seeks", seeks.SeekListView.as_view(), name="seeks"),
    path("seeks/<str:seek_id>", seeks.SeekView.as_view(), name="seek"),
    path("games", lobby.GameListView.as_view(), name="games"),
    path("games/<str:game_id>/events", history.EventFeedView.as_view(), name="events"),
    path("games/<str:game_id>/stream", live.StreamView.as_view(), name="stream"),
    path("games/<str:game_id>/chat", chat.ChatView.as_view(), name="chat"),
    path(
        "games/<str:game_id>/chat/mutes/<room:room>",
        chat.ChatMuteView.as_view(),
        name="chat-mute",
    ),
    path("games/<str:game_id>/history", history.HistoryView.as_view(), name="history"),
    path("games/<str:game_id>/players", lobby.JoinView.as_view(), name="join"),
    path("games/<str:game_id>/rematch", rematch.RematchView.as_view(), name="rematch"),
    path(
        "games/<str:game_id>/reservations/<str:handle>",
        lobby.ReservationView.as_view(),
        name="reservation",
    ),
    path(
        "games/<str:game_id>/players/<int:seat>/token",
        lobby.RotateTokenView.as_view(),
        name="rotate-token",
    ),
    path("games/<str:game_id>/players/<int:seat>/leave", lobby.LeaveView.as_view(), name="leave"),
]
