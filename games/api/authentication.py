"""DRF authentication of seat tokens: `Authorization: Bearer <token>`, read as a credential.

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

from games.core.tokens import MAX_TOKEN_LENGTH, InvalidCredential, SeatCredential


class SeatTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <seat token>`; no header means a spectator."""

    keyword = "Bearer"

    def authenticate(
        self, request: Request
    ) -> tuple[Any, SeatCredential | InvalidCredential] | None:
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
        return None, SeatCredential(token)

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="skyjo"'
