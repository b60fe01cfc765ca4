"""DRF authentication of seat tokens and personal tokens: `Authorization: Bearer <token>`,
read as a credential (a `skyjo_pat_` token is looked up as an account's, once a second at most
per process: `accounts.credentials`).

Authentication here only reads the header; which seat of which game the token belongs to is
settled by the use cases, against that game's seats. A header that is not a well-formed bearer
token is not refused here but carried as an `InvalidCredential`: the operations that read a
token refuse it (401), the others (the lobby, the rules...) ignore it, as they ignore any
token, and every request is counted by the throttles either way (DRF authenticates before it
throttles, so refusing here would let such requests past the limits).
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication
from rest_framework.request import Request

from accounts.credentials import AccountCredential, is_personal_token, resolve
from games.core.tokens import MAX_TOKEN_LENGTH, InvalidCredential, SeatCredential

Presented = SeatCredential | AccountCredential | InvalidCredential


class SeatTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <seat token>`; no header means a spectator."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, Presented] | None:
        header = authentication.get_authorization_header(request)
        if not header:
            return None
        try:
            scheme, _, token = header.decode("ascii").partition(" ")
        except UnicodeDecodeError:
            return None, InvalidCredential("The token holds characters it cannot.")
        token = token.strip()
        if scheme.lower() != self.keyword.lower():
            return None, InvalidCredential("Use 'Authorization: Bearer <seat token>'.")
        if not token or len(token) > MAX_TOKEN_LENGTH or " " in token:
            return None, InvalidCredential("Malformed bearer token.")
        if is_personal_token(token):
            return None, _account_credential(token)
        return None, SeatCredential(token)

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="skyjo"'


def _account_credential(token: str) -> AccountCredential | InvalidCredential:
    """A personal token's account, or why it stands for none (revoked, or never issued)."""
    found = resolve(token)
    if found is None:
        return InvalidCredential("This personal token is revoked, or of no account.", True)
    return found
