"""Seat tokens: a bearer token per joined seat, shown once and stored only as a hash.

What a request presented (`SeatCredential`, an account's personal token found valid, or an
`InvalidCredential` saying why it is none); which seat of which game the token belongs to is
settled by the use cases, against that game's seats, by the hash each credential holds a seat
with (`seat_hash`). The HTTP side that reads the header is `games.api.authentication`.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from typing import TypeAlias

from accounts.credentials import AccountCredential

TOKEN_BYTES = 32  # 256 bits from `secrets`
MAX_TOKEN_LENGTH = 128


@dataclass(frozen=True)
class SeatCredential:
    """A presented bearer token (not yet checked against any game)."""

    token: str

    @property
    def token_hash(self) -> str:
        return hash_token(self.token)

    def seat_hash(self, game_id: uuid.UUID) -> str:
        """What the seat this token holds stores: the token's hash, whatever the game."""
        return self.token_hash

    @property
    def throttle_key(self) -> str:
        return self.token_hash


#: Who a request stands for at a game's seats: a guest's seat token or an account's token.
Credential: TypeAlias = SeatCredential | AccountCredential


@dataclass(frozen=True)
class InvalidCredential:
    """An `Authorization` header that is not a well-formed bearer token, and why
    (`personal`: a personal token, revoked or never issued)."""

    reason: str
    personal: bool = False


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """SHA-256: tokens are 256 random bits, so no slow key derivation is needed."""
    return hashlib.sha256(token.encode()).hexdigest()
