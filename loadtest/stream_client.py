"""The stream holders of `manage.py bench_stream`: many Server-Sent Events streams in one
process, on one asyncio loop over raw sockets (no HTTP library: 1,000 streams must not make the
load generator the bottleneck), noting when each event frame arrives.

It runs in a process of its own (`StreamHolder`), away from the benchmark's player and client
threads, so that their work does not delay its reads; the parent sends commands over a pipe
(open, close, reopen, report, stop). A stream that the server closes before its game is over is
reopened after its last `id` (`Last-Event-ID`), as an EventSource would. No Django here.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit

#: Seconds between a stream closed by the server and its reopening (its `retry:` is longer;
#: the benchmark counts these reopenings instead of waiting).
REOPEN_AFTER = 0.2
#: Openings at once: a burst of 1,000 connections would overflow the server's accept queue.
OPENING_AT_ONCE = 64
#: Seconds between two looks at the loop's own lateness (`Holder.lags`).
LAG_EVERY = 0.02
FINISHED_MARK = b'"status":"finished"'


@dataclass(frozen=True)
class StreamSpec:
    """A stream to hold: a game's, as a seat (with its token) or as a spectator."""

    game: str
    token: str | None = None


@dataclass(eq=False)
class Held:
    """One stream's record: every event frame's `id` and arrival time (monotonic clock, the
    same in every process of the machine), in arrival order."""

    spec: StreamSpec
    server: tuple[str, int]  # host and port
    ids: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    opens: int = 0
    reopened_by_server: int = 0  # closed by the server before the game was over
    errors: list[str] = field(default_factory=list)
    finished: bool = False
    views: int = 0

    @property
    def last_id(self) -> int | None:
        return self.ids[-1] if self.ids else None


class ChunkedReader:
    """The body of a chunked HTTP/1.1 response (what gunicorn sends a streamed answer as)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    async def chunk(self) -> bytes:
        """The next chunk's bytes; b"" at the end of the body."""
        size = int((await self.reader.readline()).split(b";")[0], 16)
        data = await self.reader.readexactly(size + 2)
        return data[:-2]


def _request(host: str, spec: StreamSpec, last_id: int | None) -> bytes:
    lines = [
        f"GET /api/v1/games/{spec.game}/stream HTTP/1.1",
        f"Host: {host}",
        "Accept: text/event-stream",
    ]
    if spec.token:
        lines.append(f"Authorization: Bearer {spec.token}")
    if last_id is not None:
        lines.append(f"Last-Event-ID: {last_id}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    status = int((await reader.readline()).split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def note_frames(held: Held, text: bytes, arrived: float) -> None:
    """Record the event frames in `text` (complete frames only)."""
    for frame in text.split(b"\n\n"):
        if frame.startswith(b"id: "):
            held.ids.append(int(frame[4 : frame.index(b"\n")]))
            held.times.append(arrived)
        elif frame.startswith(b"event: view"):
            held.views += 1
            held.finished = held.finished or FINISHED_MARK in frame


class Holder:
    """Every stream of this process, and the commands that open, close and report them; the
    streams spread over the servers of `base_urls` in turn."""

    def __init__(self, base_urls: list[str]) -> None:
        parts = [urlsplit(url) for url in base_urls]
        self.servers = [(part.hostname or "127.0.0.1", part.port or 80) for part in parts]
        self.held: list[Held] = []
        self.tasks: dict[Held, asyncio.Task[None]] = {}
        self.connecting = asyncio.Semaphore(OPENING_AT_ONCE)
        #: How late the loop woke for a timer, every `LAG_EVERY` s: the delay this process
        #: itself adds to a frame's arrival (a busy machine leaves it waiting for a CPU).
        self.lags: list[tuple[float, float]] = []  # (when, how late)

    async def watch_lag(self) -> None:
        while True:
            due = time.monotonic() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            now = time.monotonic()
            self.lags.append((now, max(0.0, now - due)))

    async def open(self, specs: list[StreamSpec]) -> dict[str, Any]:
        self.held = [
            Held(spec, self.servers[index % len(self.servers)]) for index, spec in enumerate(specs)
        ]
        return await self.reopen()

    async def reopen(self) -> dict[str, Any]:
        """Open every stream that is not open and whose game is not over (after its last id),
        and wait until each has its first view (or failed)."""
        started = time.monotonic()
        running = {held for held, task in self.tasks.items() if not task.done()}
        opening = [
            (held, asyncio.Event())
            for held in self.held
            if not held.finished and held not in running
        ]
        for held, ready in opening:
            self.tasks[held] = asyncio.create_task(self._hold(held, ready))
        await asyncio.gather(*(ready.wait() for _, ready in opening))
        return {"open": self.open_count(), "seconds": time.monotonic() - started}

    async def close(self) -> dict[str, Any]:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.tasks = {}
        return {"open": 0}

    def open_count(self) -> int:
        return sum(1 for task in self.tasks.values() if not task.done())

    def report(self) -> dict[str, Any]:
        return {
            "streams": [
                {
                    "game": held.spec.game,
                    "seat": held.spec.token is not None,
                    "ids": held.ids,
                    "times": held.times,
                    "opens": held.opens,
                    "reopened_by_server": held.reopened_by_server,
                    "errors": held.errors,
                    "finished": held.finished,
                    "views": held.views,
                }
                for held in self.held
            ],
            "open": self.open_count(),
            "lags": self.lags,
        }

    async def _hold(self, held: Held, ready: asyncio.Event) -> None:
        """Hold one stream until cancelled or its game is over, reopening it after a close."""
        try:
            while not held.finished:
                try:
                    await self._read_stream(held, ready)
                except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                    held.errors.append(f"transport: {error!r}"[:300])
                    if len(held.errors) > 20:
                        return
                if not held.finished:
                    held.reopened_by_server += 1
                    await asyncio.sleep(REOPEN_AFTER)
        finally:
            ready.set()

    async def _read_stream(self, held: Held, ready: asyncio.Event) -> None:
        async with self.connecting:
            host, port = held.server
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(_request(f"{host}:{port}", held.spec, held.last_id))
            status, headers = await _head(reader)
        held.opens += 1
        try:
            if status != 200 or headers.get(b"transfer-encoding") != b"chunked":
                body = await reader.read(300)
                held.errors.append(f"{status}: {body.decode(errors='replace')}")
                held.finished = True  # a refusal is not retried: it is an error to report
                return
            await self._read_frames(held, ChunkedReader(reader), ready)
        finally:
            writer.close()

    async def _read_frames(self, held: Held, body: ChunkedReader, ready: asyncio.Event) -> None:
        pending = b""
        while chunk := await body.chunk():
            pending += chunk
            complete, separator, pending = pending.rpartition(b"\n\n")
            if separator:
                note_frames(held, complete, time.monotonic())
                if held.views:
                    ready.set()


async def _serve(conn: Connection, base_urls: list[str]) -> None:
    """Run commands from the parent until `stop`."""
    holder = Holder(base_urls)
    lag_watch = asyncio.create_task(holder.watch_lag())
    loop = asyncio.get_running_loop()
    commands: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
    loop.add_reader(conn.fileno(), lambda: commands.put_nowait(conn.recv()))
    while True:
        command, *args = await commands.get()
        if command == "stop":
            lag_watch.cancel()
            await holder.close()
            conn.send({})
            return
        conn.send(await _answer(holder, command, args))


async def _answer(holder: Holder, command: str, args: list[Any]) -> dict[str, Any]:
    if command == "open":
        return await holder.open(*args)
    if command == "reopen":
        return await holder.reopen()
    if command == "close":
        return await holder.close()
    if command == "count":
        return {"open": holder.open_count()}
    if command == "lasts":
        return {"lasts": [(held.spec.game, held.last_id or 0) for held in holder.held]}
    return holder.report()


def _main(conn: Connection, base_urls: list[str]) -> None:
    asyncio.run(_serve(conn, base_urls))


class StreamHolder:
    """The stream-holding process, seen from the benchmark."""

    def __init__(self, base_urls: list[str]) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self.process = context.Process(target=_main, args=(child, base_urls), daemon=True)
        self.process.start()
        child.close()

    def call(self, *command: Any, timeout: float = 300) -> dict[str, Any]:
        self._conn.send(command)
        if not self._conn.poll(timeout):
            raise TimeoutError(f"the stream holder did not answer {command[0]!r}")
        answer: dict[str, Any] = self._conn.recv()
        return answer

    @property
    def pid(self) -> int:
        assert self.process.pid is not None  # started in __init__
        return self.process.pid

    def stop(self) -> None:
        if self.process.is_alive():
            with contextlib.suppress(OSError, EOFError, TimeoutError):
                self.call("stop", timeout=30)
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
