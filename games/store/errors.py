"""What a database error means for a write: another writer won a race (a unique row it
inserted first), or holds the lock (contention). Other errors are bugs, not races.
"""

from __future__ import annotations

from django.db import IntegrityError, OperationalError

from games import store

#: PostgreSQL's serialization failure, deadlock and lock-not-available.
CONTENTION_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


def is_contention(error: OperationalError) -> bool:
    """A write refused because another holds the lock: SQLite's "database (table) is locked"
    (its busy timeout spent, or at once between connections of a shared in-memory database),
    PostgreSQL's serialization failure, deadlock or lock timeout."""
    if getattr(error.__cause__, "sqlstate", None) in CONTENTION_SQLSTATES:
        return True
    return store.writer().vendor == "sqlite" and "locked" in str(error)


def is_unique_violation(error: IntegrityError) -> bool:
    """A row another writer inserted first (an event's sequence, a seat, an idempotency key);
    other integrity errors (a CHECK, a foreign key) are bugs, not races."""
    if store.writer().vendor == "sqlite":
        return "UNIQUE constraint failed" in str(error)
    return getattr(error.__cause__, "sqlstate", None) == "23505"
