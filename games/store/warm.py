"""A per-process memory of the games this process last read or wrote: a hint, never the truth.

It holds, for recently used games, the row and the state at the version this process last
saw, and the token hashes it saw belong to their seats. An action that finds its game here is
decided without reading the database first; its write then checks, in the same statement, that
the game is still at that version and that the token still belongs to the seat. Anything but a
landed write (a moved game, a rotated token, a refusal by the rules, an If-Match that differs)
is decided again on a fresh read, so the memory can make an action cheaper, never different.

The hit rate depends on requests for one game reaching the same process, as the benchmark's
keep-alive clients do; elsewhere an action simply costs one read more.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, cast

from django.conf import settings

from engine import GameState
from games.models import Game


@dataclass
class _Entry:
    game: Game  # never handed out: callers get a copy they may change
    state: GameState
    seats: dict[str, int] = field(default_factory=dict)  # token hash -> seat


class WarmGames:
    """The memory itself: least recently used games are forgotten first. Thread-safe.

    Its capacity is `capacity` games, or (None) the `SKYJO_WARM_GAMES` setting's, read at
    each use so that a test may change it; 0 remembers nothing."""

    def __init__(self, capacity: int | None = None) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[uuid.UUID, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: uuid.UUID, token_hash: str) -> tuple[Game, int, GameState] | None:
        """The game (a copy), the token's seat and the state, if this process knows them."""
        if not self.capacity:
            return None
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or token_hash not in entry.seats:
                return None
            self._entries.move_to_end(game_id)
            return _copy(entry.game), entry.seats[token_hash], entry.state

    def remember(self, game: Game, state: GameState, token_hash: str, seat: int) -> None:
        """`game` is at `state` (just read or written), and `token_hash` is `seat`'s."""
        capacity = self.capacity
        if state.version != game.version or not capacity:
            return
        with self._lock:
            entry = self._entries.get(game.id)
            if entry is None:
                entry = self._entries[game.id] = _Entry(_copy(game), state)
            elif state.version >= entry.state.version:
                entry.game, entry.state = _copy(game), state
            entry.seats[token_hash] = seat
            self._entries.move_to_end(game.id)
            while len(self._entries) > capacity:
                self._entries.popitem(last=False)

    @property
    def capacity(self) -> int:
        """Games remembered at most (0: the memory is off)."""
        return settings.SKYJO_WARM_GAMES if self._capacity is None else self._capacity

    def forget(self, game_id: uuid.UUID) -> None:
        with self._lock:
            self._entries.pop(game_id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _copy(game: Game) -> Game:
    """A shallow copy of `game`, as `copy.copy` makes it (Django's `__getstate__`: its fields,
    its `_state` and that state's cache of related objects copied), without the pickling
    protocol's detour (`__reduce_ex__`, `copyreg`), which cost as much again: every warm action
    copies its game twice."""
    clone = Game.__new__(Game)
    clone.__dict__.update(cast(dict[str, Any], game.__getstate__()))
    return clone


WARM = WarmGames()
