"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).

The door names its use cases lazily: Django imports this package as it loads its apps, before
the models may be imported, so each name is imported from its module when first asked for.
Quick play (`seeks`, `matcher`): `create_seek`, `read_seek`, `withdraw_seek`, `seen` (the
account stream's sign of presence) and `seek_data` (a seek as it is shown).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.seeks import (
        SeekRequest,
        create_seek,
        read_seek,
        seek_data,
        seen,
        withdraw_seek,
    )

#: Each name of the door, and the module that holds it.
_DOOR: dict[str, str] = {
    "SeekRequest": "play.seeks",
    "create_seek": "play.seeks",
    "read_seek": "play.seeks",
    "seek_data": "play.seeks",
    "seen": "play.seeks",
    "withdraw_seek": "play.seeks",
}

__all__ = ["SeekRequest", "create_seek", "read_seek", "seek_data", "seen", "withdraw_seek"]


def __getattr__(name: str) -> Any:
    """A name of the door, imported from its module when first asked for."""
    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module 'play' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
