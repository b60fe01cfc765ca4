"""The order a rated game ends in (R14): what the ratings learn from a finished game.

Pure, so the ratings job and `manage.py rerate` rank a game's log the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from .events import Event, SeatAbandoned, SeatLeft
from .state import GameState


def handed_over(events: Iterable[Event]) -> frozenset[int]:
    """The seats whose player left the started game or timed out too often in a row (R13):
    a bot finished them, so their result is not their player's."""
    return frozenset(e.seat for e in events if isinstance(e, SeatLeft | SeatAbandoned))


def final_ranks(state: GameState, gone: frozenset[int]) -> tuple[int, ...]:
    """Each seat's rank, 1 the best (R14): the lowest final total first, equal totals sharing
    a rank (1, 1, 3...); the seats in `gone` after every other, sharing the last rank."""
    stayed = sorted(state.totals[seat] for seat in range(state.seats) if seat not in gone)
    last = len(stayed) + 1
    return tuple(
        last if seat in gone else 1 + stayed.index(state.totals[seat])
        for seat in range(state.seats)
    )
