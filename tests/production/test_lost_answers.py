"""The attack of issue 12, item 3, against real server processes: a client sends its join and
drops the connection before reading the answer; the seat was taken, the token never seen. With
an Idempotency-Key its retry (through the other server) gets the same seat back, with a token
that works, instead of 409 `game_full`; and retries racing through both servers act once.
"""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from games.models import Seat
from loadtest.server import RunningServer

from .support import Call, assert_log_intact, fire, spread

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/api/v1/games"


def send_and_hang_up(server: RunningServer, path: str, body: dict[str, str], key: str) -> None:
    """POST `body` to `path` with an Idempotency-Key, and close the connection unread."""
    address = urlsplit(server.url)
    payload = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {address.hostname}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        f"Idempotency-Key: {key}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection((address.hostname, address.port), timeout=10) as conn:
        conn.sendall(head.encode() + payload)
        conn.shutdown(socket.SHUT_WR)


def wait_for_players(client: httpx.Client, game_id: str, joined: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        players = client.get(f"{GAMES}/{game_id}").json()["players"]
        if sum(player["name"] is not None for player in players) >= joined:
            return
        time.sleep(0.05)
    raise AssertionError("the dropped join never landed")


def test_a_join_whose_answer_was_dropped_gets_its_seat_back(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    game_id = http[0].post(GAMES, json={"seats": 2}).json()["id"]
    players = f"{GAMES}/{game_id}/players"
    send_and_hang_up(servers[0], players, {"name": "Ada"}, "ada-join-1")
    wait_for_players(http[1], game_id, 1)
    bob = http[1].post(players, json={"name": "Bob"})
    assert bob.status_code == 201, bob.text
    retry = http[1].post(players, json={"name": "Ada"}, headers={"Idempotency-Key": "ada-join-1"})
    assert retry.status_code == 201, retry.text  # not 409 game_full
    assert retry.headers["idempotent-replayed"] == "true"
    ada = retry.json()
    assert (ada["seat"], ada["name"]) == (1 - bob.json()["seat"], "Ada")
    view = http[0].get(f"{GAMES}/{game_id}", headers={"Authorization": f"Bearer {ada['token']}"})
    assert view.status_code == 200 and view.json()["you"] == ada["seat"]
    assert assert_log_intact(game_id).version == 1 + 2 + 1  # created, two joins, the deal


def test_join_retries_racing_through_both_servers_take_one_seat(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    game_id = http[0].post(GAMES, json={"seats": 3}).json()["id"]
    players = f"{GAMES}/{game_id}/players"
    headers = {"Idempotency-Key": "one-seat"}
    calls = [Call(players, {"name": "Ada"}, headers, via) for via in spread(6)]
    answers = fire([server.url for server in servers], calls)
    for answer in answers:
        assert answer.status == 201 or (answer.status, answer.code) in (
            (409, "idempotency_key_in_use"),
            (409, "concurrent_update"),
        ), answer.body
    assert {answer.body["seat"] for answer in answers if answer.status == 201} == {0}
    assert Seat.objects.filter(game_id=game_id).count() == 1
    assert assert_log_intact(game_id).version == 2
