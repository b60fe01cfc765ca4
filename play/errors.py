"""Playing together's refusals: `ServiceError`s with a stable problem `code` each, answered
as problems by the API's one handler (their statuses in `games.api.problems`), as core's are.
"""

from __future__ import annotations

from accounts.errors import AccountRequired, Refusal
from games.core.errors import ServiceError


class ChatAccountRequired(AccountRequired):
    """A spectator writing without an account: only seats and accounts speak in a chat, so
    that every message has someone to answer for it (`account_token_required`, 401)."""

    def __init__(self) -> None:
        Refusal.__init__(
            self,
            "Writing in a game's chat needs a seat's token, or a personal token with the scope "
            "'chat:write' (POST /api/v1/accounts gives one).",
        )


class ChatRoomForbidden(ServiceError):
    """The caller may not use this room: the players' room is the seats' (anyone reads it once
    the game is over), and only a seat mutes a room for itself."""

    code = "chat_room_forbidden"


class RoomMuted(ServiceError):
    """A seat writing into a room it muted: it would not read the answers."""

    code = "room_muted"

    def __init__(self, room: str) -> None:
        super().__init__(
            f"You muted the {room} room: unmute it (DELETE .../chat/mutes/{room}) to write there.",
            room=room,
        )


class ChatThrottled(ServiceError):
    """One sender wrote `SKYJO_CHAT_BURST` messages in a game within the last
    `SKYJO_CHAT_BURST_SECONDS`: the request's `Retry-After` is when the oldest of them ages
    out (the API's `throttled`, counted per sender and game from the chat's own log)."""

    code = "throttled"

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"Too many chat messages; retry in {retry_after} s.", retry_after=retry_after
        )


class ChatLimitReached(ServiceError):
    """One sender wrote `SKYJO_CHAT_MAX_PER_GAME` messages in a game: no more, ever."""

    code = "chat_limit_reached"

    def __init__(self, limit: int) -> None:
        super().__init__(f"You wrote {limit} messages in this game's chat, the most one may.")
