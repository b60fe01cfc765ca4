"""Simultaneous legal moves all land, on both databases: eight seats each send their two setup
reveals at the same moment (sixteen requests without If-Match, through two real server
processes and this process), and every one answers 200, again and again.

On PostgreSQL, five immediate retries used to lose the race 9 to 19 times in 80 such requests
(`409 concurrent_update`): now a request that lost a race once waits its turn on the game's row.
"""

from __future__ import annotations

import httpx
import pytest

from games.models import GameEvent
from loadtest.server import RunningServer

from .support import Call, assert_log_intact, fire, spread
from .test_concurrent_clients import GAMES, bearer, start_game, urls

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = 8
BURSTS = 10
#: Each seat's two setup reveals (R5): two cards of its own grid.
REVEALS = ({"column": 0, "row": 0}, {"column": 3, "row": 2})


def reveal_calls(game_id: str, tokens: list[str]) -> list[Call]:
    calls = [
        Call(f"{GAMES}/{game_id}/actions/reveal", cell, bearer(token), None, label=seat)
        for seat, token in enumerate(tokens)
        for cell in REVEALS
    ]
    return [
        Call(c.path, c.body, c.headers, via, c.label)
        for c, via in zip(calls, spread(len(calls)), strict=True)
    ]


@pytest.mark.parametrize("burst", range(BURSTS))
def test_every_seat_revealing_at_once_all_land(
    servers: list[RunningServer], http: list[httpx.Client], burst: int
) -> None:
    game_id, tokens = start_game(http[burst % 2], SEATS, seed=600 + burst)
    before = assert_log_intact(game_id)
    answers = fire(urls(servers), reveal_calls(game_id, tokens))
    failed = [(a.via, a.status, a.code) for a in answers if a.status != 200]
    assert not failed, failed
    game = assert_log_intact(game_id)
    reveals = GameEvent.objects.filter(game_id=game_id, sequence__gt=before.version)
    assert reveals.filter(type="CardRevealed").count() == SEATS * len(REVEALS)
    assert game.status == "playing"  # every seat revealed its two: play began
