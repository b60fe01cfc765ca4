"""The service's clock (R13): the rules keep no time, the service keeps each turn's deadline.

A turn's deadline is the time of the append that began it (or began a round's setup) plus the
game's `turn_seconds`; it runs only while a person has something to do (bots move at once).
`now` is the one source of the time, so that tests may move it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from engine import GameState
from engine.autoplay import human_seats_to_act


def now() -> datetime:
    return timezone.now()


def turn_length(seconds: int) -> timedelta:
    """A clock of `seconds`, scaled by `SKYJO_CLOCK_SCALE` (1 but in tests)."""
    return timedelta(seconds=seconds * settings.SKYJO_CLOCK_SCALE)


def deadline_after(
    previous: datetime | None, before: GameState, after: GameState, at: datetime
) -> datetime | None:
    """The deadline once an append at `at` has moved the game from `before` to `after`: a new
    one when a turn began (else the turn's `previous` one), None without a clock or when no
    person has anything to do."""
    seconds = after.options.turn_seconds
    if seconds is None or not human_seats_to_act(after):
        return None
    if after.turn != before.turn or previous is None:
        return at + turn_length(seconds)
    return previous


def is_overdue(deadline: datetime | None, at: datetime | None = None) -> bool:
    return deadline is not None and deadline <= (at or now())
