"""Rate limits (off in every other test): 429 with Retry-After and a problem body."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from games.throttling import AddressRateThrottle, SeatTokenRateThrottle

from .support import GAMES, assert_problem, bearer, game_url, send, setup_reveals, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Throttling back on, with the settings' classes; each test sets tiny rates here."""
    monkeypatch.setattr(APIView, "throttle_classes", [AddressRateThrottle, SeatTokenRateThrottle])
    rates = {"address": "1000/min", "seat": "1000/min", "game_create": "1000/hour"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    return rates


def assert_throttled(response: Any, period: int = 60) -> None:
    body = assert_problem(response, 429, "throttled")
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= period
    assert body["retry_after"] == retry_after


def test_requests_per_address(api: APIClient, rates: dict[str, str]) -> None:
    rates["address"] = "3/min"
    for _ in range(3):
        assert api.get(GAMES).status_code == 200
    assert_throttled(api.get(GAMES))
    # Another address has its own allowance.
    assert api.get(GAMES, REMOTE_ADDR="10.1.2.3").status_code == 200


def test_games_created_per_address(api: APIClient, rates: dict[str, str]) -> None:
    rates["game_create"] = "2/hour"
    for _ in range(2):
        assert api.post(GAMES, {"seats": 2}, format="json").status_code == 201
    response = api.post(GAMES, {"seats": 2}, format="json")
    assert_throttled(response, period=3600)
    assert api.get(GAMES).json()["count"] == 2  # reading is not limited by it


def test_actions_per_seat_token(api: APIClient, rates: dict[str, str]) -> None:
    game_id, tokens = start_game(api, 2)
    setup_reveals(api, game_id, tokens)
    rates["seat"] = "2/min"
    cache.clear()
    assert api.get(game_url(game_id), **bearer(tokens[0])).status_code == 200
    assert api.get(game_url(game_id), **bearer(tokens[0])).status_code == 200
    assert_throttled(send(api, game_id, tokens[0], {"action": "draw"}))
    # Other seats and spectators are not held back by this seat's use.
    assert api.get(game_url(game_id), **bearer(tokens[1])).status_code == 200
    assert api.get(game_url(game_id)).status_code == 200
