"""Personal tokens: `skyjo_pat_` and 43 URL-safe characters (32 random bytes), shown once and
stored as a SHA-256; and who a presented one stands for (`resolve`).

A request must not cost a query to learn who its token is (`bench_load` with account tokens),
so each process keeps what it learnt of a token for `ACCOUNT_TOKEN_FRESH_SECONDS` (at most 1):
a revoked token, or one of a deleted account, is refused by every process within that time.
`last_used_at` is written when a token is looked up and its stored time is a minute old, so
at most once a minute, never once per request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.errors import MissingScope
from accounts.models import PersonalToken

PREFIX = "skyjo_pat_"
TOKEN_BYTES = 32
#: The characters of a token shown in its list, so a person can tell their tokens apart.
SHOWN_PREFIX_LENGTH = 14
LAST_USED_EVERY = timedelta(minutes=1)


def is_personal_token(token: str) -> bool:
    return token.startswith(PREFIX)


def new_personal_token() -> str:
    return PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def hash_personal_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class AccountCredential:
    """A personal token found valid: its account and its scopes."""

    account_id: int
    handle: str
    kind: str
    scopes: frozenset[str]
    token_id: int
    token_hash: str

    def seat_hash(self, game_id: uuid.UUID) -> str:
        """What the account's seat in `game_id` holds in place of a seat token's hash (no
        SHA-256, 64 hex digits, is ever of this form, so no seat token can stand for it).
        Every use of a seat goes through here, so a token without `play` is refused (403)."""
        self.require("play")
        return account_seat_hash(self.account_id, game_id)

    @property
    def throttle_key(self) -> str:
        return f"account:{self.account_id}"

    def require(self, scope: str) -> None:
        """403 `missing_scope` unless the token holds `scope`."""
        if scope not in self.scopes:
            raise MissingScope(scope)

    def holds_any(self, *scopes: str) -> bool:
        return any(scope in self.scopes for scope in scopes)


def account_seat_hash(account_id: int, game_id: uuid.UUID) -> str:
    return f"a:{account_id}:{game_id.hex}"


class _Remembered:
    """What this process learnt of presented tokens, and when (a lock: threaded workers)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, tuple[float, AccountCredential | None]] = {}

    def get(self, token_hash: str) -> tuple[bool, AccountCredential | None]:
        with self._lock:
            kept = self._found.get(token_hash)
        if kept is None or kept[0] < time.monotonic():
            return False, None
        return True, kept[1]

    def keep(self, token_hash: str, found: AccountCredential | None) -> None:
        fresh_until = time.monotonic() + min(settings.ACCOUNT_TOKEN_FRESH_SECONDS, 1.0)
        with self._lock:
            if len(self._found) > 10_000:
                self._found.clear()  # a flood of made-up tokens does not grow the process
            self._found[token_hash] = (fresh_until, found)

    def forget(self) -> None:
        """Drop everything (a revocation in this process is seen at once)."""
        with self._lock:
            self._found.clear()


REMEMBERED = _Remembered()


def resolve(token: str) -> AccountCredential | None:
    """The account `token` stands for, None for a token of no live account (unknown, revoked,
    or its account deleted): from what this process learnt within the last second at most."""
    return resolve_hash(hash_personal_token(token))


def resolve_hash(token_hash: str) -> AccountCredential | None:
    """`resolve` for the token whose hash is `token_hash`: what a stream opened with a token
    asks again every second, so that it ends once the token is revoked."""
    known, found = REMEMBERED.get(token_hash)
    if not known:
        found = _look_up(token_hash)
        REMEMBERED.keep(token_hash, found)
    return found


def _look_up(token_hash: str) -> AccountCredential | None:
    row = (
        PersonalToken.objects.select_related("account")
        .filter(token_hash=token_hash, account__deleted_at__isnull=True)
        .first()
    )
    if row is None or not hmac.compare_digest(row.token_hash, token_hash):
        return None
    _note_use(row)
    account = row.account
    scopes = frozenset(row.scopes)
    return AccountCredential(account.id, account.handle, account.kind, scopes, row.id, token_hash)


def _note_use(row: PersonalToken) -> None:
    """`last_used_at` moved on if a minute old (one process wins when several look at once)."""
    now = timezone.now()
    if row.last_used_at is not None and now - row.last_used_at < LAST_USED_EVERY:
        return
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
    PersonalToken.objects.filter(stale, pk=row.pk).update(last_used_at=now)
