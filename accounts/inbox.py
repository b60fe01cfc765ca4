"""Each account's inbox: an append-only sequence of entries (1, 2, 3...), what the account
stream sends. Entries are delivered in the transaction of the write that causes them (a
game's append): no entry without its cause, no cause without its entry.

Each entry is numbered after its account's last one, and the unique (account, sequence) index
makes a concurrent writer of the same number wait, then fail and retry: so the entries of one
account commit in the order of their numbers and a reader resuming after N misses none. A
delivery costs one statement a letter (a turn's `your_turn` is one). Once committed,
`inbox_written` tells the push (the API's account stream, connected in `games.apps`); on
PostgreSQL the same statement notifies `INBOX_CHANNEL`, for the other processes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import django.dispatch
from django.db import connections, router, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.handles import handle_key
from accounts.models import Account, InboxEntry

#: Sent once a delivery commits, with `account_id` and `sequence` (its last entry's number).
inbox_written = django.dispatch.Signal()

INBOX_CHANNEL = "skyjo_inbox"


@dataclass(frozen=True)
class Letter:
    """An entry to deliver: to the account with `handle`, of `type`, with `payload`."""

    handle: str
    type: str
    payload: dict[str, Any]


def deliver(letters: Sequence[Letter]) -> None:
    """Append `letters` to their accounts' inboxes, in the caller's transaction (a deleted
    account's are dropped): one statement a letter, which numbers it after the account's last
    committed entry. Two writers numbering the same entry at once collide on the unique
    (account, sequence) index, and the later one's transaction is rolled back (its caller
    retries, as after any lost race): so an entry is only ever numbered after every lower one
    has committed, and a reader resuming after N misses none."""
    if not letters:
        return
    alias = router.db_for_write(InboxEntry)
    connection = connections[alias]
    statement = _deliver_sql(connection.vendor == "postgresql")
    delivered: dict[int, int] = {}
    with transaction.atomic(using=alias, savepoint=False), connection.cursor() as cursor:
        for letter in letters:
            cursor.execute(statement, _params(letter))
            for account_id, sequence in cursor.fetchall():
                delivered[account_id] = sequence
    for account_id, sequence in delivered.items():
        transaction.on_commit(
            partial(inbox_written.send, Account, account_id=account_id, sequence=sequence),
            using=alias,
        )


def _params(letter: Letter) -> dict[str, Any]:
    return {
        "type": letter.type,
        "payload": json.dumps(letter.payload),
        "at": timezone.now(),
        "handle": handle_key(letter.handle),
        "channel": INBOX_CHANNEL,
    }


@functools.cache
def _deliver_sql(postgresql: bool) -> str:
    """One letter's insert, numbered after its account's last entry, answering the account
    and the number; on PostgreSQL also notifying `INBOX_CHANNEL` (the other processes)."""
    entries, accounts = InboxEntry._meta.db_table, Account._meta.db_table
    payload = "%(payload)s::jsonb" if postgresql else "%(payload)s"
    insert = (
        f'INSERT INTO "{entries}" (account_id, sequence, type, payload, created_at) '
        f'SELECT a.id, COALESCE((SELECT MAX(e.sequence) FROM "{entries}" e '
        f"WHERE e.account_id = a.id), 0) + 1, %(type)s, {payload}, %(at)s "
        f'FROM "{accounts}" a WHERE a.handle_key = %(handle)s AND a.deleted_at IS NULL '
        "RETURNING account_id, sequence"
    )
    if not postgresql:
        return insert
    return (
        f"WITH delivered AS ({insert}) SELECT account_id, sequence FROM delivered, "
        "LATERAL (SELECT pg_notify(%(channel)s, account_id || ' ' || sequence)) AS told"
    )


def entries(account_id: int, after: int, limit: int = 500) -> list[InboxEntry]:
    """The account's entries after number `after`, oldest first, at most `limit`."""
    rows = InboxEntry.objects.filter(account_id=account_id, sequence__gt=after)
    return list(rows.order_by("sequence")[:limit])


def last_sequences(account_ids: list[int]) -> dict[int, int]:
    """The number of each account's last entry, for those that have one (one query)."""
    if not account_ids:
        return {}
    rows = InboxEntry.objects.filter(account_id__in=account_ids).values("account_id")
    return {row["account_id"]: row["last"] for row in rows.annotate(last=Max("sequence"))}


def last_sequence(account_id: int) -> int:
    """The number of the account's last entry (0: none yet)."""
    rows = InboxEntry.objects.filter(account_id=account_id).order_by("-sequence")
    return rows.values_list("sequence", flat=True).first() or 0
