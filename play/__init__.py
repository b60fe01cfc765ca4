"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel its games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).

The door is lazy: this package is the Django app itself, imported while the app registry is
still loading, before its models may be; each name is imported from its module on first use
(PEP 562), and type checkers see the imports below. Its vocabulary (`play.models`' statuses
and reasons, `play.errors`) is imported by name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.challenges import (
        CHALLENGE_LETTERS,
        DEFAULT_EXPIRES_IN,
        MAX_EXPIRES_IN,
        MIN_EXPIRES_IN,
        ChallengeRequest,
        accept_challenge,
        cancel_challenge,
        challenge_data,
        challenge_of,
        challenges_of,
        create_challenge,
        decline_challenge,
        expire_challenge,
    )
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
    from play.rematches import (
        Rematched,
        rematch,
    )
    from play.seeks import (
        SeekRequest,
        create_seek,
        read_seek,
        seek_data,
        seen,
        withdraw_seek,
    )

#: Each module of the door and the names it hands out.
_MODULES: dict[str, tuple[str, ...]] = {
    "play.challenges": (
        "CHALLENGE_LETTERS",
        "ChallengeRequest",
        "DEFAULT_EXPIRES_IN",
        "MAX_EXPIRES_IN",
        "MIN_EXPIRES_IN",
        "accept_challenge",
        "cancel_challenge",
        "challenge_data",
        "challenge_of",
        "challenges_of",
        "create_challenge",
        "decline_challenge",
        "expire_challenge",
    ),
    "play.chat": (
        "CHAT_CHANNEL",
        "MAX_PAGE",
        "MAX_TEXT",
        "PAGE",
        "READ_SCOPES",
        "ROOMS",
        "Speaker",
        "WRITE_SCOPE",
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
    ),
    "play.rematches": (
        "Rematched",
        "rematch",
    ),
    "play.seeks": (
        "SeekRequest",
        "create_seek",
        "read_seek",
        "seek_data",
        "seen",
        "withdraw_seek",
    ),
}

#: Each name of the door and the module that holds it.
_DOOR: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "CHALLENGE_LETTERS",
    "CHAT_CHANNEL",
    "DEFAULT_EXPIRES_IN",
    "MAX_EXPIRES_IN",
    "MAX_PAGE",
    "MAX_TEXT",
    "MIN_EXPIRES_IN",
    "PAGE",
    "READ_SCOPES",
    "ROOMS",
    "WRITE_SCOPE",
    "ChallengeRequest",
    "Rematched",
    "SeekRequest",
    "Speaker",
    "accept_challenge",
    "cancel_challenge",
    "challenge_data",
    "challenge_of",
    "challenges_of",
    "chat_written",
    "clean_text",
    "create_challenge",
    "create_seek",
    "decline_challenge",
    "expire_challenge",
    "last_sequence",
    "last_sequences",
    "messages_after",
    "mute_room",
    "muted_rooms",
    "post_message",
    "read_messages",
    "read_seek",
    "readable_rooms",
    "recent_messages",
    "rematch",
    "seek_data",
    "seen",
    "unmute_room",
    "withdraw_seek",
    "writer",
]


def __getattr__(name: str) -> Any:
    """A name of the door, imported from its module on first use."""
    module = _DOOR.get(name)
    if module is None:
        raise AttributeError(f"module 'play' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
