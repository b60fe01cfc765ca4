"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).

The door's names are imported when first asked for (PEP 562's module `__getattr__`): Django
imports this package, an app, before its models are ready, so it imports no model itself.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the door hands out, for readers and type checkers
    from play.chat import (
        CHAT_CHANNEL,
        MAX_PAGE,
        MAX_TEXT,
        PAGE,
        READ_SCOPES,
        ROOMS,
        WRITE_SCOPE,
        Speaker,
        chat_written,
        clean_text,
        last_sequence,
        last_sequences,
        messages_after,
        mute_room,
        muted_rooms,
        post_message,
        read_messages,
        readable_rooms,
        recent_messages,
        unmute_room,
        writer,
    )

#: Each name of the door and the module that holds it.
_DOOR: dict[str, str] = {
    "CHAT_CHANNEL": "play.chat",
    "MAX_PAGE": "play.chat",
    "MAX_TEXT": "play.chat",
    "PAGE": "play.chat",
    "READ_SCOPES": "play.chat",
    "ROOMS": "play.chat",
    "WRITE_SCOPE": "play.chat",
    "Speaker": "play.chat",
    "chat_written": "play.chat",
    "clean_text": "play.chat",
    "last_sequence": "play.chat",
    "last_sequences": "play.chat",
    "messages_after": "play.chat",
    "mute_room": "play.chat",
    "muted_rooms": "play.chat",
    "post_message": "play.chat",
    "read_messages": "play.chat",
    "readable_rooms": "play.chat",
    "recent_messages": "play.chat",
    "unmute_room": "play.chat",
    "writer": "play.chat",
}


def __getattr__(name: str) -> Any:
    """A name of the door, imported from its module at its first use."""
    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module 'play' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "CHAT_CHANNEL",
    "MAX_PAGE",
    "MAX_TEXT",
    "PAGE",
    "READ_SCOPES",
    "ROOMS",
    "WRITE_SCOPE",
    "Speaker",
    "chat_written",
    "clean_text",
    "last_sequence",
    "last_sequences",
    "messages_after",
    "mute_room",
    "muted_rooms",
    "post_message",
    "read_messages",
    "readable_rooms",
    "recent_messages",
    "unmute_room",
    "writer",
]
