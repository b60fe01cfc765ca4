"""What the use cases tell the rest of the house, as Django signals: the push (`games.live`)
listens without the use cases knowing it, connected in `games.apps`."""

from __future__ import annotations

from django.dispatch import Signal

#: A game's log grew to `version` (keyword arguments `game_id`, `version`): sent once the
#: append's transaction has committed, so a listener never hears of a write that rolled back.
game_moved = Signal()
