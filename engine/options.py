"""Rule options (R12): fixed when the game is created and recorded in its first event."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import InvalidOptions

MIN_SEATS = 2
MAX_SEATS = 8
DEFAULT_END_SCORE = 100
#: The largest end score a game is created with: R12 sets no bound, the service does (create
#: and import both hold to it; the engine replays any whole number it is given).
MAX_END_SCORE = 100_000
#: A turn's clock (R13), in seconds: none by default; from 5 seconds to a day.
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 86_400
#: Consecutive timeouts after which a bot takes the seat over (R13).
DEFAULT_MAX_TIMEOUTS = 3
MIN_MAX_TIMEOUTS = 1
MAX_MAX_TIMEOUTS = 20
#: The pace of the service's bots, in milliseconds per action (R15): none chosen by default
#: (the service's own default then applies); from 0 (at once) to 10 seconds.
MIN_BOT_PACE_MS = 0
MAX_BOT_PACE_MS = 10_000


@dataclass(frozen=True, slots=True)
class Options:
    """`end_score` ends the game (R3); `closer_penalty` turns R11's doubling on or off;
    `turn_seconds` is each turn's clock, None for none, and `max_timeouts` the timeouts in a
    row after which a bot plays the seat (R13; the service keeps the time, the rules only
    record that a turn ran out); `rated` makes every seat an account's and the result count
    for the seats' ratings (R14), from the game's first event to its last; `bot_pace_ms` is
    the time the service leaves between its bots' actions, None for its default (R15: no
    rule, only when the service's moves are made, recorded so that a replay can keep it)."""

    end_score: int = DEFAULT_END_SCORE
    closer_penalty: bool = True
    turn_seconds: int | None = None
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    rated: bool = False
    bot_pace_ms: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.end_score, bool) or not isinstance(self.end_score, int):
            raise InvalidOptions("end_score must be a whole number")
        if self.end_score < 1:
            raise InvalidOptions("end_score must be positive")
        if not isinstance(self.closer_penalty, bool):
            raise InvalidOptions("closer_penalty must be true or false")
        if self.turn_seconds is not None:
            _check_whole("turn_seconds", self.turn_seconds, MIN_TURN_SECONDS, MAX_TURN_SECONDS)
        _check_whole("max_timeouts", self.max_timeouts, MIN_MAX_TIMEOUTS, MAX_MAX_TIMEOUTS)
        if not isinstance(self.rated, bool):
            raise InvalidOptions("rated must be true or false")
        if self.bot_pace_ms is not None:
            _check_whole("bot_pace_ms", self.bot_pace_ms, MIN_BOT_PACE_MS, MAX_BOT_PACE_MS)

    def to_data(self) -> dict[str, Any]:
        """A fresh dict per call (callers may keep it), as `asdict` would give it, copied from
        one built per options: `asdict`'s deep copy cost every view more than the rest."""
        data = _DATA.get(self)
        if data is None:
            if len(_DATA) >= 1024:
                _DATA.clear()
            data = _DATA[self] = {name: getattr(self, name) for name in _OPTION_FIELDS}
            if not self.rated:  # absent unless true: a casual game's options read as before R14
                del data["rated"]
            if self.bot_pace_ms is None:  # absent unless chosen: older games' read as before R15
                del data["bot_pace_ms"]
        return dict(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Options:
        """The options `to_data` wrote, or an older game's: an option it lacks has its default
        (`rated` false, `bot_pace_ms` None)."""
        return cls(**data)


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(f"{name} must be a whole number")
    if not low <= value <= high:
        raise InvalidOptions(f"{name} must be between {low} and {high}")


_OPTION_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Options))
#: `Options.to_data` by options: a game's options are one object, and few games differ.
_DATA: dict[Options, dict[str, Any]] = {}


def check_seats(seats: int) -> None:
    """R2: 2 to 8 players."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidOptions("seats must be a whole number")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions(f"seats must be between {MIN_SEATS} and {MAX_SEATS}")
