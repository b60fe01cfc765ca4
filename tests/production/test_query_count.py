"""An action costs a small, constant number of statements however long the game: one write
appends the events and moves the row on (a single statement on PostgreSQL, an UPDATE and an
INSERT on SQLite), after one SELECT of the game row with its snapshot and the token's seat
unless this process remembers the game (games.warm); an Idempotency-Key adds the seat's
lookup (its scope is the seat's), the key's and its stored answer. A read is one query."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from engine import GreedyPlayer, action_to_data
from games.store.warm import WARM
from tests.api.support import bearer, get_view, send, start_game, view_from_data

pytestmark = pytest.mark.django_db

#: The statements of an append: PostgreSQL runs the UPDATE and the INSERT as one.
APPEND = {"postgresql": Counter(WITH=1), "sqlite": Counter(UPDATE=1, INSERT=1)}

STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


def statements(queries: list[dict[str, Any]]) -> Counter[str]:
    """SELECT/INSERT/UPDATE/DELETE/WITH statements (transaction control left out)."""
    kinds = (query["sql"].lstrip().split(" ", 1)[0].upper() for query in queries)
    return Counter(kind for kind in kinds if kind in STATEMENTS)


def test_queries_per_action_stay_constant(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=5)
    player = GreedyPlayer()
    counts: list[Counter[str]] = []
    reads: list[Counter[str]] = []
    for step in range(120):
        views = [get_view(api, game_id, token) for token in tokens]
        seat = next(s for s, view in enumerate(views) if view["legal_actions"])
        action = action_to_data(player.choose(view_from_data(views[seat])))
        headers = {"HTTP_IDEMPOTENCY_KEY": f"step-{step}"} if step % 2 else {}
        with CaptureQueriesContext(connection) as queries:
            response = send(api, game_id, tokens[seat], action, **headers)
        assert response.status_code == 200, response.content
        if not headers:
            counts.append(statements(queries.captured_queries))
        with CaptureQueriesContext(connection) as queries:
            api.get(f"/api/v1/games/{game_id}", **bearer(tokens[seat]))
        reads.append(statements(queries.captured_queries))
    assert views[0]["version"] > 100  # a long log, several rounds of snapshots
    # Each action follows a read by its seat: the game is warm, the write is all.
    assert all(count == APPEND[connection.vendor] for count in counts), counts
    assert all(count == Counter(SELECT=1) for count in reads), reads


def test_an_idempotency_key_adds_its_lookup_and_its_stored_answer(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=6)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    with CaptureQueriesContext(connection) as queries:
        send(api, game_id, tokens[0], reveal, HTTP_IDEMPOTENCY_KEY="k")
    stored = Counter(SELECT=3, INSERT=1) + APPEND[connection.vendor]
    assert statements(queries.captured_queries) == stored
    with CaptureQueriesContext(connection) as queries:  # the retry: answered from the store
        send(api, game_id, tokens[0], reveal, HTTP_IDEMPOTENCY_KEY="k")
    assert statements(queries.captured_queries) == Counter(SELECT=2)


def test_a_cold_action_reads_the_game_first(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=7)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    WARM.clear()  # another process served the game so far
    with CaptureQueriesContext(connection) as queries:
        send(api, game_id, tokens[0], reveal)
    assert statements(queries.captured_queries) == Counter(SELECT=1) + APPEND[connection.vendor]
