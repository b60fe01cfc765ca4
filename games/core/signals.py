"""What the use cases tell the rest of the house, as Django signals: the push (`games.live`)
and the ratings listen without the use cases knowing them, connected in their apps."""

from __future__ import annotations

from django.dispatch import Signal

#: A game's log grew to `version` (keyword arguments `game_id`, `version`): sent once the
#: append's transaction has committed, so a listener never hears of a write that rolled back.
game_moved = Signal()

#: A game ended (keyword arguments `game_id`, `rated`): sent inside the transaction of the
#: append that finished it, so what a listener writes (the ratings queue their job) commits
#: with the game's last events or not at all.
game_finished = Signal()
