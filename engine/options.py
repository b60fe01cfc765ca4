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


@dataclass(frozen=True, slots=True)
class Options:
    """`end_score` ends the game (R3); `closer_penalty` turns R11's doubling on or off."""

    end_score: int = DEFAULT_END_SCORE
    closer_penalty: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.end_score, bool) or not isinstance(self.end_score, int):
            raise InvalidOptions("end_score must be a whole number")
        if self.end_score < 1:
            raise InvalidOptions("end_score must be positive")
        if not isinstance(self.closer_penalty, bool):
            raise InvalidOptions("closer_penalty must be true or false")

    def to_data(self) -> dict[str, Any]:
        """A fresh dict per call (callers may keep it), as `asdict` would give it, copied from
        one built per options: `asdict`'s deep copy cost every view more than the rest."""
        data = _DATA.get(self)
        if data is None:
            if len(_DATA) >= 1024:
                _DATA.clear()
            data = _DATA[self] = {name: getattr(self, name) for name in _OPTION_FIELDS}
        return dict(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Options:
        return cls(**data)


_OPTION_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Options))
#: `Options.to_data` by options: a game's options are one object, and few games differ.
_DATA: dict[Options, dict[str, Any]] = {}


def check_seats(seats: int) -> None:
    """R2: 2 to 8 players."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidOptions("seats must be a whole number")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions(f"seats must be between {MIN_SEATS} and {MAX_SEATS}")
