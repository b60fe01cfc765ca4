"""Seat tokens: a bearer token per joined seat, shown once and stored only as a hash.

Authentication here only reads the `Authorization: Bearer <token>` header; which seat of which
game the token belongs to is settled by the service, against that game's seats. A header that is
not a well-formed bearer token is not refused here but carried as an `InvalidCredential`: the
operations that read a token refuse it (401), the others (the lobby, the rules...) ignore it,
as they ignore any token, and every request is counted by the throttles either way (DRF
authenticates before it throttles, so refusing here would let such requests past the limits).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from rest_framework import authentication
from rest_framework.request import Request

TOKEN_BYTES = 32  # 256 bits from `secrets`
MAX_TOKEN_LENGTH = 128


@dataclass(frozen=True)
class SeatCredential:
    """A presented bearer token (not yet checked against any game)."""

    token: str

    @property
    def token_hash(self) -> str:
        return hash_token(self.token)


@dataclass(frozen=True)
class InvalidCredential:
    """An `Authorization` header that is not a well-formed bearer token, and why."""

    reason: str


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """SHA-256: tokens are 256 random bits, so no slow key derivation is needed."""
    return hashlib.sha256(token.encode()).hexdigest()


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
