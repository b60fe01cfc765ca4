"""The log reader: a game's stored events, the one way every part of the service reads them.

The event feed, the history export, the replays (from the snapshot or from a checkpoint), the
`verify_games` and `replay` commands all read the log through `events`, so a new reader (a
live stream) starts from the same rows, in the same order, upcast the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from engine import Event, event_from_data
from games import store
from games.models import Game


@dataclass(frozen=True)
class StoredEvent:
    """One event of a game's log as stored: its payload at the schema it was written in, and,
    computed when first asked for, the engine event it stands for today (upcast)."""

    sequence: int
    type: str
    schema_version: int
    at: datetime
    payload: dict[str, Any]

    @cached_property
    def event(self) -> Event:
        """The engine event, upcast to the current schema (`engine.event_from_data`)."""
        return event_from_data(self.type, self.payload, self.schema_version)


def events(
    game: Game, after: int = 0, upto: int | None = None, limit: int | None = None
) -> list[StoredEvent]:
    """The game's events after sequence `after` up to `upto` (default: the last), in order,
    at most `limit` of them; read in one statement (`store.read_events`)."""
    rows = store.read_events(game.id, after, upto, limit)
    return [StoredEvent(*row) for row in rows]


def engine_events(game: Game, after: int = 0, upto: int | None = None) -> list[Event]:
    """The engine events of `events(game, after, upto)`: what a replay folds. Read without
    their times, which a replay of thousands of events would otherwise convert one by one."""
    rows = store.read_payloads(game.id, after, upto)
    return [event_from_data(kind, payload, version) for kind, version, payload in rows]
