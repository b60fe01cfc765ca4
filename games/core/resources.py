"""What a viewer is shown of a game, as plain data (the shapes `games.api.shapes` documents),
and the JSON bytes of an answer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from typing import Any

import orjson
from django.db.models import Prefetch, QuerySet
from django.utils.functional import Promise

from engine import GameState, Options, event_for_viewer, view
from games.core import clock, holds
from games.models import Game, SeatHold, Status
from games.store.log import StoredEvent


def game_data(
    game: Game,
    state: GameState,
    seat: int | None,
    *,
    reveal_all: bool = False,
    updated_at: Any = None,
) -> dict[str, Any]:
    """The game as `seat` (None: a spectator) may see it: the API's game resource.

    `updated_at` is the time of the state's last event: the game's (its last append) unless
    the state is an earlier one (a replay with `?at=`, which shows no `turn_deadline`). A seat
    a bot plays has no legal action of its own: the service moves it (R13)."""
    data = view(state, seat, reveal_all=reveal_all).to_data()
    current = updated_at is None
    if current and game.turn_deadline is not None:
        data["turn_deadline"] = iso_time(game.turn_deadline)
    if seat is not None and state.bots and state.bots[seat] is not None:
        data["legal_actions"] = []
    return {
        "id": str(game.id),
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at if current else updated_at),
        "seeded": game.seeded,
        "rated": state.options.rated,
        **game_links(game, holds.held_handles(game)),
        **data,
        "ratings": _ratings(game, state),
        "bot_pace_ms": clock.bot_pace(state) // PACE_UNIT,
    }


#: The unit of a view's `bot_pace_ms` (R15).
PACE_UNIT = timedelta(milliseconds=1)


#: What a rated game's view shows of each seat's rating (R14): `ratings.reading.view_ratings`,
#: installed by the ratings app's `ready` (`show_ratings_with`). The ratings sit above core,
#: which never imports them; as with its signals, they plug into core instead.
_RATINGS: dict[str, Callable[[Game, GameState], list[dict[str, Any]] | None]] = {}


def show_ratings_with(reader: Callable[[Game, GameState], list[dict[str, Any]] | None]) -> None:
    """Install what a rated game's views show as their `ratings`."""
    _RATINGS["reader"] = reader


def _ratings(game: Game, state: GameState) -> list[dict[str, Any]] | None:
    """The seats' ratings of a rated game's view, null for a casual game (which pays nothing
    more: the views are the hot path)."""
    if not game.options.get("rated"):
        return None
    reader = _RATINGS.get("reader")
    return None if reader is None else reader(game, state)


def game_summary(game: Game) -> dict[str, Any]:
    """A lobby entry: from the summary columns, without replaying the log. `players` are the
    seated names in seat order, `bots` the strategy of each (None for a person)."""
    seated = list(game.seat_rows.all())
    options = Options.from_data(game.options)  # an older game's too, whole
    return {
        "id": str(game.id),
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at),
        "status": game.status,
        "version": game.version,
        "round": game.round,
        "seats": game.seats,
        "open_seats": game.seats - game.players_joined,
        "options": options.to_data(),
        "players": [row.name for row in seated],
        "bots": [row.bot for row in seated],
        "accounts": [None if row.account is None else row.account.handle for row in seated],
        "totals": game.totals,
        "winners": game.winners,
        "seeded": game.seeded,
        "rated": options.rated,
        **game_links(game, holds.prefetched_handles(game)),
    }


def game_links(game: Game, reserved: list[str]) -> dict[str, Any]:
    """What a game's view and summary say beside its log: whether lobbies list it, the
    handles its seats are still `reserved` for, its rematch and the game it is a rematch of
    (a chain is followed through `rematch_of`)."""
    rematch = rematch_id(game)
    return {
        "listed": game.listed,
        "reserved": reserved,
        "rematch": None if rematch is None else {"game": rematch},
        "rematch_of": None if game.rematch_of_id is None else str(game.rematch_of_id),
    }


def rematch_id(game: Game) -> str | None:
    """The id of the finished game's rematch, if it has one (`next_game`)."""
    found = next_game(game)
    return None if found is None else str(found.id)


def next_game(game: Game, *, fresh: bool = False) -> Game | None:
    """The finished game's rematch, if one of its players asked for it (only a finished game
    can have one): the one look-up of it, for the views, the streams, the pages and the
    rematch itself. Fetched with the game (`with_links`) or by an earlier call on the same
    `game`, else (or when `fresh`) one indexed look-up of the unique `rematch_of`, kept on
    `game` for the next call: a page that shows a game and its rematch reads it once."""
    if game.status != Status.FINISHED:
        return None
    rematch = Game.rematch.related
    if fresh or not rematch.is_cached(game):
        rematch.set_cached_value(game, Game.objects.filter(rematch_of_id=game.id).first())
    found: Game | None = rematch.get_cached_value(game)
    return found


def with_links(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with what their summaries show fetched with them, a query per relation for
    the whole page rather than per game: seats and their accounts, holds and theirs, and
    the rematch (its id only)."""
    return games.prefetch_related(
        "seat_rows__account",
        Prefetch("holds", queryset=SeatHold.objects.select_related("account")),
        Prefetch("rematch", queryset=Game.objects.only("id", "rematch_of_id")),
    )


def event_feed(game: Game, events: list[StoredEvent], seat: int | None) -> dict[str, Any]:
    """Stored events as `seat` may see them (`seen_data`)."""
    return {
        "events": [
            {
                "sequence": stored.sequence,
                "type": stored.type,
                "at": iso_time(stored.at),
                "data": seen_data(game, stored, seat),
            }
            for stored in events
        ],
        "version": game.version,
    }


def seen_data(game: Game, stored: StoredEvent, seat: int | None) -> dict[str, Any]:
    """One stored event's data as `seat` may see it (R7): the one place that decides it, for
    the feed, the streams and the pages; once the game is finished nothing is hidden."""
    finished = game.status == Status.FINISHED
    return event_for_viewer(stored.event, seat, game.seats, reveal_all=finished)


def iso_time(moment: Any) -> str:
    """A stored time as every answer and every history writes it: ISO 8601, UTC as `Z`."""
    return str(moment.isoformat().replace("+00:00", "Z"))


def _default(value: Any) -> Any:
    if isinstance(value, Promise | Decimal):  # lazy translations, decimals
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def render_json(data: Any) -> bytes:
    """`data` as the bytes of a JSON answer: the API renderer's, the stream's frames' and the
    stored idempotent answers' (so that a replay is the first answer byte for byte). orjson,
    since a long game's view carries a summary of every finished round."""
    return orjson.dumps(data, default=_default)
