"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.rematches import Rematched, next_game, rematch

#: The door's names and their modules. Imported when first asked for: Django imports this
#: package while it loads the apps, before any model may be imported.
_DOOR = {
    "Rematched": "play.rematches",
    "next_game": "play.rematches",
    "rematch": "play.rematches",
}

__all__ = ["Rematched", "next_game", "rematch"]


def __getattr__(name: str) -> Any:
    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module 'play' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
