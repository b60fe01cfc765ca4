"""The SQLite default is set up for several workers at once: a file database in WAL mode (readers
beside the writer), a busy timeout (a writer waits for the lock instead of failing at once) and
IMMEDIATE transactions (a transaction takes the write lock when it begins, so two transactions
that read then write cannot deadlock on upgrading their locks)."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connection, transaction

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _sqlite_only() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite settings (DATABASE_URL selects another database)")


def test_a_file_database_in_wal_mode_with_a_busy_timeout() -> None:
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL, safe in WAL


def test_transactions_take_the_write_lock_when_they_begin() -> None:
    assert connection.transaction_mode == "IMMEDIATE"
    name = connection.settings_dict["NAME"]
    with transaction.atomic():
        assert not Game.objects.exists()  # only a read so far
        other = sqlite3.connect(name, timeout=0, isolation_level=None)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")  # a second writer must wait
            assert other.execute("SELECT count(*) FROM games_game").fetchone() == (0,)  # WAL
        finally:
            other.close()
    other = sqlite3.connect(name, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # the lock went with the transaction
        other.execute("ROLLBACK")
    finally:
        other.close()
