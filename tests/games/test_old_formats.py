"""Old logs still replay: a stored fixture written with GameCreated schema 1 (options at the
top level, before schema 2 nested them) is upcast on read, by the engine, the import and the
stored-log path alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from engine import event_from_data
from engine.audit import verify_log
from engine.events import GameCreated
from engine.state import FINISHED
from games import services
from games.models import Game, GameEvent

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "history_gamecreated_schema1.json"


@pytest.fixture
def old_history() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(FIXTURE.read_text())
    first = document["events"][0]
    # The fixture really is in the old shape: this is what the upcaster exists for.
    assert first["type"] == "GameCreated" and first["schema_version"] == 1
    assert "end_score" in first["data"] and "options" not in first["data"]
    return document


def test_engine_upcasts_and_replays_the_old_log(old_history: dict[str, Any]) -> None:
    events = [
        event_from_data(raw["type"], raw["data"], raw["schema_version"])
        for raw in old_history["events"]
    ]
    assert isinstance(events[0], GameCreated)
    assert events[0].options.end_score == 60
    state = verify_log(events)
    assert state.phase == FINISHED
    assert list(state.winners) == old_history["game"]["winners"]
    assert state.version == old_history["game"]["version"]


@pytest.mark.django_db
def test_the_old_history_imports_as_a_finished_game(
    api: APIClient, old_history: dict[str, Any]
) -> None:
    response = api.post("/api/v1/games/import", old_history, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["status"] == "finished"
    assert game["winners"] == old_history["game"]["winners"]
    assert game["options"] == {"end_score": 60, "closer_penalty": True}


@pytest.mark.django_db
def test_an_old_log_stored_as_is_replays_and_verifies(
    api: APIClient, old_history: dict[str, Any]
) -> None:
    """Rows written before the schema change keep their version: reading upcasts them."""
    game = Game.objects.create(
        seats=3,
        options={"end_score": 60, "closer_penalty": True},
        seed=1,
        status="finished",
        version=len(old_history["events"]),
    )
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            sequence=raw["sequence"],
            type=raw["type"],
            schema_version=raw["schema_version"],
            payload=raw["data"],
        )
        for raw in old_history["events"]
    )
    state = services.game_state(game)
    assert state.phase == FINISHED
    view = api.get(f"/api/v1/games/{game.id}").json()
    assert view["winners"] == old_history["game"]["winners"]
    feed = api.get(f"/api/v1/games/{game.id}/events?limit=1").json()
    assert feed["events"][0]["data"]["options"] == {"end_score": 60, "closer_penalty": True}
    call_command("verify_games", str(game.id))  # raises CommandError if it did not replay
