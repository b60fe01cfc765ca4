"""The table's chat panel: the rooms its viewer may read (`play`'s rules, as the API applies
them), a form to write in each room it may write in, and a seat's "Mute" toggle per room.

A seat writes as its seat (its session's token, or its person's account); a logged-in
spectator as their handle; a guest spectator reads the spectators' room only, with a note to
log in. Texts are shown as Django renders any text: escaped.
"""

from __future__ import annotations

from typing import Any

import play
from accounts.credentials import AccountCredential
from games.core.tokens import Credential
from games.models import Game

#: Messages a room shows (the latest; the API pages through all of them).
SHOWN = 50
#: Seconds between the panel's re-reads (the page's stream brings the spectators' room at once).
CHAT_POLL_SECONDS = 2
TITLES = {"players": "Players' chat", "spectators": "Spectators' chat"}


def chat_context(
    game: Game,
    seat: int | None,
    credential: Credential | None,
    error: str = "",
    drafts: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The panel as the viewer (`seat`, None for a spectator, and the page's `credential`)
    may see it: each room it may read, with its latest messages (none while muted), whether
    it may write there and mute it; `error` and the `drafts` of a refused message."""
    readable = play.readable_rooms(seat, game.ended)
    muted = play.muted_rooms(game.id, seat)
    shown = play.recent_messages(game.id, [r for r in readable if r not in muted], SHOWN)
    drafts = drafts or {}
    account = isinstance(credential, AccountCredential)
    rooms = [
        _room(name, seat, account, name in muted, drafts.get(name, ""))
        | {"messages": [m for m in shown if m["room"] == name]}
        for name in readable
    ]
    return {
        "game_id": game.id,
        "last": play.last_sequence(game.id),
        "ended": game.ended,
        "rooms": rooms,
        "error": error,
        "poll_ms": CHAT_POLL_SECONDS * 1000,
    }


def _room(name: str, seat: int | None, account: bool, muted: bool, draft: str) -> dict[str, Any]:
    """A room as the panel shows it, less its messages: a seat writes in both rooms and mutes
    them, a spectator's `account` writes in the spectators' room."""
    writable = seat is not None or (name == "spectators" and account)
    return {
        "name": name,
        "title": TITLES[name],
        "muted": muted,
        "writable": writable and not muted,
        "mutable": seat is not None,
        "note": "Only the players write here." if name == "players" and not writable else "",
        "login": name == "spectators" and not writable,  # a guest: a link to log in
        "draft": draft,
    }
