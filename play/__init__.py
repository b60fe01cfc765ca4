"""Playing together: private games' invitations, challenges, quick play (seeks and their
matcher), rematches and each game's chat.

It sits above the games' use cases (`games.core`), whose door it calls to create, seat and
cancel its games, and below the push and HTTP rooms (`games.live`, `games.api`, `games.web`),
which call its door here. It never imports the store, DRF or drf-spectacular (the import
contracts in pyproject.toml).

The door is lazy: this package is the Django app itself, imported while the app registry is
still loading, before its models may be; each name is imported on first use (PEP 562), and
type checkers see the imports below. Its vocabulary (`play.models`' statuses and reasons,
`play.errors`) is imported by name.
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

#: Each name of the door and the module it comes from.
_DOOR = {
    name: "play.challenges"
    for name in (
        "CHALLENGE_LETTERS",
        "DEFAULT_EXPIRES_IN",
        "MAX_EXPIRES_IN",
        "MIN_EXPIRES_IN",
        "ChallengeRequest",
        "accept_challenge",
        "cancel_challenge",
        "challenge_data",
        "challenge_of",
        "challenges_of",
        "create_challenge",
        "decline_challenge",
        "expire_challenge",
    )
}

__all__ = [
    "CHALLENGE_LETTERS",
    "DEFAULT_EXPIRES_IN",
    "MAX_EXPIRES_IN",
    "MIN_EXPIRES_IN",
    "ChallengeRequest",
    "accept_challenge",
    "cancel_challenge",
    "challenge_data",
    "challenge_of",
    "challenges_of",
    "create_challenge",
    "decline_challenge",
    "expire_challenge",
]


def __getattr__(name: str) -> Any:
    """A name of the door, imported from its module on first use."""
    if name not in _DOOR:
        raise AttributeError(f"module 'play' has no attribute {name!r}")
    return getattr(importlib.import_module(_DOOR[name]), name)
