"""Each account's inbox: an append-only sequence of entries (1, 2, 3...), what the account
stream sends. Entries are delivered in the transaction of the write that causes them (a
game's append): no entry without its cause, no cause without its entry.

A delivery moves the account's `inbox_version` on under its row's lock, so the entries of one
account commit in the order of their numbers and a reader resuming after N misses none. The
accounts are locked in the order of their ids: two deliveries to the same accounts never wait
for each other in a circle. Once committed, `inbox_written` tells the push (the API's account
stream, connected in `games.apps`); on PostgreSQL the same transaction notifies
`INBOX_CHANNEL`, for the other processes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import django.dispatch
from django.db import connections, router, transaction

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
    account's are dropped)."""
    if not letters:
        return
    by_account: dict[str, list[Letter]] = defaultdict(list)
    for letter in letters:
        by_account[handle_key(letter.handle)].append(letter)
    alias = router.db_for_write(InboxEntry)
    with transaction.atomic(using=alias, savepoint=False):
        rows, delivered = _numbered(alias, by_account)
        InboxEntry.objects.using(alias).bulk_create(rows)
        _notify(alias, delivered)


def _numbered(
    alias: str, by_account: dict[str, list[Letter]]
) -> tuple[list[InboxEntry], list[tuple[int, int]]]:
    """The entries with their numbers, each account's counter moved on (its row locked)."""
    ids = dict(
        Account.objects.using(alias)
        .filter(handle_key__in=list(by_account), deleted_at__isnull=True)
        .values_list("handle_key", "id")
    )
    rows: list[InboxEntry] = []
    delivered: list[tuple[int, int]] = []
    for key, account_id in sorted(ids.items(), key=lambda item: item[1]):
        letters = by_account[key]
        last = _move_counter(alias, account_id, len(letters))
        first = last - len(letters) + 1
        rows += [
            InboxEntry(account_id=account_id, sequence=first + i, type=x.type, payload=x.payload)
            for i, x in enumerate(letters)
        ]
        delivered.append((account_id, last))
    return rows, delivered


def _move_counter(alias: str, account_id: int, count: int) -> int:
    table = connections[alias].ops.quote_name(Account._meta.db_table)
    with connections[alias].cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET inbox_version = inbox_version + %s WHERE id = %s "
            "RETURNING inbox_version",
            [count, account_id],
        )
        return int(cursor.fetchone()[0])


def _notify(alias: str, delivered: list[tuple[int, int]]) -> None:
    connection = connections[alias]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for account_id, sequence in delivered:
                cursor.execute(
                    "SELECT pg_notify(%s, %s)", [INBOX_CHANNEL, f"{account_id} {sequence}"]
                )
    for account_id, sequence in delivered:
        transaction.on_commit(
            lambda a=account_id, s=sequence: inbox_written.send(Account, account_id=a, sequence=s),
            using=alias,
        )


def entries(account_id: int, after: int, limit: int = 500) -> list[InboxEntry]:
    """The account's entries after number `after`, oldest first, at most `limit`."""
    rows = InboxEntry.objects.filter(account_id=account_id, sequence__gt=after)
    return list(rows.order_by("sequence")[:limit])


def last_sequence(account_id: int) -> int:
    found = Account.objects.filter(pk=account_id).values_list("inbox_version", flat=True)
    return found.first() or 0
