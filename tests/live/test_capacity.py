"""What streams and long polls may take of a server, on a small one of its own (`capacity`:
one worker, THREADS=2, six places for streams and long polls together, three per client
address, the address read from `X-Forwarded-For` as behind one proxy, and a stream's client
given five seconds to take what it is sent):

- with every place taken (streams, long polls, clients that never read), a plain request is
  still answered at once: the THREADS are never a stream's or a long poll's;
- a stream whose client reads nothing ends, and its place comes back, within the send timeout;
- thirty streams opened at once never get more than the six places.
"""

from __future__ import annotations

import fcntl
import json
import socket
import struct
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from urllib.parse import urlsplit

import httpx
import pytest

from engine import (
    GreedyPlayer,
    Join,
    Options,
    SeededShuffler,
    act,
    create_game,
    replay,
    seats_to_act,
    view,
)
from loadtest.server import RunningServer, running_server
from tests.api.history_support import document_of
from tests.api.support import GAMES

from .conftest import Database, _environment
from .support import Table, start_game, stream_url
from .support import act as act_over_http

CAPACITY = {
    "WORKERS": "1",
    "THREADS": "2",
    "LIVE_MAX_STREAMS": "6",
    "LIVE_MAX_STREAMS_PER_ADDRESS": "3",
    "NUM_PROXIES": "1",
    "LIVE_SEND_TIMEOUT_SECONDS": "5",  # the non-readers hold their places while polls come
    "LIVE_HEARTBEAT_SECONDS": "0.5",
    "LIVE_STREAM_SECONDS": "120",  # a place is freed by its client, never by the clock here
}
PLACES = int(CAPACITY["LIVE_MAX_STREAMS"])
#: Events of the long game: its first batch is far more than a non-reader's buffers hold.
LONG_GAME_EVENTS = 3000


@pytest.fixture(scope="module")
def capacity(
    live_database: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    env = _environment(live_database, **CAPACITY)
    env["STATIC_ROOT"] = str(tmp_path_factory.mktemp("capacity-static"))
    log_path = tmp_path_factory.getbasetemp() / "capacity.log"
    with log_path.open("a") as log, running_server(env, workers=1, threads=None, log=log) as up:
        yield up


def from_address(number: int) -> dict[str, str]:
    """The headers of a client at its own address (the server trusts one proxy)."""
    return {"X-Forwarded-For": f"10.0.{number // 256}.{number % 256}"}


def long_game(client: httpx.Client) -> str:
    """A game in play with `LONG_GAME_EVENTS` events, imported in one request."""
    shuffler, player = SeededShuffler(5), GreedyPlayer()
    events = create_game(2, Options(end_score=100_000))
    state = replay(events)
    for seat in range(2):
        new, state = act(state, None, Join(f"Player {seat}"), shuffler)
        events.extend(new)
    while len(events) < LONG_GAME_EVENTS:
        seat = seats_to_act(state)[0]
        new, state = act(state, seat, player.choose(view(state, seat)), shuffler)
        events.extend(new)
    imported = client.post(f"{GAMES}/import", json=document_of(events))
    assert imported.status_code == 201, imported.text
    assert imported.json()["status"] == "playing"
    game_id: str = imported.json()["id"]
    return game_id


def non_reader(server: RunningServer, game_id: str, number: int) -> socket.socket:
    """A client that asks for the stream from the start (the whole long log at once) and
    never reads a byte of it, with a receive buffer as small as the kernel allows."""
    url = urlsplit(server.url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((url.hostname, url.port))
    headers = "".join(f"{name}: {value}\r\n" for name, value in from_address(number).items())
    request = f"GET {stream_url(game_id)} HTTP/1.1\r\nHost: {url.netloc}\r\n{headers}\r\n"
    sock.sendall(request.encode())
    return sock


def unread_bytes(sock: socket.socket) -> int:
    """What the server sent that the client has not read (FIONREAD), read without reading."""
    answer = fcntl.ioctl(sock, termios.FIONREAD, struct.pack("i", 0))
    count: int = struct.unpack("i", answer)[0]
    return count


def wait_answered(sock: socket.socket, timeout: float = 20) -> None:
    """Until the server is writing the long log to the non-reader (more than the headers and
    `retry:`): its place is taken and the log's read, shared by them all, is done."""
    deadline = time.monotonic() + timeout
    while unread_bytes(sock) < 1024:
        assert time.monotonic() < deadline, "the server never answered a non-reader"
        time.sleep(0.05)


def closed_by_server(sock: socket.socket, timeout: float = 20) -> bool:
    """Whether the server closed the connection: read what it sent, to its end."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    return True


class LongPoll(threading.Thread):
    """`GET /events?after=<version>&wait=30` from an address of its own, on a thread."""

    def __init__(self, server: RunningServer, table: Table, after: int, number: int) -> None:
        super().__init__(daemon=True)
        self.url = f"{server.url}{GAMES}/{table.game_id}/events"
        self.query = {"after": after, "wait": 30}
        self.headers = from_address(number)
        self.answer: httpx.Response | None = None

    def run(self) -> None:
        self.answer = httpx.get(self.url, params=self.query, headers=self.headers, timeout=60)

    def refused(self) -> bool:
        answer = self.answer
        return answer is not None and answer.status_code == 503


def version_of(server: RunningServer, table: Table) -> int:
    answer = httpx.get(f"{server.url}{GAMES}/{table.game_id}", timeout=30)
    version: int = answer.json()["version"]
    return version


def opens(server: RunningServer, table: Table, number: int, timeout: float) -> float | None:
    """Seconds until a stream (read to its first frame, then closed) opened; None if every
    try within `timeout` was refused."""
    began = time.monotonic()
    while time.monotonic() < began + timeout:
        url = f"{server.url}{stream_url(table.game_id)}"
        params = {"after": version_of(server, table)}
        headers = from_address(number)
        with httpx.stream("GET", url, params=params, headers=headers, timeout=30) as opened:
            if opened.status_code == 200:
                return time.monotonic() - began
            assert opened.status_code == 503, opened.read()
        time.sleep(0.1)
    return None


def test_every_place_taken_leaves_the_threads_to_plain_requests(
    capacity: RunningServer, client: httpx.Client
) -> None:
    table, long = start_game(client, 2, seed=21), long_game(client)
    version = version_of(capacity, table)
    polls = [LongPoll(capacity, table, version, 100 + n) for n in range(PLACES)]
    with ExitStack() as held:
        readers = [held.enter_context(non_reader(capacity, long, n)) for n in range(4)]
        for sock in readers:
            wait_answered(sock)
        for poll in polls:
            poll.start()
        deadline = time.monotonic() + 10
        while not any(poll.refused() for poll in polls) and time.monotonic() < deadline:
            time.sleep(0.05)  # the polls past the places are answered at once
        try:
            began = time.monotonic()
            plain = httpx.get(f"{capacity.url}{GAMES}/{table.game_id}", timeout=30)
            took = time.monotonic() - began
            # Generous for a busy machine: with the long polls on the THREADS it takes 30 s.
            assert plain.status_code == 200 and took < 10, f"a plain GET took {took:.1f} s"
            # The long polls past the places were answered at once: 503 too_many_streams.
            assert any(poll.refused() for poll in polls), [poll.answer for poll in polls]
            refused = next(poll.answer for poll in polls if poll.refused())
            assert refused is not None and refused.json()["code"] == "too_many_streams"
            assert refused.headers["Retry-After"].isdigit()
            # The non-readers' places come back once their writes time out.
            assert opens(capacity, table, 200, timeout=20) is not None, "no place came back"
            assert all(closed_by_server(sock) for sock in readers)
        finally:
            act_over_http(client, table.game_id, table.tokens[0], _reveal())  # wakes the polls
            for poll in polls:
                poll.join(60)
    waited = [poll.answer for poll in polls if poll.answer and poll.answer.status_code == 200]
    assert waited and all(answer.json()["events"] for answer in waited)


def _reveal() -> dict[str, object]:
    return {"action": "reveal", "column": 0, "row": 0}


def test_thirty_streams_opened_at_once_get_the_places_and_no_more(
    capacity: RunningServer, client: httpx.Client
) -> None:
    table = start_game(client, 2, seed=22)
    version = version_of(capacity, table)
    start, done = threading.Barrier(30), threading.Event()
    statuses: list[int] = []

    def open_one(number: int) -> None:
        url = f"{capacity.url}{stream_url(table.game_id)}"
        start.wait()
        query, headers = {"after": version}, from_address(300 + number)
        with httpx.stream("GET", url, params=query, headers=headers, timeout=30) as answer:
            statuses.append(answer.status_code)
            if answer.status_code == 200:
                done.wait(30)  # held open until every one has its answer
            else:
                assert json.loads(answer.read())["code"] == "too_many_streams"

    openers = [threading.Thread(target=open_one, args=(n,), daemon=True) for n in range(30)]
    for opener in openers:
        opener.start()
    deadline = time.monotonic() + 60
    while len(statuses) < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    done.set()
    for opener in openers:
        opener.join(30)
    assert len(statuses) == 30
    assert 1 <= statuses.count(200) <= PLACES, statuses
    assert statuses.count(200) + statuses.count(503) == 30, statuses
