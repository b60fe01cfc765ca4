"""Firing requests at once from threads: through the two server processes (httpx) and through
this process's own Django stack (APIClient, one database connection per thread)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from engine import replay
from games import core
from games.models import Game, GameEvent
from games.store import log


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL (dj-database-url) for the database Django is connected to."""
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    if connection.vendor != "postgresql":
        pytest.skip(f"no server test for {connection.vendor}")
    user = quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{quote(password)}" if password else user
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{credentials}@{host}:{port}/{settings_dict['NAME']}"


@dataclass(frozen=True)
class Answer:
    """An HTTP answer, whichever way it came."""

    via: str
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None


@dataclass(frozen=True)
class Call:
    """One request: POST `path` with `body` and `headers`, through `via` (0 or 1: that server;
    "local": this process)."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    via: int | str
    label: Any = None


def _local(call: Call) -> Answer:
    client = APIClient(raise_request_exception=False)
    extra = {
        "HTTP_" + name.upper().replace("-", "_"): value for name, value in call.headers.items()
    }
    try:
        response = client.post(call.path, call.body, format="json", **extra)
        body = response.json() if response.content else None
        headers = {name.lower(): value for name, value in response.items()}
        return Answer("local", response.status_code, body, headers)
    finally:
        connections.close_all()


def _remote(client: httpx.Client, call: Call) -> Answer:
    response = client.post(call.path, json=call.body, headers=call.headers)
    body = response.json() if response.content else None
    headers = {name.lower(): value for name, value in response.headers.items()}
    return Answer(f"server {call.via}", response.status_code, body, headers)


def fire(servers: Sequence[str], calls: Sequence[Call]) -> list[Answer]:
    """Send every call at the same moment, one thread each; answers in the same order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int) -> None:
        call = calls[index]
        try:
            if call.via == "local":
                barrier.wait(timeout=30)
                answers[index] = _local(call)
                return
            assert isinstance(call.via, int)
            with httpx.Client(base_url=servers[call.via], timeout=60) as client:
                barrier.wait(timeout=30)
                answers[index] = _remote(client, call)
        except BaseException as error:  # reported below, in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    assert all(answer is not None for answer in answers), "a request did not answer"
    return [answer for answer in answers if answer is not None]


def spread(count: int) -> list[int | str]:
    """Where the i-th of `count` racing requests goes: server 0, server 1, this process..."""
    ways: list[int | str] = [0, 1, "local"]
    return [ways[i % len(ways)] for i in range(count)]


def assert_log_intact(game_id: str) -> Game:
    """Sequences 1..version without a gap or a fork, the log replays to the stored version,
    and the summary row agrees with the replay."""
    game = Game.objects.get(pk=game_id)
    sequences = list(
        GameEvent.objects.filter(game=game).order_by("sequence").values_list("sequence", flat=True)
    )
    assert sequences == list(range(1, game.version + 1))
    state = replay(log.engine_events(game))
    assert state.version == game.version
    assert (game.status, game.round, game.current_seat) == (
        core.STATUS_OF_PHASE[state.phase],
        state.round,
        state.current,
    )
    return game


Check = Callable[[list[Answer]], None]
