"""The refusals of playing together: each names its problem `code`, and the API's one problem
table (`games.api.problems`) gives its HTTP status and title, as for core's `ServiceError`s."""

from __future__ import annotations

from accounts.errors import AccountRequired, Refusal
from games.core.errors import ServiceError


class ChallengeNotFound(ServiceError):
    """No challenge has this id, or the caller is neither its challenger nor an invitee (a
    challenge is its parties' business: to anyone else it does not exist)."""

    code = "challenge_not_found"

    def __init__(self, challenge_id: object) -> None:
        super().__init__(f"There is no challenge {challenge_id} of yours.")


class NotInvited(ServiceError):
    """Only an invitee answers a challenge (accept, decline): not its challenger."""

    code = "not_invited"

    def __init__(self) -> None:
        super().__init__("Only the challenge's invitees accept or decline it.")


class NotChallenger(ServiceError):
    """Only the challenger cancels its challenge: an invitee declines it instead."""

    code = "not_challenger"

    def __init__(self) -> None:
        super().__init__("Only the challenger cancels a challenge; an invitee declines it.")


class ChallengeClosed(ServiceError):
    """The challenge is no longer pending: every invitee accepted, one declined, its
    challenger canceled it, or it expired (`challenge_status` says which)."""

    code = "challenge_closed"

    def __init__(self, status: str) -> None:
        super().__init__(
            f"This challenge is {status}: it takes no more answers.", challenge_status=status
        )


class AlreadyAnswered(ServiceError):
    """The invitee answered already; the challenge waits for the others' answers."""

    code = "already_answered"

    def __init__(self, answer: str) -> None:
        super().__init__(
            f"You have {answer} this challenge already; it waits for the other invitees.",
            answer=answer,
        )


class SeekNotFound(ServiceError):
    """No seek has this id, or it is another account's (which is not told apart)."""

    code = "seek_not_found"

    def __init__(self, seek_id: object) -> None:
        super().__init__(f"You have no seek {seek_id}.")


class AlreadySeeking(ServiceError):
    """The account has a searching seek already (`seek`: its id): one at a time."""

    code = "already_seeking"

    def __init__(self, seek_id: object) -> None:
        super().__init__(
            f"You are seeking a game already (seek {seek_id}): read it, or delete it first.",
            seek=str(seek_id),
        )


class SeekAlreadyMatched(ServiceError):
    """A matched seek is a seat in a game: it cannot be withdrawn (leave the game instead)."""

    code = "seek_already_matched"

    def __init__(self, seek_id: object) -> None:
        super().__init__(
            f"Seek {seek_id} is matched: you sit in its game. Leave the game to give it up."
        )


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


class NotAPlayer(ServiceError):
    """An account asking for what only a game's players may ask for (its rematch), while it
    holds no seat of that game."""

    code = "not_a_player"

    def __init__(self) -> None:
        super().__init__(
            "Only the game's players may ask for its rematch: this account holds no seat of it."
        )
