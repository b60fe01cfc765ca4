"""Concurrent requests on one game, from real threads (each with its own database connection):
exactly one of two conflicting actions wins, the log never forks or gaps, retries act once.

`transaction=True`: the threads must see each other's commits. No lock is held while an action
is decided: a writer whose write finds the game moved on reads it again and decides again, so
it ends with 412 (If-Match), the rules' 409, or its own success when its action is still legal
(several seats' setup reveals all land). 409 `concurrent_update` remains for a writer that
could not get the database's write lock in time, or lost too many races in a row.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import core
from games.models import Game, GameEvent

from .support import (
    GAMES,
    act,
    action_url,
    bearer,
    create_game,
    get_view,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

Request = Callable[[APIClient], Any]


def race(*requests: Request) -> list[Any]:
    """Send the requests at once, one thread each; answers in the same order."""
    barrier = threading.Barrier(len(requests))
    answers: list[Any] = [None] * len(requests)

    def run(index: int) -> None:
        client = APIClient(raise_request_exception=False)
        try:
            barrier.wait(timeout=10)
            answers[index] = requests[index](client)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(answer is not None for answer in answers), "a request did not answer"
    return answers


def post(url: str, body: dict[str, Any] | None = None, /, **headers: str) -> Request:
    return lambda client: client.post(url, body or {}, format="json", **headers)


def code(response: Any) -> str:
    return str(response.json()["code"])


def assert_log_intact(game_id: str) -> int:
    """Sequences 1..version without a gap, and the summary row agrees with the replay."""
    game = Game.objects.get(pk=game_id)
    sequences = list(
        GameEvent.objects.filter(game=game).order_by("sequence").values_list("sequence", flat=True)
    )
    assert sequences == list(range(1, game.version + 1))
    state = core.game_state(game)
    assert state.version == game.version
    assert game.current_seat == state.current and game.round == state.round
    return int(game.version)


def test_two_actions_with_the_same_if_match_one_wins() -> None:
    client = APIClient()
    game_id, tokens = start_game(client, 2, seed=21)
    setup_reveals(client, game_id, tokens)
    for _ in range(4):
        seat = get_view(client, game_id)["current_seat"]
        version = assert_log_intact(game_id)
        headers = {"HTTP_IF_MATCH": f'"{version}"', **bearer(tokens[seat])}
        answers = race(
            post(action_url(game_id, "draw"), **headers),
            post(action_url(game_id, "take_discard"), **headers),
        )
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses[0] == 200 and statuses[1] in (409, 412), [a.content for a in answers]
        loser = next(answer for answer in answers if answer.status_code != 200)
        assert code(loser) in {"version_mismatch", "concurrent_update"}
        assert assert_log_intact(game_id) == version + 1  # one action, one event
        act(client, game_id, tokens[seat], {"action": "replace", "column": 0, "row": 1})


def test_two_conflicting_actions_one_wins() -> None:
    client = APIClient()
    game_id, tokens = start_game(client, 2, seed=22)
    setup_reveals(client, game_id, tokens)
    seat = get_view(client, game_id)["current_seat"]
    version = assert_log_intact(game_id)
    auth = bearer(tokens[seat])
    answers = race(
        post(action_url(game_id, "draw"), **auth), post(action_url(game_id, "draw"), **auth)
    )
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    loser = next(answer for answer in answers if answer.status_code != 200)
    assert code(loser) in {"card_already_held", "concurrent_update"}
    assert assert_log_intact(game_id) == version + 1
    held = get_view(client, game_id, tokens[seat])["held_card"]
    assert held is not None and held["source"] == "deck"


def test_concurrent_setup_reveals_never_fork_the_log() -> None:
    client = APIClient()
    game_id, tokens = start_game(client, 4, seed=23)
    answers = race(
        *(
            post(action_url(game_id, "reveal"), {"column": 2, "row": 2}, **bearer(token))
            for token in tokens
        )
    )
    # Each loser of a race reads again and its reveal is still legal: all four land.
    assert [answer.status_code for answer in answers] == [200] * 4, [a.content for a in answers]
    won = len(answers)
    assert assert_log_intact(game_id) == 6 + won  # created, 4 joins, dealt, then the reveals
    versions = [answer.json()["version"] for answer in answers if answer.status_code == 200]
    assert len(set(versions)) == len(versions)  # each winner acted at its own version
    spectator = get_view(client, game_id)
    revealed = [p["grid"][2][2]["state"] == "face_up" for p in spectator["players"]]
    assert sum(revealed) == won


def test_concurrent_joins_take_distinct_seats() -> None:
    client = APIClient()
    game_id = create_game(client, 4)["id"]
    names = ["Ada", "Grace", "Edsger", "Barbara"]
    answers = race(*(post(f"{GAMES}/{game_id}/players", {"name": name}) for name in names))
    for name, answer in zip(names, answers, strict=True):
        if answer.status_code == 409:
            assert code(answer) == "concurrent_update"
            answer = client.post(f"{GAMES}/{game_id}/players", {"name": name}, format="json")
        assert answer.status_code == 201, answer.content
    game = get_view(client, game_id)
    assert sorted(p["name"] for p in game["players"]) == sorted(names)
    assert game["status"] == "setup"
    assert assert_log_intact(game_id) == 1 + 4 + 1


def test_concurrent_idempotent_retries_act_once() -> None:
    client = APIClient()
    game_id, tokens = start_game(client, 2, seed=24)
    setup_reveals(client, game_id, tokens)
    seat = get_view(client, game_id)["current_seat"]
    version = assert_log_intact(game_id)
    headers = {"HTTP_IDEMPOTENCY_KEY": "retry-me", **bearer(tokens[seat])}
    answers = race(*(post(action_url(game_id, "draw"), **headers) for _ in range(3)))
    bodies = [answer.json() for answer in answers if answer.status_code == 200]
    assert bodies and all(body == bodies[0] for body in bodies)
    for answer in answers:
        if answer.status_code != 200:
            assert (answer.status_code, code(answer)) == (409, "concurrent_update")
    assert assert_log_intact(game_id) == version + 1
    retry = client.post(action_url(game_id, "draw"), {}, format="json", **headers)
    assert retry.status_code == 200 and retry.json() == bodies[0]
    assert (
        Counter(GameEvent.objects.filter(game_id=game_id).values_list("type", flat=True))[
            "CardDrawn"
        ]
        == 1
    )


def test_racing_joins_with_one_key_take_one_seat() -> None:
    """The same join sent several times at once (a client retrying while its first request is
    still being served): one seat is taken; each answer is that seat (201) or 409, and a retry
    afterwards gets that seat with a working token."""
    client = APIClient()
    game_id = create_game(client, 4)["id"]
    join_ada = post(f"{GAMES}/{game_id}/players", {"name": "Ada"}, HTTP_IDEMPOTENCY_KEY="j")
    answers = race(*(join_ada for _ in range(4)))
    for answer in answers:
        if answer.status_code != 201:
            assert (answer.status_code, code(answer)) in (
                (409, "idempotency_key_in_use"),
                (409, "concurrent_update"),
            ), answer.content
    assert {a.json()["seat"] for a in answers if a.status_code == 201} == {0}
    retry = join_ada(client)
    assert retry.status_code == 201 and retry.json()["seat"] == 0
    assert get_view(client, game_id, retry.json()["token"])["players"][0]["name"] == "Ada"
    assert [p["name"] for p in get_view(client, game_id)["players"]] == ["Ada", None, None, None]
    assert assert_log_intact(game_id) == 2


def test_racing_creates_with_one_key_create_one_game() -> None:
    create = post(GAMES, {"seats": 2}, HTTP_IDEMPOTENCY_KEY="c")
    answers = race(*(create for _ in range(4)))
    ok = [answer for answer in answers if answer.status_code == 201]
    assert ok and all(answer.content == ok[0].content for answer in ok)
    for answer in answers:
        if answer.status_code != 201:
            assert (answer.status_code, code(answer)) == (409, "concurrent_update")
    assert Game.objects.count() == 1
