"""Personal tokens: `skyjo_pat_` and 43 URL-safe characters (32 random bytes), shown once and
stored as a SHA-256; and who a presented one stands for (`resolve`).

A request must not cost a query to learn who its token is (`bench_load` with account tokens),
so each process keeps the tokens it found valid, and checks them all again in one query every
`ACCOUNT_TOKEN_FRESH_SECONDS` (at most 1): a revoked token, or one of a deleted account, is
refused by every process within that time. `last_used_at` is written when a token is first
looked up, and then once a minute for the tokens used in it, where a minute old: never once
per request.
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
    """The valid tokens this process has seen, kept until they are found revoked: every
    `ACCOUNT_TOKEN_FRESH_SECONDS` (at most 1) the first request to come checks them all again
    in one query (`_recheck`), so a process costs that query a second, not one a request or
    one per token; and once a minute it notes the use of those that were used (`_note_uses`).
    A lock: threaded workers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, AccountCredential] = {}
        self._used: set[str] = set()
        self._checked_at = self._noted_at = time.monotonic()

    def credential(self, token_hash: str) -> AccountCredential | None:
        self._recheck_if_due()
        with self._lock:
            found = self._found.get(token_hash)
        if found is None:
            found = _look_up(token_hash)  # unknown tokens are not kept: the throttles bound them
            if found is None:
                return None
            with self._lock:
                if len(self._found) >= _KEPT:
                    self._found.clear()  # a flood of new tokens does not grow the process
                self._found[token_hash] = found
        with self._lock:
            self._used.add(token_hash)
        return found

    def forget(self) -> None:
        """Drop everything (a revocation in this process is seen at once)."""
        with self._lock:
            self._found.clear()

    def _recheck_if_due(self) -> None:
        now = time.monotonic()
        fresh = min(settings.ACCOUNT_TOKEN_FRESH_SECONDS, 1.0)
        with self._lock:
            if now - self._checked_at < fresh:
                return
            self._checked_at = now  # one request rechecks; the others go on meanwhile
            kept = list(self._found)
            used = self._take_uses(now)
        live = _still_live(kept)
        with self._lock:
            for token_hash in kept:
                if token_hash not in live:
                    self._found.pop(token_hash, None)
        _note_uses(used)

    def _take_uses(self, now: float) -> list[str]:
        """The tokens used since the last note, once a minute (under the lock)."""
        if now - self._noted_at < LAST_USED_EVERY.total_seconds():
            return []
        self._noted_at = now
        used, self._used = list(self._used), set()
        return used


#: Tokens a process keeps at most.
_KEPT = 10_000
#: Hashes per query of a recheck.
_CHUNK = 500

REMEMBERED = _Remembered()


def resolve(token: str) -> AccountCredential | None:
    """The account `token` stands for, None for a token of no live account (unknown, revoked,
    or its account deleted), as this process last checked, a second ago at most."""
    return resolve_hash(hash_personal_token(token))


def resolve_hash(token_hash: str) -> AccountCredential | None:
    """`resolve` for the token whose hash is `token_hash`: what a stream opened with a token
    asks again while it waits, so that it ends once the token is revoked."""
    return REMEMBERED.credential(token_hash)


def _still_live(token_hashes: list[str]) -> set[str]:
    """Which of these tokens are still those of a live account."""
    live: set[str] = set()
    for start in range(0, len(token_hashes), _CHUNK):
        chunk = token_hashes[start : start + _CHUNK]
        rows = PersonalToken.objects.filter(token_hash__in=chunk, account__deleted_at__isnull=True)
        live.update(rows.values_list("token_hash", flat=True))
    return live


def _note_uses(token_hashes: list[str]) -> None:
    """`last_used_at` moved on for these tokens, where a minute old."""
    if token_hashes:
        now = timezone.now()
        stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_EVERY)
        PersonalToken.objects.filter(stale, token_hash__in=token_hashes).update(last_used_at=now)


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
