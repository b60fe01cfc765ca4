"""The refusals of the accounts' use cases, and the base of every refusal of the service.

A `Refusal` names its problem `code`; the API's one problem table gives the code's HTTP status
and title (`games.api.problems`), so no code here knows about HTTP. `games.core.errors`'s
service errors are refusals too.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Refusal(Exception):
    """A refusal with a stable problem code and a sentence for a person (`detail`); `extra`
    holds the fields a client reads besides `detail`."""

    code: ClassVar[str]

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class HandleTaken(Refusal):
    """The handle is another account's (whatever its case), a built-in bot's, or reserved."""

    code = "handle_taken"

    def __init__(self, handle: str) -> None:
        super().__init__(f"The handle {handle!r} is taken; choose another.", handle=handle)


class WeakPassword(Refusal):
    """Django's password validators refused the password (`errors`: their messages)."""

    code = "weak_password"

    def __init__(self, messages: list[str]) -> None:
        super().__init__(" ".join(messages), errors={"password": messages})


class PasswordNotAllowed(Refusal):
    """A person needs a password and a bot may not have one (it never logs in to the pages)."""

    code = "invalid_account"


class MissingScope(Refusal):
    """The personal token presented lacks the scope the operation needs."""

    code = "missing_scope"

    def __init__(self, scope: str) -> None:
        super().__init__(
            f"This token lacks the scope {scope!r} this operation needs.", required_scope=scope
        )


class AccountRequired(Refusal):
    """An account operation called without a personal token (a seat token, or none)."""

    code = "account_token_required"

    def __init__(self) -> None:
        super().__init__(
            "This needs a personal token: 'Authorization: Bearer skyjo_pat_...' "
            "(POST /api/v1/accounts gives one)."
        )


class PlayerNotFound(Refusal):
    code = "player_not_found"

    def __init__(self, handle: str) -> None:
        super().__init__(f"There is no player {handle!r}.")


class TokenNotFound(Refusal):
    code = "token_not_found"

    def __init__(self, token_id: object) -> None:
        super().__init__(f"This account has no token {token_id}.")
