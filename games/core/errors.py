"""The service's refusals, as domain exceptions: raised by the services (and the request
parsing in `games.api.headers`), and answered as RFC 9457 problems by the one exception handler
(`games.api.problems.problem_exception_handler`), as the rules' `RuleError`s are.

An error names its problem `code`; the problem table (`games.api.problems.PROBLEM_TYPES`) gives the
code's HTTP status and title, so no code here knows about HTTP. `extra` holds the fields a
client reads besides `detail` (`current_version`, `sequence`, `rule_code`, `errors`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from accounts.errors import Refusal


class ServiceError(Refusal):
    """A refusal of the games' use cases (as the accounts' are `Refusal`s too)."""


class InvalidRequest(ServiceError):
    """A request header or parameter the service cannot read (`errors`: the messages by name)."""

    code = "invalid_request"

    def __init__(self, detail: str, errors: dict[str, list[str]]) -> None:
        super().__init__(detail, errors=errors)


class InvalidToken(ServiceError):
    """No seat token where one is needed, a malformed one, or one of no seat of this game."""

    code = "invalid_token"
    MISSING: ClassVar[str] = "This needs a seat token: 'Authorization: Bearer'."
    NOT_A_SEAT: ClassVar[str] = "This token is not a seat of this game."

    def __init__(self, detail: str = NOT_A_SEAT) -> None:
        super().__init__(detail)


class Forbidden(ServiceError):
    """A seat's token asking for what only another seat may do."""

    code = "forbidden"


class SeatPlayedByBot(ServiceError):
    """A seat's token asking to act for a seat a bot now plays (it timed out too often)."""

    code = "seat_played_by_bot"

    def __init__(self, seat: int, bot: str | None) -> None:
        super().__init__(
            f"Seat {seat} timed out too many turns in a row: the {bot} bot plays it now.",
            bot=bot,
        )


class AccountSeatToken(ServiceError):
    """An account's seat has no seat token to rotate: its account's tokens act for it."""

    code = "account_seat_token"

    def __init__(self) -> None:
        super().__init__(
            "An account's seat has no seat token: the account's own tokens act for it. "
            "Revoke or create those instead (/api/v1/account/tokens)."
        )


class GameNotFound(ServiceError):
    """No game has this id (or it is not a UUID)."""

    code = "game_not_found"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"There is no game {game_id}.")


class TooManyStreams(ServiceError):
    """This process holds `LIVE_MAX_STREAMS` streams and long polls already: one more would
    take the threads the other requests need."""

    code = "too_many_streams"

    def __init__(self) -> None:
        super().__init__(
            "This server holds as many live streams and long polls as it can; retry shortly."
        )


class TooManyStreamsFromAddress(ServiceError):
    """This client address holds `LIVE_MAX_STREAMS_PER_ADDRESS` streams and long polls in this
    process already: one address may not take every place the others need."""

    code = "too_many_streams_from_address"

    def __init__(self) -> None:
        super().__init__(
            "Your address holds as many live streams and long polls on this server as it may; "
            "close one, or retry shortly."
        )


class GameNotFinished(ServiceError):
    """The full history (every hidden card), or a rematch, asked for before the game's end."""

    code = "game_not_finished"
    HISTORY: ClassVar[str] = (
        "The full history, with every hidden card, is published once the game is finished."
    )

    def __init__(self, detail: str = HISTORY) -> None:
        super().__init__(detail)


class VersionMismatch(ServiceError):
    """If-Match named a version other than the game's `current_version`."""

    code = "version_mismatch"

    def __init__(self, current_version: int, detail: str) -> None:
        super().__init__(detail, current_version=current_version)
        self.current_version = current_version


class ConcurrentUpdate(ServiceError):
    """Other writes of the game kept winning the race: nothing was written."""

    code = "concurrent_update"

    def __init__(self) -> None:
        super().__init__("Another action changed the game; retry.")


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key already answered another request."""

    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__("This Idempotency-Key was used for another request.")


class IdempotencyKeyInUse(ServiceError):
    """A request with the same key acted meanwhile, and its answer delivers a seat token."""

    code = "idempotency_key_in_use"

    def __init__(self) -> None:
        super().__init__(
            "Another request with this Idempotency-Key acted meanwhile; retry this one."
        )


class IdempotencyKeySpent(ServiceError):
    """The token the key's answer gave has been rotated since: it is not given again."""

    code = "idempotency_key_spent"

    def __init__(self) -> None:
        super().__init__(
            "The token this key's answer gave has been replaced since; use the one you hold."
        )


class InvalidHistory(ServiceError):
    """A history document that does not replay: the first offending event's `sequence` (None
    when the envelope is at fault), the reason's `rule_code`, and with `errors` the offending
    fields by their dotted path in the document (`events.0.data.options.end_score`)."""

    code = "invalid_history"

    def __init__(
        self,
        sequence: int | None,
        rule_code: str,
        message: str,
        errors: dict[str, list[str]] | None = None,
    ) -> None:
        where = f"event {sequence}: " if sequence is not None else ""
        extra: dict[str, Any] = {"sequence": sequence, "rule_code": rule_code}
        if errors is not None:
            extra["errors"] = errors
        super().__init__(f"{where}{message}", **extra)
        self.sequence, self.rule_code = sequence, rule_code


class SeatReserved(ServiceError):
    """Every open seat of the game is held for someone else (a reserved handle, a challenge's
    invitee, a rematch's player)."""

    code = "seat_reserved"

    def __init__(self) -> None:
        super().__init__(
            "Every open seat of this game is reserved for someone else until they take it, "
            "the creator frees it, or the game starts."
        )


class NotCreator(ServiceError):
    """Only the account that created the game may free the seats it reserved."""

    code = "not_creator"

    def __init__(self) -> None:
        super().__init__("Only the account that created this game may free its reserved seats.")


class HoldNotFound(ServiceError):
    """No seat of the game is held for this handle."""

    code = "reservation_not_found"

    def __init__(self, handle: str) -> None:
        super().__init__(f"No seat of this game is reserved for {handle!r}.", handle=handle)
