"""The long poll, `GET /events?after=N&wait=S`, on `main` (two worker processes: the action
and the poll may be served by either): answered as soon as there is an event after N, with
an empty list when S runs out, at once when there is news already."""

from __future__ import annotations

import threading
import time

import httpx

from .support import GAMES, Table, act, start_game

SLACK = 2.0  # a busy machine


def events_url(table: Table) -> str:
    return f"{GAMES}/{table.game_id}/events"


def test_a_long_poll_answers_as_soon_as_an_event_comes(client: httpx.Client) -> None:
    table = start_game(client, 2, seed=7)
    version = int(client.get(events_url(table)).headers["ETag"].strip('"'))
    reveal = {"action": "reveal", "column": 0, "row": 0}
    later = threading.Timer(0.5, act, (client, table.game_id, table.tokens[0], reveal))
    began = time.monotonic()
    later.start()
    polled = client.get(events_url(table), params={"after": version, "wait": 20})
    took = time.monotonic() - began
    later.join()
    assert polled.status_code == 200
    assert 0.5 <= took < 0.5 + SLACK
    assert [event["sequence"] for event in polled.json()["events"]] == [version + 1]
    assert polled.headers["ETag"] == f'"{version + 1}"'


def test_a_long_poll_answers_an_empty_list_when_its_time_runs_out(client: httpx.Client) -> None:
    table = start_game(client, 2, seed=8)
    began = time.monotonic()
    polled = client.get(events_url(table), params={"after": 4, "wait": 1})
    took = time.monotonic() - began
    assert polled.status_code == 200
    assert polled.json() == {"events": [], "version": 4}
    assert 1 <= took < 1 + SLACK


def test_a_long_poll_with_news_answers_at_once(client: httpx.Client) -> None:
    table = start_game(client, 2, seed=9)
    began = time.monotonic()
    polled = client.get(events_url(table), params={"after": 2, "wait": 20})
    assert time.monotonic() - began < SLACK
    assert [event["sequence"] for event in polled.json()["events"]] == [3, 4]
