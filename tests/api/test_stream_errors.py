"""Errors before a stream starts are problem documents, as every other answer is, even to a
client that accepts only `text/event-stream` (an EventSource): 404 for an unknown game, 401 for
a bad token, 400 for a bad `Last-Event-ID` or `after`, 429 when throttled or when the client's
address holds `LIVE_MAX_STREAMS_PER_ADDRESS` streams and long polls, 503 when the process holds
`LIVE_MAX_STREAMS`. And the feed's long poll and ETag: `wait` out of range is
400, `If-None-Match` naming the version is 304.

In this process: nothing here reads a stream (tests/live does, on real servers).
"""

from __future__ import annotations

import gc
import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from games.api.throttling import AddressRateThrottle, SeatTokenRateThrottle

from .support import GAMES, act, assert_problem, bearer, start_game

pytestmark = pytest.mark.django_db

#: What an EventSource sends.
EVENT_SOURCE = {"HTTP_ACCEPT": "text/event-stream"}


def stream(api: APIClient, game_id: str, token: str | None = None, **headers: str) -> Any:
    auth = bearer(token) if token else {}
    # A stream that does start is not read here (nor closed: its close would end the
    # request, and close the test's database connection).
    return api.get(f"{GAMES}/{game_id}/stream", **EVENT_SOURCE, **auth, **headers)


def test_an_unknown_game_is_404(api: APIClient) -> None:
    assert_problem(stream(api, str(uuid.uuid4())), 404, "game_not_found")
    assert_problem(stream(api, "not-a-game"), 404, "game_not_found")


def test_a_bad_token_is_401(api: APIClient) -> None:
    game_id, _ = start_game(api)
    refused = stream(api, game_id, "x" * 43)
    assert_problem(refused, 401, "invalid_token")
    assert refused["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("value", ["twelve", "-1", "1.5", "2147483648", "١٢"])
def test_a_bad_last_event_id_is_400(api: APIClient, value: str) -> None:
    game_id, _ = start_game(api)
    refused = assert_problem(stream(api, game_id, HTTP_LAST_EVENT_ID=value), 400, "invalid_request")
    assert "Last-Event-ID" in refused["errors"]


@pytest.mark.parametrize("value", ["-1", "x", "2147483648"])
def test_a_bad_after_is_400(api: APIClient, value: str) -> None:
    game_id, _ = start_game(api)
    refused = api.get(f"{GAMES}/{game_id}/stream", {"after": value}, **EVENT_SOURCE)
    assert "after" in assert_problem(refused, 400, "invalid_request")["errors"]


def test_a_stream_starts_where_the_problems_end(api: APIClient) -> None:
    """The same requests, well formed, are streams (not read here)."""
    game_id, tokens = start_game(api)
    for token in (None, tokens[0]):
        opened = stream(api, game_id, token, HTTP_LAST_EVENT_ID=" 3 ")
        assert opened.status_code == 200 and opened.streaming
        assert opened["Content-Type"] == "text/event-stream"


def test_a_throttled_stream_is_429(api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _ = start_game(api)
    monkeypatch.setattr(APIView, "throttle_classes", [AddressRateThrottle, SeatTokenRateThrottle])
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"address": "2/min", "seat": None})
    cache.clear()
    assert [stream(api, game_id).status_code for _ in range(2)] == [200, 200]
    refused = stream(api, game_id)
    assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 60


@override_settings(LIVE_MAX_STREAMS=0)
def test_a_stream_beyond_the_process_s_limit_is_503(api: APIClient) -> None:
    game_id, _ = start_game(api)
    refused = stream(api, game_id)
    assert_problem(refused, 503, "too_many_streams")
    assert int(refused["Retry-After"]) > 0


# The feed: long poll and ETag


@pytest.mark.parametrize("wait", ["31", "-1", "1.5", "x"])
def test_a_wait_out_of_range_is_400(api: APIClient, wait: str) -> None:
    game_id, _ = start_game(api)
    refused = api.get(f"{GAMES}/{game_id}/events", {"wait": wait})
    assert "wait" in assert_problem(refused, 400, "invalid_request")["errors"]


def test_the_feed_s_etag_is_the_version_and_if_none_match_answers_304(api: APIClient) -> None:
    game_id, tokens = start_game(api)
    url = f"{GAMES}/{game_id}/events"
    fresh = api.get(url)
    assert fresh.status_code == 200 and fresh["ETag"] == '"4"'
    for tag in ('"4"', 'W/"4"', '"2", "4"', "*"):
        cached = api.get(url, HTTP_IF_NONE_MATCH=tag)
        assert cached.status_code == 304, tag
        assert cached["ETag"] == '"4"' and cached.content == b""
    assert api.get(url, HTTP_IF_NONE_MATCH='"3"').status_code == 200
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    moved = api.get(url, {"after": 4}, HTTP_IF_NONE_MATCH='"4"', **bearer(tokens[0]))
    assert moved.status_code == 200 and moved["ETag"] == '"5"'
    assert [event["sequence"] for event in moved.json()["events"]] == [5]


# Places: streams and waiting long polls share LIVE_MAX_STREAMS, LIVE_MAX_STREAMS_PER_ADDRESS
# of them per address; a place is taken before the response starts.


def events(api: APIClient, game_id: str, **query: Any) -> Any:
    return api.get(f"{GAMES}/{game_id}/events", query)


@override_settings(LIVE_MAX_STREAMS=3)
def test_streams_not_started_yet_count_against_the_cap(api: APIClient) -> None:
    game_id, _ = start_game(api)
    gc.collect()  # the places of earlier tests' streams, dropped unread
    answers = [stream(api, game_id, REMOTE_ADDR=f"10.0.0.{n}") for n in range(30)]
    assert [answer.status_code for answer in answers].count(200) == 3
    assert_problem(answers[-1], 503, "too_many_streams")
    del answers[0]
    gc.collect()  # a response dropped before it started gives its place back
    assert stream(api, game_id).status_code == 200


@override_settings(LIVE_MAX_STREAMS=0)
def test_a_long_poll_beyond_the_process_s_places_is_503_at_once(api: APIClient) -> None:
    game_id, _ = start_game(api)
    refused = assert_problem(events(api, game_id, after=4, wait=3), 503, "too_many_streams")
    assert refused["detail"]
    assert int(events(api, game_id, after=4, wait=3)["Retry-After"]) > 0
    assert events(api, game_id, after=4).status_code == 200  # a plain poll: no place needed
    assert events(api, game_id, after=2, wait=3).status_code == 200  # news: no wait either


@override_settings(LIVE_MAX_STREAMS_PER_ADDRESS=2)
def test_streams_and_long_polls_beyond_an_address_s_places_are_429(api: APIClient) -> None:
    game_id, _ = start_game(api)
    gc.collect()
    held = [stream(api, game_id) for _ in range(2)]
    assert [answer.status_code for answer in held] == [200, 200]
    refused = stream(api, game_id)
    assert_problem(refused, 429, "too_many_streams_from_address")
    assert int(refused["Retry-After"]) > 0
    polled = events(api, game_id, after=4, wait=3)
    assert_problem(polled, 429, "too_many_streams_from_address")
    assert events(api, game_id, after=4).status_code == 200
    assert stream(api, game_id, REMOTE_ADDR="10.1.2.3").status_code == 200  # another address
    closed(held.pop())  # as a server closes a response: the place comes back
    assert stream(api, game_id).status_code == 200


def closed(response: Any) -> None:
    """Close a response as a WSGI server does, keeping the test's database connection (as the
    tests' client does for a response read to its end)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)
