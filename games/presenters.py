"""Plain-data representations of games, in the shapes `games.serializers` documents."""

from __future__ import annotations

from typing import Any

from engine import GameState, view

from .models import Game


def game_data(
    game: Game, state: GameState, seat: int | None, *, reveal_all: bool = False
) -> dict[str, Any]:
    """The game as `seat` (None: a spectator) may see it: the API's game resource."""
    data = view(state, seat, reveal_all=reveal_all).to_data()
    return {"id": str(game.id), "created_at": _timestamp(game), **data}


def game_summary(game: Game) -> dict[str, Any]:
    """A lobby entry: from the summary columns, without replaying the log."""
    names = [row.name for row in game.seat_rows.all()]
    return {
        "id": str(game.id),
        "created_at": _timestamp(game),
        "status": game.status,
        "version": game.version,
        "round": game.round,
        "seats": game.seats,
        "open_seats": game.seats - game.players_joined,
        "options": game.options,
        "players": names,
    }


def _timestamp(game: Game) -> str:
    return game.created_at.isoformat().replace("+00:00", "Z")
