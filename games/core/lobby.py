"""The lobby's use cases: create a game, join, leave, rotate a seat's token, list games."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q

from engine import (
    EMPTY,
    GameState,
    Join,
    Leave,
    Options,
    act,
    replay,
)
from engine import (
    create_game as engine_create_game,
)
from games.core import bots, clock
from games.core.append import all_or_nothing, append_events, optimistic
from games.core.errors import (
    Forbidden,
    InvalidToken,
)
from games.core.reading import game_and_seat, game_uuid, get_game, refuse_if_played_by_bot
from games.core.states import game_state, shuffler_of
from games.core.tokens import SeatCredential, hash_token, new_token
from games.models import Game, Seat, Status

SEED_BITS = 63


def create_game(*, seats: int, options: dict[str, Any] | None, seed: int | None) -> Game:
    rules = Options(**(options or {}))
    events = engine_create_game(seats, rules)  # validates seats and options (R2, R12)
    seeded = seed is not None  # the creator knows the seed, so every card: told to joiners
    if seed is None:
        seed = secrets.randbits(SEED_BITS)

    def write() -> Game:
        game = Game.objects.create(seats=seats, options=rules.to_data(), seed=seed, seeded=seeded)
        append_events(game, EMPTY, events, replay(events))
        return game

    return optimistic(lambda _: all_or_nothing(write))


@dataclass(frozen=True)
class Joined:
    """A seat taken: a person's, with its token (shown once), or a bot's (`bot`), with none."""

    game: Game
    seat: int
    name: str
    token: str | None
    state: GameState
    bot: str | None = None


def join_game(game_id: object, name: str, bot: str | None = None) -> Joined:
    """Take the next open seat for a person, or for a bot playing strategy `bot` (R13)."""

    def attempt(_: int) -> Joined:
        game = get_game(game_id)
        before = game_state(game)
        events, after = act(before, None, Join(name, bot), shuffler_of(game))
        seat = events[0].seat  # type: ignore[union-attr]
        token = None if bot is not None else new_token()
        token_hash = None if token is None else hash_token(token)

        def write() -> None:  # the seat's row with its events: both or neither
            append_events(game, before, events, after)
            Seat.objects.create(game=game, seat=seat, name=name, token_hash=token_hash, bot=bot)

        all_or_nothing(write)
        return Joined(game, seat, name, token, after, bot)

    return optimistic(attempt, game_uuid(game_id))


def own_seat(
    game_id: object, seat: int, credential: SeatCredential | None, *, for_write: bool = False
) -> Game:
    """The game, if `credential` is `seat`'s token in it: 401 for a token of no seat of it,
    403 for another seat's."""
    game, own = game_and_seat(game_id, credential, required=True, for_write=for_write)
    if own != seat:
        raise Forbidden("A seat token may only rotate its own token or leave its own seat.")
    return game


@dataclass(frozen=True)
class LeftSeat:
    game: Game
    state: GameState


def leave_seat(game_id: object, seat: int, credential: SeatCredential | None) -> LeftSeat:
    """Give `seat` up, authorised by its token (R13): in a waiting game the seat is open again,
    in a started one a bot (`bots.REPLACEMENT`) plays it to the end; either way the token
    stops acting at once. A finished game refuses (409 `game_finished`), and so does a seat a
    bot already plays (409 `seat_played_by_bot`)."""

    def attempt(_: int) -> LeftSeat:
        game = own_seat(game_id, seat, credential, for_write=True)
        assert credential is not None
        before = game_state(game)
        refuse_if_played_by_bot(before, seat)
        events, after = act(before, seat, Leave(bots.REPLACEMENT))
        append_events(game, before, events, after, seat_token=(seat, credential.token_hash))
        return LeftSeat(game, after)

    return optimistic(attempt, game_uuid(game_id))


@dataclass(frozen=True)
class RotatedToken:
    seat: int
    name: str
    token: str


def rotate_token(game_id: object, seat: int, credential: SeatCredential | None) -> RotatedToken:
    """Replace `seat`'s token by a new one, authorised by its current token (401 for a token of
    no seat of this game, 403 for another seat's). The old token stops working at once.

    Tokens are not part of the game's log: no event is appended and the version stays. The
    token is swapped only if it is still the one presented, so of two concurrent rotations
    with the same token one wins and the other is refused (401).
    """
    game = own_seat(game_id, seat, credential)
    assert credential is not None
    token = new_token()
    rows = Seat.objects.filter(game=game, seat=seat, token_hash=credential.token_hash)
    name = rows.values_list("name", flat=True).first()
    if name is None or rows.update(token_hash=hash_token(token)) != 1:
        raise InvalidToken()
    return RotatedToken(seat, name, token)


def listed_games(query: dict[str, Any]) -> Any:
    """The games a lobby's validated `query` selects (`status`, `seats`, `open_seats`,
    `seeded`; stale games only with `stale`), in its `ordering` (the id breaks ties), their
    seats fetched with them: the API's list and the web lobby show the same games."""
    games = Game.objects.prefetch_related("seat_rows")
    if not query.get("stale"):
        games = games.exclude(~Q(status=Status.FINISHED), updated_at__lt=stale_before())
    if "status" in query:
        games = games.filter(status=query["status"])
    if "seats" in query:
        games = games.filter(seats=query["seats"])
    if "open_seats" in query:
        games = games.filter(seats__gte=F("players_joined") + query["open_seats"])
    if "seeded" in query:
        games = games.filter(seeded=query["seeded"])
    ordering = query["ordering"]
    return games.order_by(ordering, "-id" if ordering.startswith("-") else "id")


def stale_before() -> datetime:
    """An unfinished game whose last event is older than this is stale: no one moves it (a
    seat taken by a client that never came back keeps a game without a clock waiting)."""
    return clock.now() - timedelta(seconds=settings.LOBBY_STALE_AFTER_SECONDS)


def is_stale(game: Game) -> bool:
    return game.status != Status.FINISHED and game.updated_at < stale_before()
