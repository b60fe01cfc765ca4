"""Histories: a finished game's complete log as a versioned JSON document, and its import.

The document (format `skyjo-history`, `format_version` 1):

    {"format": "skyjo-history", "format_version": 1,
     "game": {"id", "created_at", "seats", "options", "players": [{"seat", "name"}],
              "status", "version", "winners"},
     "events": [{"sequence", "type", "schema_version", "at", "data"}, ...]}

`data` is the engine event's payload at its `schema_version`; nothing is hidden. Importing
replays every event through the engine's auditor (`engine.audit.verify_log`), so a history that
the rules would not have written is refused, naming its first offending event.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accounts.services import builtin_account_id
from engine import (
    EMPTY,
    Event,
    GameState,
    Options,
    replay,
)
from engine import state as engine_state
from engine.audit import InvalidLog, verify_log
from engine.events import GameCreated, PlayerJoined
from engine.strategies import STRATEGIES
from games.core.append import all_or_nothing, append_events, optimistic
from games.core.errors import GameNotFinished, InvalidHistory
from games.core.lobby import SEED_BITS
from games.core.resources import iso_time
from games.core.tokens import hash_token, new_token
from games.models import Game, Seat
from games.store import log

FORMAT = "skyjo-history"


FORMAT_VERSION = 1


MAX_EVENTS = 50_000


def export_history(game: Game) -> dict[str, Any]:
    """The complete log of a finished game (409 `game_not_finished` before its end)."""
    if not game.ended:
        raise GameNotFinished()
    events: list[dict[str, Any]] = [
        {
            "sequence": stored.sequence,
            "type": stored.type,
            "schema_version": stored.schema_version,
            "at": iso_time(stored.at),
            "data": stored.payload,
        }
        for stored in log.events(game)
    ]
    players = [{"seat": row.seat, "name": row.name} for row in game.seat_rows.order_by("seat")]
    winners = next(
        (e["data"]["winners"] for e in reversed(events) if e["type"] == "GameEnded"), None
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {
            "id": str(game.id),
            "created_at": iso_time(game.created_at),
            "seats": game.seats,
            "options": game.options,
            "players": players,
            "status": game.status,
            "version": game.version,
            "winners": winners,
            "seeded": game.seeded,
        },
        "events": events,
    }


def field_problem(sequence: int | None, code: str, errors: dict[str, list[str]]) -> InvalidHistory:
    """`invalid_history` naming the first offending field (and listing them all)."""
    path, messages = next(iter(errors.items()))
    return InvalidHistory(sequence, code, f"{path}: {messages[0]}", errors)


def audit_events(events: list[Event]) -> GameState:
    """Replay a history's parsed events (numbered 1, 2, 3...) through the engine's auditor:
    the state they lead to, or `invalid_history` naming the first the rules would not have
    written."""
    try:
        state = verify_log(events)
    except InvalidLog as error:
        raise InvalidHistory(error.sequence, error.code, error.message) from None
    return state


def expected_envelope(events: list[Event], state: GameState, status: str) -> dict[str, Any]:
    """What a `game` object must say of the game these events make (as an export writes it)."""
    first = events[0]
    assert isinstance(first, GameCreated)
    seated = [(seat, name) for seat, name in enumerate(state.names) if name is not None]
    players = [{"seat": seat, "name": name} for seat, name in seated]
    return {
        "seats": first.seats,
        "options": first.options.to_data(),
        "players": players,
        "status": status,
        "version": state.version,
        "winners": list(state.winners) if state.winners else None,
    }


def check_envelope(game: dict[str, Any], expected: dict[str, Any]) -> None:
    """The `game` object summarises the events: each of its fields that is present must say
    what they say (`game_mismatch`, naming the fields), in the same JSON types. `id`,
    `created_at` (kept by the import) and `seeded` (the original's) are not in the events."""
    if isinstance(game.get("options"), dict):  # an older game's: without the options of since
        game = {**game, "options": {**Options().to_data(), **game["options"]}}
    wrong = {
        f"game.{key}": [f"The events say {json.dumps(value)}."]
        for key, value in expected.items()
        if key in game and not _same_json(game[key], value)
    }
    if wrong:
        raise field_problem(None, "game_mismatch", wrong)


def _same_json(found: Any, expected: Any) -> bool:
    """Equal as JSON: `true` is not `1`, nor `1.0` 1 (Python's `==` says they are)."""
    return json.dumps(found, sort_keys=True) == json.dumps(expected, sort_keys=True)


@dataclass(frozen=True)
class AuditedHistory:
    """A history document as its import takes it: its events, parsed and audited by the rules,
    the state they lead to, and the creation time of the game it was exported from (None when
    the document does not say). The HTTP side parses documents (`games.api.documents`)."""

    events: list[Event]
    state: GameState
    created_at: datetime | None


@dataclass(frozen=True)
class Imported:
    game: Game
    state: GameState
    seat_tokens: list[dict[str, Any]]


def import_history(audited: AuditedHistory) -> Imported:
    """A new game from a history document, every event audited by the rules first.

    A finished (or canceled) history becomes a finished (or canceled) game, without tokens;
    an unfinished one becomes playable, with a new
    token for each seat a person plays (a bot's seat has none: the service plays it) and a new
    secret seed for the shuffles still to come: so it is not `seeded` (no one knows its future
    cards), whatever the original was. The game keeps
    the original's `created_at`; its events are stored now (their `at` is the import's). The
    document's `game` object agreed with its events.
    """
    (events, state), created_at = as_guests(audited.events, audited.state), audited.created_at
    first = events[0]
    assert isinstance(first, GameCreated)
    options = first.options
    seated = [(seat, name) for seat, name in enumerate(state.names) if name is not None]
    finished = state.phase in engine_state.OVER  # a finished or canceled game: no seat acts

    def write() -> Imported:
        game = Game.objects.create(
            seats=first.seats, options=options.to_data(), seed=secrets.randbits(SEED_BITS)
        )
        if created_at is not None:  # the original game's, not the import's (auto_now_add)
            Game.objects.filter(pk=game.pk).update(created_at=created_at)
            game.created_at = created_at
        append_events(game, EMPTY, events, state)
        tokens = []
        for seat, name in seated:  # after the append: the seats as the log leaves them
            bot = state.bots[seat]
            token = None if bot is not None else new_token()
            token_hash = None if token is None else hash_token(token)
            handle = state.accounts[seat]  # a built-in bot's, or none (`as_guests`)
            system = None if handle is None else builtin_account_id(handle)
            Seat.objects.create(
                game=game,
                seat=seat,
                name=name,
                token_hash=token_hash,
                bot=bot,
                account_id=system,
            )
            if token is not None:
                tokens.append({"seat": seat, "name": name, "token": token})
        return Imported(game, state, [] if finished else tokens)

    return optimistic(lambda _: all_or_nothing(write))


def as_guests(events: list[Event], state: GameState) -> tuple[list[Event], GameState]:
    """The log with every person's seat a guest's (`PlayerJoined.account` null but for the
    built-in bots, the service's own), and its state: an import never binds seats to
    accounts, nor writes to their inboxes (a document could name any account). So an import
    is never rated either (R14): a rated game's comes in casual."""
    guests_only = all(handle is None or handle in STRATEGIES for handle in state.accounts)
    if guests_only and not state.options.rated:
        return events, state
    guests = [_as_guest(e) for e in events]
    return guests, replay(guests)


def _as_guest(event: Event) -> Event:
    if isinstance(event, GameCreated) and event.options.rated:
        return dataclasses.replace(event, options=dataclasses.replace(event.options, rated=False))
    if isinstance(event, PlayerJoined) and event.account not in (None, *STRATEGIES):
        return dataclasses.replace(event, account=None)
    return event
