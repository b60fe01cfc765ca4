"""Rate limits (off in every other test): 429 with Retry-After and a problem body."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from engine import GreedyPlayer

from .support import (
    GAMES,
    assert_problem,
    bearer,
    finished_game,
    game_url,
    play_over_http,
    send,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


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


def test_imports_count_as_game_creations(api: APIClient, rates: dict[str, str]) -> None:
    game_id, _ = finished_game(api)
    history = api.get(f"{GAMES}/{game_id}/history").json()
    rates["game_create"] = "2/hour"
    cache.clear()
    assert api.post(GAMES, {"seats": 2}, format="json").status_code == 201
    assert api.post(f"{GAMES}/import", history, format="json").status_code == 201
    assert_throttled(api.post(f"{GAMES}/import", history, format="json"), period=3600)
    assert_throttled(api.post(GAMES, {"seats": 2}, format="json"), period=3600)


def test_a_forged_forwarded_for_does_not_escape_the_limit(
    api: APIClient, rates: dict[str, str]
) -> None:
    """With no proxy configured (NUM_PROXIES=0) the address is the connection's own."""
    rates["address"] = "2/min"
    for forged in ("1.1.1.1", "2.2.2.2"):
        assert api.get(GAMES, HTTP_X_FORWARDED_FOR=forged).status_code == 200
    assert_throttled(api.get(GAMES, HTTP_X_FORWARDED_FOR="3.3.3.3"))


def test_refused_tokens_count_against_the_address(api: APIClient, rates: dict[str, str]) -> None:
    """A malformed `Authorization` header was refused before the throttles ran (DRF
    authenticates first), so guessing tokens that way was never limited."""
    game_id, _ = start_game(api, 2)
    rates["address"] = "4/min"
    cache.clear()
    guesses = ["Bearer", "Basic abc", "Bearer a b", "Bearer " + "x" * 43]
    for guess in guesses:
        response = api.get(game_url(game_id), HTTP_AUTHORIZATION=guess)
        assert_problem(response, 401, "invalid_token")
    assert_throttled(api.get(game_url(game_id), HTTP_AUTHORIZATION="Bearer " + "y" * 43))


def settings_in_a_fresh_process(name: str = "REST_FRAMEWORK", **environment: str) -> Any:
    """The setting `name` as skyjo_service.settings builds it from this environment."""
    script = f"import json; from django.conf import settings; print(json.dumps(settings.{name}))"
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "THROTTLING",
            "THROTTLE_ADDRESS_RATE",
            "DEBUG",
            "SECRET_KEY",
            "REDIS_URL",
            "REDIS_KEY_PREFIX",
        }
    }
    env.update(DJANGO_SETTINGS_MODULE="skyjo_service.settings", **environment)
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "a-test-key-" + "x" * 50}


def test_throttling_is_on_by_default_and_off_with_throttling_off() -> None:
    default = settings_in_a_fresh_process(**PRODUCTION)
    assert default["DEFAULT_THROTTLE_CLASSES"] == [
        "games.api.throttling.AddressRateThrottle",
        "games.api.throttling.SeatTokenRateThrottle",
    ]
    assert default["DEFAULT_THROTTLE_RATES"] == {
        "address": "600/min",
        "seat": "300/min",
        "game_create": "60/hour",
        "bot_seat": "120/hour",
        "account_create": "10/hour",
        "challenge_create": "60/hour",
    }
    development = settings_in_a_fresh_process(DEBUG="true")
    assert development["DEFAULT_THROTTLE_CLASSES"] == default["DEFAULT_THROTTLE_CLASSES"]
    assert development["DEFAULT_THROTTLE_RATES"] == {
        "address": "20000/min",
        "seat": "10000/min",
        "game_create": "2000/hour",
        "bot_seat": "4000/hour",
        "account_create": "1000/hour",
        "challenge_create": "2000/hour",
    }
    for off in ("off", "false", "0"):
        assert settings_in_a_fresh_process(THROTTLING=off)["DEFAULT_THROTTLE_CLASSES"] == []
    tuned = settings_in_a_fresh_process(THROTTLE_ADDRESS_RATE="5/second")
    assert tuned["DEFAULT_THROTTLE_RATES"]["address"] == "5/second"


def test_production_counts_in_a_cache_every_worker_shares() -> None:
    """Django's default cache is each process's memory: under `make serve` every worker
    counted on its own. Production counts in the database (or Redis); the development server,
    one process, keeps its memory (tests/production/test_shared_rate_limits runs the workers)."""
    production = settings_in_a_fresh_process("CACHES", **PRODUCTION)["default"]
    assert production["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert production["LOCATION"] == settings.RATE_LIMIT_CACHE_TABLE
    assert production["OPTIONS"]["MAX_ENTRIES"] >= 100_000  # no cull of live counts
    development = settings_in_a_fresh_process("CACHES", DEBUG="true")["default"]
    assert development["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_redis_url_selects_redis() -> None:
    url = "redis://127.0.0.1:6379/3"
    if importlib.util.find_spec("redis") is None:  # refused at start, not at the first request
        with pytest.raises(AssertionError, match="REDIS_URL needs the redis package"):
            settings_in_a_fresh_process("CACHES", REDIS_URL=url, **PRODUCTION)
        return
    for debug in ("true", "false"):  # in development too: then Redis is what one asked for
        environment = {**PRODUCTION, "DEBUG": debug, "REDIS_URL": url}
        redis = settings_in_a_fresh_process("CACHES", **environment)["default"]
        assert redis == {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "",
        }
    environment = {**PRODUCTION, "REDIS_URL": url, "REDIS_KEY_PREFIX": "skyjo-blue"}
    prefixed = settings_in_a_fresh_process("CACHES", **environment)["default"]
    assert prefixed["KEY_PREFIX"] == "skyjo-blue"  # services sharing one Redis keep apart


def test_every_migrate_creates_the_rate_limit_table() -> None:
    """The test database was migrated: the table is there, and the database cache counts in it
    (in this process, as in each worker)."""
    tables = connection.introspection.table_names()
    assert {settings.RATE_LIMIT_CACHE_TABLE, settings.RATE_COUNT_TABLE} <= set(tables)
    shared = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": settings.RATE_LIMIT_CACHE_TABLE,
        }
    }
    with override_settings(CACHES=shared):
        cache.set("throttle_address_10.0.0.1", [1.0], 60)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT cache_key FROM {settings.RATE_LIMIT_CACHE_TABLE}")
            assert [row[0] for row in cursor.fetchall()] == [":1:throttle_address_10.0.0.1"]


class CountingClient(APIClient):
    """A test client that counts the requests it sends."""

    sent = 0

    def request(self, *args: Any, **kwargs: Any) -> Any:
        self.sent += 1
        return super().request(*args, **kwargs)


@pytest.mark.parametrize(("debug", "throttled"), [(True, False), (False, True)])
def test_a_bot_game_from_one_machine_is_throttled_in_production_only(
    rates: dict[str, str], debug: bool, throttled: bool
) -> None:
    """Two bots on one address play a whole game, reading every view after each move (well
    over 1,000 requests in under a minute): never refused under the development defaults
    (`make run`), refused under production's."""
    rates.update({scope: pair[debug] for scope, pair in settings.THROTTLE_DEFAULTS.items()})
    client = CountingClient()
    game_id, tokens = start_game(client, 2, seed=4)
    try:
        play_over_http(client, game_id, tokens, [GreedyPlayer(), GreedyPlayer()])
    except AssertionError as error:
        assert throttled and '"code":"throttled"' in str(error).replace(" ", ""), error
    else:
        assert not throttled and client.sent > 1_000, client.sent


def test_bot_seats_per_address(api: APIClient, rates: dict[str, str]) -> None:
    """Each bot seat is rounds the workers play (R13): they are counted per address; a
    person's join is not."""
    rates["bot_seat"] = "2/hour"
    first = api.post(GAMES, {"seats": 3}, format="json").json()["id"]
    for _ in range(2):
        seated = api.post(f"{GAMES}/{first}/players", {"bot": "greedy"}, format="json")
        assert seated.status_code == 201
    assert_throttled(api.post(f"{GAMES}/{first}/players", {"bot": "greedy"}, format="json"), 3600)
    assert api.post(f"{GAMES}/{first}/players", {"name": "Ada"}, format="json").status_code == 201
    other = api.post(GAMES, {"seats": 2}, format="json").json()["id"]
    elsewhere = api.post(
        f"{GAMES}/{other}/players", {"bot": "greedy"}, format="json", REMOTE_ADDR="10.1.2.3"
    )
    assert elsewhere.status_code == 201
