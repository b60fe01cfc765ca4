"""What a stream holds, and what a client that goes away gives back, counted on `small` (one
worker, seven threads, at most six streams, no database connection kept after use, a comment
every 0.2 s): a waiting stream holds its thread and one of the process's stream slots (the
hub's count, which refuses one more with 503), and no database connection; when its client
disconnects, the next write fails, the stream ends and gives both back.

Threads are counted too (/proc): gunicorn's pool makes a thread only when none is idle, so
the streams that take the freed places must not add a thread per stream."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import psycopg

from .conftest import SMALL, SMALL_APPLICATION, Server, Servers
from .support import RawStream, bearer, start_game, stream_url

LIMIT = int(SMALL["LIVE_MAX_STREAMS"])
HEARTBEAT = float(SMALL["LIVE_HEARTBEAT_SECONDS"])
#: Connections `small` may hold while its streams wait: PostgreSQL's listener, and its poll.
SHARED_CONNECTIONS = 2


def test_a_disconnected_client_frees_its_thread_and_its_slot(
    servers: Servers, client: httpx.Client
) -> None:
    table = start_game(client, 2, seed=15)
    viewers = (table.viewers * LIMIT)[:LIMIT]
    small = servers.small
    with ExitStack() as held:
        streams = [opened(held, small, table.game_id, viewers[0])]
        one = connections(servers)
        streams += [opened(held, small, table.game_id, token) for token in viewers[1:]]
        assert None not in streams
        assert_refused(small, table.game_id)
        many, held_threads = connections(servers), threads(small)
    # Every client went away at once; as the server notices, new streams take their places,
    # each on a thread of its own: all their threads and slots came back.
    began = time.monotonic()
    with ExitStack() as held:
        streams = []
        for token in viewers:
            while (stream := opened(held, small, table.game_id, token)) is None:
                assert time.monotonic() < began + 10, "no stream slot came back"
                time.sleep(0.05)
            streams.append(stream)
        freed_in = time.monotonic() - began
        assert_refused(small, table.game_id)  # the count neither leaks nor goes below
        assert threads(small) < held_threads + LIMIT, "the old streams' threads were not freed"
    print(f"{LIMIT} disconnected streams gave their threads and slots back in {freed_in:.2f} s")
    time.sleep(3 * HEARTBEAT)
    assert freed_in < 10 * HEARTBEAT + 2, freed_in
    # The connections are the process's (PostgreSQL's listener, its poll of watched games, a
    # moment each poll), none a stream's: more streams waiting hold no more of them.
    assert many <= one + 1, f"{one} connections with one stream, {many} with {LIMIT}"
    assert many <= SHARED_CONNECTIONS
    assert connections(servers) <= many


def opened(held: ExitStack, server: Server, game_id: str, token: str | None) -> RawStream | None:
    """A stream on a connection of its own, read to its first view and held open by `held`
    (closing it is a client going away); None if the server refused it with 503."""
    client = held.enter_context(httpx.Client(base_url=server.url, timeout=5))
    response = held.enter_context(client.stream("GET", stream_url(game_id), headers=bearer(token)))
    if response.status_code == 503:
        client.close()
        return None
    assert response.status_code == 200, response.read()
    stream = RawStream(response)
    stream.read(until=lambda block: block.startswith("event: view"))
    return stream


def threads(server: Server) -> int:
    """The threads of the server's (only) worker process."""
    return len(list(Path(f"/proc/{server.workers()[0]}/task").iterdir()))


def assert_refused(server: Server, game_id: str) -> None:
    with httpx.stream("GET", f"{server.url}{stream_url(game_id)}", timeout=5) as refused:
        assert refused.status_code == 503, "a stream beyond the limit was opened"
        assert json.loads(refused.read())["code"] == "too_many_streams"
        assert refused.headers["Retry-After"].isdigit()


def connections(servers: Servers, samples: int = 12) -> int:
    """The most database connections `small` held at once over a few samples."""
    counted = []
    for _ in range(samples):
        counted.append(_connections_now(servers))
        time.sleep(HEARTBEAT / 4)
    return max(counted)


def _connections_now(servers: Servers) -> int:
    database = servers.database
    if database.path is not None:  # SQLite: the worker's open files that are the database
        worker = servers.small.workers()[0]
        links = []
        for fd in Path(f"/proc/{worker}/fd").iterdir():
            try:
                links.append(fd.readlink())
            except OSError:  # closed meanwhile
                continue
        return sum(link == database.path for link in links)
    with psycopg.connect(database.url) as conn:
        rows = conn.execute(
            "SELECT state FROM pg_stat_activity WHERE application_name = %s",
            (SMALL_APPLICATION,),
        ).fetchall()
    assert not [state for (state,) in rows if state and "transaction" in state], rows
    return len(rows)
