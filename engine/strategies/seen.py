"""What a strategy is shown: its seat's view, the log as that seat may see it, and a key.

A strategy is a pure function of a `Seen`: the same view, history and key give the same
action, so a bot's play replays exactly (its randomness is seeded from the key, the view's
version and the seat, never from a clock or a shared generator).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, overload

from ..actions import Action
from ..events import Event, event_type
from ..view import GameView, event_for_viewer

#: One event as the seat may see it, in the shape of the API's feed: {"type", "data"}.
SeenEvent = dict[str, Any]


class History(Sequence[SeenEvent]):
    """A game's log as one seat may see it (`event_for_viewer`), redacted lazily.

    `events` is shared, not copied: whoever plays the game appends to it, and every seat's
    history sees the new events. Each event is redacted once, the first time it is read, so a
    strategy that never reads the history costs nothing and one that reads only what is new
    costs nothing more per turn as the log grows. `memo` keeps what a strategy derived from
    the events it has read (a card count, say), for the next turn to take up.
    """

    __slots__ = ("_events", "_redacted", "memo", "seat", "seats")

    def __init__(self, seat: int, seats: int, events: list[Event] | None = None) -> None:
        self.seat = seat
        self.seats = seats
        self._events: list[Event] = [] if events is None else events
        self._redacted: list[SeenEvent] = []
        self.memo: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> SeenEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[SeenEvent]: ...

    def __getitem__(self, index: int | slice) -> SeenEvent | list[SeenEvent]:
        end = len(self._events)
        if isinstance(index, slice):
            self._redact(end)
            return self._redacted[index]
        if index < 0:
            index += end
        if not 0 <= index < end:
            raise IndexError("history index out of range")
        self._redact(index + 1)
        return self._redacted[index]

    def _redact(self, upto: int) -> None:
        """Redact the events up to `upto` (exclusive) that have not been yet."""
        redacted, events = self._redacted, self._events
        for event in events[len(redacted) : upto]:
            data = event_for_viewer(event, self.seat, self.seats)
            redacted.append({"type": event_type(event), "data": data})


class Seen(NamedTuple):
    """Everything a strategy may know: `view` (its seat's), `history` (the log, as
    `event_for_viewer` shows it to that seat, up to `view.version`) and `key`, a string that
    names the game (its id, say) and seeds the strategy's randomness. A named tuple: one is
    built for every move of a tournament."""

    view: GameView
    history: Sequence[SeenEvent] = ()
    key: str = ""

    def rng(self) -> random.Random:
        """A generator seeded from the key, the version and the seat: a string seed is hashed
        with SHA-512, so the same choice comes out in any process on any machine."""
        return random.Random(f"{self.key}/{self.view.version}/{self.view.you}")


class Strategy(Protocol):
    """Chooses one of `seen.view.legal_actions`, from nothing but `seen`."""

    def choose(self, seen: Seen) -> Action: ...
