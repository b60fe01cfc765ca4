"""The bot ladder's presence against a real server: while a laddered bot's account stream is
open, its entry is seen again and again (`last_seen` moves on, so the ladder may deal it sets);
once the stream is closed it is not. `main` sends a heartbeat every half second and closes its
streams after 3 s."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime

import httpx
import psycopg

from .accounts_support import read_stream, sign_up
from .conftest import Database, Servers
from .support import bearer


def last_seen(database: Database, handle: str) -> datetime | None:
    """The bot's ladder entry's `last_seen`, read from the servers' database behind their
    back."""
    query = (
        "SELECT last_seen FROM ratings_ladderentry JOIN accounts_account "
        "ON accounts_account.id = ratings_ladderentry.account_id WHERE handle = %s"
    )
    if database.vendor == "postgresql":
        with psycopg.connect(database.url) as connection:
            row = connection.execute(query, [handle]).fetchone()
    else:
        assert database.path is not None
        with sqlite3.connect(database.path) as connection:
            row = connection.execute(query.replace("%s", "?"), [handle]).fetchone()
    assert row is not None, handle
    found = row[0]
    return found if found is None or isinstance(found, datetime) else datetime.fromisoformat(found)


def test_an_open_account_stream_keeps_a_laddered_bot_present(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "climber")
    # Eight seats: a lone bot is never dealt a set of them (five built-ins), so no game starts.
    joined = client.post("/api/v1/account/ladder", json={"seats": [8]}, headers=bearer(token))
    assert joined.status_code == 201, joined.text
    assert last_seen(servers.database, "climber") is None  # joining is not being there
    opened = time.monotonic()
    frames = read_stream(servers.main.url, token)  # until the server closes it, after 3 s
    assert frames[0].event == "snapshot" and time.monotonic() - opened >= 2.5
    during = last_seen(servers.database, "climber")
    assert during is not None
    time.sleep(1.5)
    assert last_seen(servers.database, "climber") == during  # closed: no sign since
