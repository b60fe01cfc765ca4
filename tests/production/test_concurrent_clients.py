"""Many clients act on one game at the same moment, from threads of this process and through two
real server processes sharing the database (PostgreSQL's `test_<name>_<pid>`, or the SQLite test
file): the log stays gapless and unforked, exactly one of the legal actions racing for a version
succeeds, the others get 412 (with the current version) or 409, retries with one
Idempotency-Key act once, and racing joins give each seat to exactly one player.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from games.models import GameEvent, Seat
from loadtest.server import RunningServer

from ..api.support import ENDPOINTS
from .support import Answer, Call, assert_log_intact, fire, spread

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/api/v1/games"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def urls(servers: list[RunningServer]) -> list[str]:
    return [server.url for server in servers]


def start_game(client: httpx.Client, seats: int, seed: int) -> tuple[str, list[str]]:
    created = client.post(GAMES, json={"seats": seats, "seed": seed})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = []
    for seat in range(seats):
        joined = client.post(f"{GAMES}/{game_id}/players", json={"name": f"P{seat}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return game_id, tokens


def action_call(game_id: str, action: dict[str, Any], headers: dict[str, str], via: Any) -> Call:
    body = {key: value for key, value in action.items() if key != "action"}
    return Call(f"{GAMES}/{game_id}/actions/{ENDPOINTS[action['action']]}", body, headers, via)


def test_racing_actions_exactly_one_legal_action_wins(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    """Step by step through the setup and into the play: every seat sends several of its legal
    actions (a seat with none sends an illegal one), all with If-Match of the same version,
    each twice, through both servers and this process at once."""
    game_id, tokens = start_game(http[0], 2, seed=31)
    for _ in range(8):
        seat_views = [http[1].get(f"{GAMES}/{game_id}", headers=bearer(t)).json() for t in tokens]
        version = seat_views[0]["version"]
        intents: list[tuple[int, dict[str, Any], bool]] = []
        for seat, view in enumerate(seat_views):
            legal = view["legal_actions"][:3]
            intents += [(seat, action, True) for action in legal] or [
                (seat, {"action": "draw"}, False)
            ]
        intents *= 2
        calls = [
            action_call(game_id, action, {**bearer(tokens[seat]), "If-Match": f'"{version}"'}, via)
            for (seat, action, _), via in zip(intents, spread(len(intents)), strict=True)
        ]
        answers = fire(urls(servers), calls)

        game = assert_log_intact(game_id)
        won = [(intent, a) for intent, a in zip(intents, answers, strict=True) if a.status == 200]
        assert len(won) == 1, [(a.via, a.status, a.code) for a in answers]
        (seat, _, legal), winner = won[0]
        assert legal and winner.body["you"] == seat
        assert winner.body["version"] == game.version > version
        for (_, _, legal), answer in zip(intents, answers, strict=True):
            if answer is winner:
                continue
            assert answer.status in (409, 412), (answer.via, answer.status, answer.body)
            if answer.status == 412:
                assert answer.code == "version_mismatch"
                assert answer.body["current_version"] == game.version
            elif legal:  # read again, it would get 412: only the write lock's 409 is left
                assert answer.code == "concurrent_update", answer.body
            else:  # refused by the rules before the winner moved the game on
                assert answer.code not in (None, "concurrent_update"), answer.body


def test_racing_duplicates_without_if_match_act_once(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    game_id, tokens = start_game(http[0], 2, seed=32)
    for seat, token in enumerate(tokens):  # setup: two reveals each
        for column in (0, 1):
            reveal = {"action": "reveal", "column": column, "row": 0}
            call = action_call(game_id, reveal, bearer(token), seat % 2)
            assert fire(urls(servers), [call])[0].status == 200
    before = assert_log_intact(game_id)
    seat = before.current_seat
    calls = [
        action_call(game_id, {"action": "draw"}, bearer(tokens[seat]), via) for via in spread(6)
    ]
    answers = fire(urls(servers), calls)
    assert sorted(a.status for a in answers) == [200] + [409] * 5, [a.body for a in answers]
    for answer in answers:
        if answer.status == 409:
            assert answer.code in ("card_already_held", "concurrent_update"), answer.body
    assert assert_log_intact(game_id).version == before.version + 1


def test_retries_with_one_idempotency_key_act_once(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    game_id, tokens = start_game(http[1], 2, seed=33)
    before = assert_log_intact(game_id)
    headers = {**bearer(tokens[0]), "Idempotency-Key": "reveal-once"}
    reveal = {"action": "reveal", "column": 2, "row": 1}
    answers = fire(urls(servers), [action_call(game_id, reveal, headers, via) for via in spread(6)])
    ok = [answer for answer in answers if answer.status == 200]
    assert ok, [a.body for a in answers]
    assert all(answer.body == ok[0].body for answer in ok)
    assert [a.headers.get("idempotent-replayed") for a in ok].count(None) == 1  # the first
    for answer in answers:
        if answer.status != 200:
            assert (answer.status, answer.code) == (409, "concurrent_update"), answer.body
    assert assert_log_intact(game_id).version == before.version + 1
    types = Counter(GameEvent.objects.filter(game_id=game_id).values_list("type", flat=True))
    assert types["CardRevealed"] == 1


@pytest.mark.parametrize(("seats", "players"), [(2, 6), (3, 9)])
def test_racing_joins_give_each_seat_to_exactly_one_player(
    servers: list[RunningServer], http: list[httpx.Client], seats: int, players: int
) -> None:
    created = http[0].post(GAMES, json={"seats": seats, "seed": 34})
    game_id = created.json()["id"]
    calls = [
        Call(f"{GAMES}/{game_id}/players", {"name": f"Player {i}"}, {}, via, label=i)
        for i, via in enumerate(spread(players))
    ]
    answers = fire(urls(servers), calls)
    joined: list[Answer] = [answer for answer in answers if answer.status == 201]
    refused = [answer for answer in answers if answer.status != 201]
    assert len(joined) == seats, [(a.status, a.body) for a in answers]
    assert all((a.status, a.code) == (409, "game_full") for a in refused), [a.body for a in refused]
    assert sorted(answer.body["seat"] for answer in joined) == list(range(seats))
    rows = sorted(Seat.objects.filter(game_id=game_id).values_list("seat", "name"))
    assert rows == sorted((answer.body["seat"], answer.body["name"]) for answer in joined)
    game = assert_log_intact(game_id)
    assert game.version == 1 + seats + 1  # created, the joins, round 1 dealt
    assert game.status == "setup" and game.players_joined == seats
