"""The games an account sits in, for its pages ("my games", the lobby's "Your games")."""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game, Seat, Status

#: Finished games listed after the unfinished ones, the most recent first.
FINISHED_SHOWN = 10


@dataclass(frozen=True)
class SeatedGame:
    """A game and the account's seat in it; `your_turn`: the game waits for that seat."""

    game: Game
    seat: int
    your_turn: bool


def account_games(account_id: int) -> list[SeatedGame]:
    """The account's unfinished games, those waiting for its move first (then the most
    recently active), then its last few finished games."""
    rows = (
        Seat.objects.filter(account_id=account_id)
        .select_related("game")
        .prefetch_related("game__seat_rows__account")  # the lobby entries' names
        .order_by("-game__updated_at")
    )
    unfinished = [_seated(row) for row in rows.exclude(game__status=Status.FINISHED)]
    unfinished.sort(key=lambda seated: not seated.your_turn)  # stable: recent first within
    finished = rows.filter(game__status=Status.FINISHED)[:FINISHED_SHOWN]
    return unfinished + [_seated(row) for row in finished]


def _seated(row: Seat) -> SeatedGame:
    game = row.game
    turn = game.status == Status.PLAYING and game.current_seat == row.seat and row.bot is None
    return SeatedGame(game, row.seat, turn)
