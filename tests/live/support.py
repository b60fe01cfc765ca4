"""Clients of the live endpoints for the tests: games set up and played over HTTP (httpx), and
followers that read a viewer's stream as an EventSource does (httpx-sse), reconnecting with
`Last-Event-ID`, keeping every frame of every connection for the checks."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import EventSource, ServerSentEvent, connect_sse

from engine import (
    Action,
    GameState,
    GreedyPlayer,
    Join,
    Options,
    SeededShuffler,
    action_to_data,
    replay,
    seats_to_act,
    view,
)
from engine import act as engine_act
from engine import create_game as create_engine_game
from tests.api.support import ENDPOINTS

GAMES = "/api/v1/games"
#: The stream's frames that are no event of the log: the viewer's view, the backlog left out,
#: a finished game's rematch.
FRAMES_WITHOUT_ID = ("view", "skipped", "rematch")
View = dict[str, Any]


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def stream_url(game_id: str) -> str:
    return f"{GAMES}/{game_id}/stream"


# Games over HTTP


@dataclass(frozen=True)
class Table:
    """A game and the tokens of its seats."""

    game_id: str
    tokens: list[str]

    @property
    def viewers(self) -> list[str | None]:
        """The spectator (no token), then each seat."""
        return [None, *self.tokens]


def start_game(client: httpx.Client, seats: int, seed: int, end_score: int = 1) -> Table:
    """A seeded game with every seat taken (round 1 dealt); a tiny end score: one round."""
    body = {"seats": seats, "seed": seed, "options": {"end_score": end_score}}
    created = client.post(GAMES, json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    return Table(game_id, [join(client, game_id, f"Player {seat}") for seat in range(seats)])


def join(client: httpx.Client, game_id: str, name: str) -> str:
    joined = client.post(f"{GAMES}/{game_id}/players", json={"name": name})
    assert joined.status_code == 201, joined.text
    token: str = joined.json()["token"]
    return token


def act(client: httpx.Client, game_id: str, token: str, action: Action | dict[str, Any]) -> View:
    """POST one action to its typed endpoint; the actor's new view."""
    data = action if isinstance(action, dict) else action_to_data(action)
    body = {key: value for key, value in data.items() if key != "action"}
    url = f"{GAMES}/{game_id}/actions/{ENDPOINTS[data['action']]}"
    answer = client.post(url, json=body, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    view: View = answer.json()
    return view


def get_view(client: httpx.Client, game_id: str, token: str | None) -> View:
    answer = client.get(f"{GAMES}/{game_id}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    view: View = answer.json()
    return view


def feed(client: httpx.Client, game_id: str, token: str | None) -> dict[int, dict[str, Any]]:
    """Every event as `/events` shows it to the viewer now, by sequence (page by page)."""
    events: dict[int, dict[str, Any]] = {}
    while True:
        query = {"after": max(events, default=0), "limit": 1000}
        page = client.get(f"{GAMES}/{game_id}/events", params=query, headers=bearer(token))
        assert page.status_code == 200, page.text
        if not page.json()["events"]:
            return events
        events.update((event["sequence"], event) for event in page.json()["events"])


def engine_game(
    seats: int, seed: int, end_score: int = 1
) -> tuple[list[tuple[int, Action]], list[GameState]]:
    """The greedy players' actions in the seeded game (the service deals as the engine does
    with the same seed; seats named as `start_game` names them), and the state after the
    deal and after each action."""
    shuffler = SeededShuffler(seed)
    state = replay(create_engine_game(seats, Options(end_score)))
    for seat in range(seats):
        _, state = engine_act(state, None, Join(f"Player {seat}"), shuffler)
    states, actions = [state], []
    while state.phase != "finished":
        seat = seats_to_act(state)[0]
        action = GreedyPlayer().choose(view(state, seat))
        _, state = engine_act(state, seat, action, shuffler)
        actions.append((seat, action))
        states.append(state)
    return actions, states


# Streams


@dataclass(frozen=True)
class Frame:
    """A frame as an EventSource hands it over: `id` only on an event's frame (a client
    remembers the last one, a view frame has none of its own)."""

    event: str
    id: int | None
    data: dict[str, Any]

    @classmethod
    def of(cls, sse: ServerSentEvent) -> Frame:
        event_id = None if sse.event in FRAMES_WITHOUT_ID else int(sse.id)
        return cls(sse.event, event_id, json.loads(sse.data))


@dataclass
class Connection:
    """One request of a stream: where it resumed, the `retry:` it started with, its frames,
    and whether the server ended it (else the client closed it)."""

    resumed_after: int | None
    retry: int | None = None
    frames: list[Frame] = field(default_factory=list)
    closed_by_server: bool = False
    kept_upto: int | None = None  # the client kept the events up to this one (None: all)

    def events(self) -> list[Frame]:
        return [frame for frame in self.frames if frame.event != "view"]

    def kept(self) -> list[Frame]:
        upto = self.kept_upto
        return [f for f in self.events() if upto is None or (f.id is not None and f.id <= upto)]


def finished(view: View) -> bool:
    return bool(view["status"] == "finished")


class Follower(threading.Thread):
    """One viewer's stream, read on a thread to the game's end (the finished game's view, after
    which the server must end the stream), or with `until` to a view at that version (then the
    client closes it). When the server closes the stream before, it reconnects with
    `Last-Event-ID`, as an EventSource does. `chop`: after each batch of events it closes the
    stream itself and resumes after the batch's first event (a client that kept only that
    much), alternately by `Last-Event-ID` and by `?after=`: resumed at every point."""

    def __init__(
        self,
        base_url: str,
        game_id: str,
        token: str | None,
        *,
        until: int | None = None,
        chop: bool = False,
        seconds: float = 120,
    ) -> None:
        super().__init__(daemon=True)
        self.base_url, self.game_id, self.token = base_url, game_id, token
        self.until, self.chop = until, chop
        self.deadline = time.monotonic() + seconds
        self.connections: list[Connection] = []
        self.error: BaseException | None = None
        self.arrivals: dict[int, float] = {}  # version -> when its first view arrived
        self._seen = threading.Condition()

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base_url, timeout=10) as client:
                resume: int | None = None
                while True:
                    assert time.monotonic() < self.deadline, "the stream did not reach its end"
                    resume, over = self._read(client, resume)
                    if over:
                        return
        except BaseException as error:  # reported by `finish`, in the test's thread
            self.error = error
        finally:
            with self._seen:
                self._seen.notify_all()

    def _read(self, client: httpx.Client, resume: int | None) -> tuple[int | None, bool]:
        """One connection: answers where to resume and whether the follower is done."""
        connection = Connection(resume)
        self.connections.append(connection)
        headers, query = bearer(self.token), {}
        if resume is not None and self.chop and len(self.connections) % 2:
            query["after"] = resume
        elif resume is not None:
            headers["Last-Event-ID"] = str(resume)
        reached = False
        with connect_sse(
            client, "GET", stream_url(self.game_id), headers=headers, params=query
        ) as source:
            for frame in frames(source, connection):
                if frame.event != "view":
                    resume = frame.id
                    continue
                self._saw(frame.data)
                if self.chop and connection.events():
                    connection.kept_upto = connection.events()[0].id
                    return connection.kept_upto, False
                if self.until is not None and frame.data["version"] >= self.until:
                    return resume, True
                reached = finished(frame.data)
        connection.closed_by_server = True
        return resume, reached

    def _saw(self, view: View) -> None:
        with self._seen:
            self.arrivals.setdefault(view["version"], time.monotonic())
            self._seen.notify_all()

    def arrival(self, version: int, timeout: float) -> float | None:
        """When a view at `version` (or later) arrived, waiting up to `timeout` seconds."""
        with self._seen:
            self._seen.wait_for(
                lambda: max(self.arrivals, default=-1) >= version or not self.is_alive(),
                timeout,
            )
            arrived = [at for seen, at in self.arrivals.items() if seen >= version]
        return min(arrived, default=None)

    def wait_version(self, version: int, timeout: float) -> float:
        """`arrival`, which must come."""
        arrived = self.arrival(version, timeout)
        assert arrived is not None, f"no view at {version} within {timeout} s: {self.error!r}"
        return arrived

    def read_all(self) -> list[Connection]:
        """Follow in this thread, to the end; the connections."""
        self.run()
        if self.error is not None:
            raise self.error
        return self.connections

    def finish(self, timeout: float = 60) -> list[Connection]:
        """Wait for the follower's end; its connections."""
        self.join(timeout)
        assert not self.is_alive(), "the follower is still reading"
        if self.error is not None:
            raise self.error
        return self.connections


def frames(source: EventSource, connection: Connection) -> Iterator[Frame]:
    """The frames of a stream that answered 200, each also kept in `connection`."""
    assert source.response.status_code == 200, source.response.read()
    for sse in source.iter_sse():
        if not sse.data:  # `retry:`; or a comment after an `id:`, which httpx-sse 0.4.3
            if sse.retry is not None:  # hands over as an event without data
                connection.retry = sse.retry
            continue
        frame = Frame.of(sse)
        connection.frames.append(frame)
        yield frame


def whole_stream(
    client: httpx.Client,
    game_id: str,
    token: str | None = None,
    *,
    last_event_id: int | None = None,
    after: int | None = None,
) -> Connection:
    """A stream read until the server ends it (a finished game's), started after
    `Last-Event-ID` or `?after=`."""
    headers = bearer(token)
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    query = {} if after is None else {"after": after}
    connection = Connection(last_event_id if last_event_id is not None else after)
    with connect_sse(client, "GET", stream_url(game_id), headers=headers, params=query) as source:
        for _ in frames(source, connection):
            pass
    connection.closed_by_server = True
    return connection


def kept_events(connections: list[Connection]) -> list[Frame]:
    """The events a client kept, connection after connection."""
    return [frame for connection in connections for frame in connection.kept()]


# Raw streams: what an EventSource hides (the `retry:` line, comments) and how a stream ends


@dataclass
class RawStream:
    """A stream's blocks (the text between blank lines) as they came, and when each came."""

    response: httpx.Response
    blocks: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    pending: str = ""
    #: The body's iterator, kept between reads: dropping it would close the connection.
    chunks: Iterator[str] | None = None

    def read(self, until: Callable[[str], bool] = lambda block: False) -> None:
        """Read blocks until `until(block)` or the end of the stream."""
        if self.chunks is None:
            self.chunks = self.response.iter_text()
        for text in self.chunks:
            self.pending += text
            while "\n\n" in self.pending:
                block, self.pending = self.pending.split("\n\n", 1)
                self.blocks.append(block)
                self.times.append(time.monotonic())
                if until(block):
                    return
        assert self.pending == "", f"the stream ended inside a frame: {self.pending!r}"

    def frames(self) -> list[dict[str, str]]:
        """The blocks that are frames (not comments), field by field."""
        fields = [dict(line.split(": ", 1) for line in block.split("\n")) for block in self.blocks]
        return [frame for frame in fields if "" not in frame]


@contextmanager
def raw_stream(
    client: httpx.Client, game_id: str, token: str | None = None, **headers: str
) -> Iterator[RawStream]:
    with client.stream("GET", stream_url(game_id), headers={**bearer(token), **headers}) as r:
        yield RawStream(r)
