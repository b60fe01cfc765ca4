"""Playing together's refusals: domain errors with a stable `code` (the problem table,
`games.api.problems.SERVICE_PROBLEMS`, gives each its status and words)."""

from __future__ import annotations

from games.core.errors import ServiceError


class NotAPlayer(ServiceError):
    """An account asking for what only a game's players may ask for (its rematch), while it
    holds no seat of that game."""

    code = "not_a_player"

    def __init__(self) -> None:
        super().__init__(
            "Only the game's players may ask for its rematch: this account holds no seat of it."
        )
