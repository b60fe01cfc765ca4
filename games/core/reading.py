"""What a request reads: the game it names and the seat its credential stands for (a read
honours a passed turn deadline first), a replay at any point, the seats' bindings.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from engine import GameState
from games import store
from games.core.errors import (
    GameNotFound,
    InvalidToken,
    SeatPlayedByBot,
)
from games.core.resources import game_data
from games.core.service_moves import honour_deadline
from games.core.states import game_state
from games.core.tokens import Credential
from games.models import Game, Seat, Status
from games.store import log


def game_uuid(game_id: object) -> uuid.UUID:
    """A game id from a path as a UUID (404 if it is none)."""
    try:
        return game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None


def get_game(game_id: object) -> Game:
    """The game, after any turn of it that ran out is timed out (`honour_deadline`)."""
    try:
        game = Game.objects.get(pk=game_uuid(game_id))
    except Game.DoesNotExist:
        raise GameNotFound(game_id) from None
    if honour_deadline(game):
        game = Game.objects.get(pk=game.pk)
    return game


def game_and_seat(
    game_id: object, credential: Credential | None, *, required: bool, for_write: bool = False
) -> tuple[Game, int | None]:
    """The game and the seat `credential` stands for in it (None: a spectator), in one query
    (`for_write`: to the write database, for an action to decide on): 404 for no such game,
    401 for a token of no seat of it (or none, when `required`)."""
    game_key = game_uuid(game_id)
    token_hash = None if credential is None else credential.seat_hash(game_key)
    found = store.fetch_game(game_key, token_hash, for_write=for_write)
    if found is not None and honour_deadline(found[0]):
        found = store.fetch_game(found[0].id, token_hash, for_write=True)
    if found is None:
        raise GameNotFound(game_id)
    game, seat = found
    if credential is None and required:
        raise InvalidToken(InvalidToken.MISSING)
    if credential is not None and seat is None:
        raise InvalidToken()
    return game, seat


def replay_data(game: Game, seat: int | None, at: int) -> dict[str, Any]:
    """The game just after event `at` (1 to its version), as `seat` may see it: a finished
    game shows everything, face-down cards included. Its `updated_at` is event `at`'s time."""
    state = game_state(game, at=at)
    moment = log.events(game, after=at - 1, upto=at)[0].at
    finished = game.status == Status.FINISHED
    return game_data(game, state, seat, reveal_all=finished, updated_at=moment)


@dataclass(frozen=True)
class SeatBinding:
    """Who holds a seat: its token's hash (None once its player left a started game) and the
    bot that plays it, if any. A stream of the seat ends when this changes (`games.streams`)."""

    token_hash: str | None
    bot: str | None


def seat_bindings(game_id: uuid.UUID) -> dict[int, SeatBinding]:
    """Every joined seat's binding, read now (a rotated token changes no version)."""
    rows = Seat.objects.filter(game_id=game_id).values_list("seat", "token_hash", "bot")
    return {seat: SeatBinding(token_hash, bot) for seat, token_hash, bot in rows}


def seat_binding(game_id: uuid.UUID, seat: int, credential: Credential) -> SeatBinding:
    """`seat`'s binding, if `credential` still holds it (401 otherwise): what a stream of the
    seat starts with."""
    binding = seat_bindings(game_id).get(seat)
    if binding is None or binding.token_hash != credential.seat_hash(game_id):
        raise InvalidToken()
    return binding


def refuse_if_played_by_bot(state: GameState, seat: int) -> None:
    """409 `seat_played_by_bot` for a token whose seat a bot took over (`SeatAbandoned`): it
    still reads the game, but neither acts nor leaves (the bot plays on)."""
    if state.bots[seat] is not None:
        raise SeatPlayedByBot(seat, state.bots[seat])
