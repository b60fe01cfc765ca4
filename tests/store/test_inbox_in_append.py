"""An append's inbox entries, written in its one statement on PostgreSQL or by
`accounts.inbox.deliver` in its transaction (`SKYJO_INBOX_IN_APPEND` off, and on SQLite):
the same entries, numbered alike, either way."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from accounts import services
from accounts.models import InboxEntry
from engine import GreedyPlayer, action_to_data
from engine.view import view_from_data
from tests.api.support import GAMES, action_url, bearer, create_game

pytestmark = pytest.mark.django_db

ACTIONS = 120


def inboxes_of_a_game(api: APIClient, prefix: str) -> dict[int, list[tuple[int, str, Any]]]:
    """Two bot accounts play the same seeded game; each seat's entries, without the game id."""
    tokens = [services.sign_up(f"{prefix}{seat}", "bot", None).token.token for seat in (0, 1)]
    game = create_game(api, 2, seed=11)["id"]
    for token in tokens:
        assert api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token)).status_code
    player = GreedyPlayer()
    for _ in range(ACTIONS):
        views = [api.get(f"{GAMES}/{game}", **bearer(token)).json() for token in tokens]
        seat = next((v["you"] for v in views if v["legal_actions"]), None)
        if seat is None:
            break
        data = action_to_data(player.choose(view_from_data(views[seat])))
        kind = data.pop("action")
        answer = api.post(action_url(game, kind), data, format="json", **bearer(tokens[seat]))
        assert answer.status_code == 200, answer.content
    return {
        seat: [
            (e.sequence, e.type, {k: v for k, v in e.payload.items() if k != "game"})
            for e in InboxEntry.objects.filter(account__handle=f"{prefix}{seat}").order_by(
                "sequence"
            )
        ]
        for seat in (0, 1)
    }


def test_both_ways_write_the_same_entries(api: APIClient) -> None:
    inline = inboxes_of_a_game(api, "inline")
    with override_settings(SKYJO_INBOX_IN_APPEND=False):
        apart = inboxes_of_a_game(api, "apart")
    assert inline == apart
    for entries in inline.values():
        assert [sequence for sequence, _, _ in entries] == list(range(1, len(entries) + 1))
        assert [kind for _, kind, _ in entries][:2] == ["game_started", "your_turn"]
        assert sum(kind == "your_turn" for _, kind, _ in entries) > 10
