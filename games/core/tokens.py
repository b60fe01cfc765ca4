"""Seat tokens: a bearer token per joined seat, shown once and stored only as a hash.

What a request presented (`SeatCredential`, or an `InvalidCredential` saying why it is none);
which seat of which game the token belongs to is settled by the use cases, against that game's
seats. The HTTP side that reads the header is `games.api.authentication`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

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
