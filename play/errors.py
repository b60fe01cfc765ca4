"""Playing together's refusals: service errors (`games.core.errors.ServiceError`) with a
stable problem `code`, answered as problems by the API's one handler (`games.api.problems`
holds each code's row)."""

from __future__ import annotations

from games.core.errors import ServiceError


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
