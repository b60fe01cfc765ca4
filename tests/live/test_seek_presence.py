"""Quick play's presence against a real server: while its account stream is open, an account's
searching seek is seen again and again (`seen_at` moves on, so it does not expire); once the
stream is closed it is not (nothing else moved it: the seek's own reads are not made here).
`main` sends a heartbeat every half second and closes its streams after 3 s."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime

import httpx
import psycopg

from .accounts_support import read_stream, sign_up
from .conftest import Database, Servers
from .support import bearer

SEEKS = "/api/v1/seeks"


def seen_at(database: Database, seek_id: str) -> datetime:
    """The seek's `seen_at`, read from the servers' database behind their back."""
    query = "SELECT seen_at FROM play_seek WHERE id = %s"
    if database.vendor == "postgresql":
        with psycopg.connect(database.url) as connection:
            row = connection.execute(query, [seek_id]).fetchone()
    else:
        assert database.path is not None
        with sqlite3.connect(database.path) as connection:
            row = connection.execute(
                query.replace("%s", "?"), [seek_id.replace("-", "")]
            ).fetchone()
    assert row is not None, seek_id
    found = row[0]
    return found if isinstance(found, datetime) else datetime.fromisoformat(found)


def test_an_open_account_stream_keeps_its_seek_alive(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "seeker")
    body = {"seats": {"min": 4, "max": 4}}  # no one else seeks: it stays searching
    made = client.post(SEEKS, json=body, headers=bearer(token))
    assert made.status_code == 201, made.text
    seek_id = made.json()["id"]
    first = seen_at(servers.database, seek_id)
    opened = time.monotonic()
    frames = read_stream(servers.main.url, token)  # until the server closes it, after 3 s
    assert frames[0].event == "snapshot" and time.monotonic() - opened >= 2.5
    during = seen_at(servers.database, seek_id)
    assert (during - first).total_seconds() >= 2  # seen until the stream's last half second
    time.sleep(1.5)
    assert seen_at(servers.database, seek_id) == during  # closed: no sign since
    read = client.get(f"{SEEKS}/{seek_id}", headers=bearer(token)).json()
    assert read["status"] == "searching"
