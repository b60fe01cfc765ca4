"""Old logs still replay: stored fixtures written with older schemas are upcast on read, by the
engine, the import and the stored-log path alike: GameCreated schema 1 (options at the top
level, before schema 2 nested them), and FinalTurnsBegan and RoundEnded schema 1 (`closer`,
before schema 2 named it `closer_seat` as the views do)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from engine import event_from_data
from engine.audit import verify_log
from engine.events import FinalTurnsBegan, GameCreated, RoundEnded
from engine.state import FINISHED
from games import core
from games.models import Game, GameEvent

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "history_gamecreated_schema1.json"
#: The fixture's options, at the top level of its schema-1 `GameCreated`.
OLD_OPTIONS = {"end_score": 60, "closer_penalty": True}


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
    assert game["options"] == {**OLD_OPTIONS, "turn_seconds": None, "max_timeouts": 3}


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
    state = core.game_state(game)
    assert state.phase == FINISHED
    view = api.get(f"/api/v1/games/{game.id}").json()
    assert view["winners"] == old_history["game"]["winners"]
    feed = api.get(f"/api/v1/games/{game.id}/events?limit=1").json()
    assert feed["events"][0]["data"]["options"] == {
        **OLD_OPTIONS,
        "turn_seconds": None,
        "max_timeouts": 3,
    }
    call_command("verify_games", str(game.id))  # raises CommandError if it did not replay


# FinalTurnsBegan and RoundEnded schema 1 (`closer`, renamed `closer_seat` in schema 2), as the
# service exported them before the rename: GameCreated already at schema 2, `at` on every event.

CLOSER_FIXTURE = FIXTURE.parent / "history_closer_schema1.json"
RENAMED = ("FinalTurnsBegan", "RoundEnded")


@pytest.fixture
def closer_history() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(CLOSER_FIXTURE.read_text())
    old = [raw for raw in document["events"] if raw["type"] in RENAMED]
    assert len(old) == 4  # two rounds: each began its final turns and ended
    assert all(raw["schema_version"] == 1 and "closer" in raw["data"] for raw in old)
    assert not any("closer_seat" in raw["data"] for raw in old)
    return document


def _closers(events: list[dict[str, Any]]) -> list[int]:
    """The closing seat of each FinalTurnsBegan and RoundEnded, whatever its schema."""
    return [
        raw["data"]["closer_seat" if raw["schema_version"] >= 2 else "closer"]
        for raw in events
        if raw["type"] in RENAMED
    ]


def test_engine_upcasts_the_old_closer_and_replays(closer_history: dict[str, Any]) -> None:
    events = [
        event_from_data(raw["type"], raw["data"], raw["schema_version"])
        for raw in closer_history["events"]
    ]
    closers = [e.closer_seat for e in events if isinstance(e, FinalTurnsBegan | RoundEnded)]
    assert closers == _closers(closer_history["events"])
    state = verify_log(events)
    assert state.phase == FINISHED
    assert list(state.winners) == closer_history["game"]["winners"]
    assert [r.closer for r in state.rounds] == closers[1::2]


@pytest.mark.django_db
def test_the_old_closer_history_imports_and_exports_at_schema_2(
    api: APIClient, closer_history: dict[str, Any]
) -> None:
    """An import stores events at their current schema: its history says `closer_seat`."""
    response = api.post("/api/v1/games/import", closer_history, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["status"] == "finished"
    assert game["winners"] == closer_history["game"]["winners"]
    assert [r["closer_seat"] for r in game["rounds"]] == _closers(closer_history["events"])[1::2]
    exported = api.get(f"/api/v1/games/{game['id']}/history").json()["events"]
    assert {raw["schema_version"] for raw in exported if raw["type"] in RENAMED} == {2}
    assert _closers(exported) == _closers(closer_history["events"])


@pytest.mark.django_db
def test_an_old_closer_log_stored_as_is_replays(
    api: APIClient, closer_history: dict[str, Any]
) -> None:
    """Rows stored at schema 1 stay so (history shows them as stored); feeds and views upcast."""
    game = Game.objects.create(
        seats=2,
        options=closer_history["game"]["options"],
        seed=1,
        status="finished",
        version=len(closer_history["events"]),
    )
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            sequence=raw["sequence"],
            type=raw["type"],
            schema_version=raw["schema_version"],
            payload=raw["data"],
        )
        for raw in closer_history["events"]
    )
    assert core.game_state(game).phase == FINISHED
    feed = api.get(f"/api/v1/games/{game.id}/events?limit=1000").json()["events"]
    renamed = [raw for raw in feed if raw["type"] in RENAMED]
    assert [raw["data"]["closer_seat"] for raw in renamed] == _closers(closer_history["events"])
    assert not any("closer" in raw["data"] for raw in renamed)
    history = api.get(f"/api/v1/games/{game.id}/history").json()["events"]
    assert [raw["data"] for raw in history] == [raw["data"] for raw in closer_history["events"]]
    call_command("verify_games", str(game.id))
