"""The stream tier (`python -m skyjo_service.stream_tier`) as a server of its own: it serves
the game streams and the rules (its health check), and answers every other path with a
problem document (a sync request there would hold the thread its sync views share); asked
to stop, it ends its streams at once rather than waiting for them."""

from __future__ import annotations

import os
import signal
import time

import httpx
import pytest

from loadtest.server import running_stream_tier

from .conftest import Servers, _environment
from .support import GAMES, Table, raw_stream, start_game


@pytest.mark.parametrize(
    "path",
    [GAMES, "/api/v1/account/stream", "/", "/api/schema/"],
)
def test_the_tier_answers_404_problems_off_its_streams(servers: Servers, path: str) -> None:
    answer = httpx.get(f"{servers.tier.url}{path}", timeout=10)
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_the_tier_refuses_a_long_poll_and_answers_its_streams_problems(
    servers: Servers, finished_table: Table
) -> None:
    with httpx.Client(base_url=servers.tier.url, timeout=10) as tier:
        poll = tier.get(f"{GAMES}/{finished_table.game_id}/events", params={"wait": 5})
        unknown = tier.get(f"{GAMES}/00000000-0000-0000-0000-000000000000/stream")
        forged = tier.get(
            f"{GAMES}/{finished_table.game_id}/stream", headers={"Authorization": "Bearer x"}
        )
    assert (poll.status_code, poll.json()["code"]) == (404, "not_found")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "game_not_found")
    assert forged.status_code == 401


def test_a_stopping_tier_ends_its_streams_at_once(servers: Servers, client: httpx.Client) -> None:
    """Streams last for minutes by default: SIGTERM ends them first (their clients reconnect
    elsewhere with `Last-Event-ID`), so the process stops within seconds."""
    table = start_game(client, 2, seed=31)
    env = _environment(servers.database, LIVE_HEARTBEAT_SECONDS="30")
    with (
        running_stream_tier(env) as tier,
        httpx.Client(base_url=tier.url, timeout=30) as streams,
        raw_stream(streams, table.game_id, table.tokens[0]) as stream,
    ):
        stream.read(until=lambda block: block.startswith("event: view"))
        began = time.monotonic()
        os.kill(tier.pid, signal.SIGTERM)
        stream.read()  # to the stream's end
        ended = time.monotonic() - began
    assert ended < 5, ended
