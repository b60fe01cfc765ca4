"""The service's clock (R13): the rules keep no time, the service keeps each turn's deadline.

A turn's deadline is the time of the append that began it (or began a round's setup) plus the
game's `turn_seconds`; it runs only while a person has something to do (bots have no clock).
`now` is the one source of the time, so that tests may move it. The pace of a game's bots
(R15, `bot_pace`) says when the service makes their next move.
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


def bot_pace(state: GameState) -> timedelta:
    """The time between two of the game's bots' actions (R15): its `options.bot_pace_ms` when
    its creator chose one; otherwise `SKYJO_BOT_PACE_MS` while a person plays a seat (taken,
    and neither a bot's nor handed to one: so that they can follow each move), and none for
    bots alone, which play as fast as the service can."""
    chosen = state.options.bot_pace_ms
    if chosen is None:
        chosen = settings.SKYJO_BOT_PACE_MS if person_seated(state) else 0
    return timedelta(milliseconds=chosen)


def person_seated(state: GameState) -> bool:
    """Whether a seat is taken that no bot plays: a person's (or an account's that plays
    through the API: the service cannot tell a bot account from a person)."""
    seated = zip(state.names, state.bots, strict=True)
    return any(name is not None and bot is None for name, bot in seated)
