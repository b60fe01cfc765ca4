"""Crafted imports (issue 12, item 1): an import is held to exactly the limits of create and
join, field by field, and its `game` object to what its events say.

The attacks: `options.end_score` 2**64 and a schema-1 `end_score: 10**20` were 500s (the JSON
encoder refuses integers over 64 bits); names over 64 characters or holding `\\u0000` were 500s
on PostgreSQL, and on SQLite names of 100,000 characters, control or bidi characters or empty
were stored, though join refuses them. Each is now `400 invalid_history`, naming the field
under `errors` with the very messages create or join give.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.core.names import is_valid_name, normalized_name
from games.models import Game, Seat
from tests.api.import_support import IMPORT, waiting_history
from tests.api.support import GAMES, assert_problem, create_game, finished_game

pytestmark = pytest.mark.django_db

DEFAULTS = {"end_score": 100, "closer_penalty": True, "turn_seconds": None, "max_timeouts": 3}


def refused_import(api: APIClient, document: Any, rule_code: str) -> dict[str, Any]:
    """The `invalid_history` answer, after checking that nothing was stored."""
    games_before = Game.objects.count()
    body = assert_problem(api.post(IMPORT, document, format="json"), 400, "invalid_history")
    assert body["rule_code"] == rule_code, body
    assert Game.objects.count() == games_before
    return body


def create_errors(api: APIClient, body: dict[str, Any]) -> dict[str, list[str]]:
    """What create answers for this body: its field errors."""
    problem = assert_problem(api.post(GAMES, body, format="json"), 400, "invalid_request")
    errors: dict[str, list[str]] = problem["errors"]
    return errors


def join_errors(api: APIClient, name: Any) -> dict[str, list[str]]:
    """What join answers for this name: its field errors."""
    game = create_game(api, 2)
    response = api.post(f"{GAMES}/{game['id']}/players", {"name": name}, format="json")
    errors: dict[str, list[str]] = assert_problem(response, 400, "invalid_request")["errors"]
    return errors


# Seats and options: exactly create's limits


@pytest.mark.parametrize(
    ("seats", "options", "field"),
    [
        (2, {"end_score": 2**64, "closer_penalty": True}, "options.end_score"),  # was a 500
        (2, {"end_score": 10**20, "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": 100_001, "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": 0, "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": -(2**64), "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": 100.0, "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": "100", "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": True, "closer_penalty": True}, "options.end_score"),
        (2, {"end_score": 100, "closer_penalty": 1}, "options.closer_penalty"),
        (2, {"end_score": 100, "closer_penalty": "true"}, "options.closer_penalty"),
        (2, {"end_score": 100, "closer_penalty": None}, "options.closer_penalty"),
        (2, {**DEFAULTS, "seed": 7}, "options.seed"),
        (2, [100, True], "options"),
        (1, DEFAULTS, "seats"),
        (9, DEFAULTS, "seats"),
        (2**64, DEFAULTS, "seats"),
        (True, DEFAULTS, "seats"),
        ("2", DEFAULTS, "seats"),
    ],
)
def test_game_created_is_held_to_creates_limits(
    api: APIClient, seats: Any, options: Any, field: str
) -> None:
    document = waiting_history("Ada", seats=3)
    document["events"][0]["data"] = {"seats": seats, "options": options}
    body = refused_import(api, document, "invalid_options")
    assert body["sequence"] == 1
    path = f"events.0.data.{field}"
    assert body["detail"].startswith(f"event 1: {path}: ")
    assert body["errors"][path] == create_errors(api, {"seats": seats, "options": options})[field]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"seats": 2, "end_score": 10**20}, "end_score"),  # was a 500
        ({"seats": 2, "end_score": 2**64, "closer_penalty": False}, "end_score"),
        ({"seats": 2, "end_score": 0}, "end_score"),
        ({"seats": 2, "closer_penalty": "no"}, "closer_penalty"),
        ({"seats": 12}, "seats"),
        ({"seats": 2, "seed": 42}, "seed"),
    ],
)
def test_a_schema_1_game_created_is_held_to_the_same_limits(
    api: APIClient, data: dict[str, Any], field: str
) -> None:
    document = waiting_history("Ada")
    document["events"][0].update(schema_version=1, data=data)
    body = refused_import(api, document, "invalid_options")
    assert list(body["errors"]) == [f"events.0.data.{field}"]


def test_options_within_creates_limits_import(api: APIClient) -> None:
    for options in ({"end_score": 100_000, "closer_penalty": False}, {"end_score": 1}):
        document = waiting_history("Ada", seats=8, options=options)
        response = api.post(IMPORT, document, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["options"] == {**DEFAULTS, **options}
    schema_1 = waiting_history("Ada")
    schema_1["events"][0].update(schema_version=1, data={"seats": 2, "end_score": 100_000})
    assert api.post(IMPORT, schema_1, format="json").status_code == 201


# Names: exactly join's rule, in the form join stores them

REFUSED_NAMES = [
    pytest.param("A" * 65, id="over 64 characters"),  # a 500 on PostgreSQL (varchar(64))
    pytest.param("A" * 41, id="41 characters"),
    pytest.param("A" * 100_000, id="100000 characters"),
    pytest.param("\u0000", id="NUL"),  # a 500 on PostgreSQL (no NUL in text)
    pytest.param("Ada\u0000", id="NUL inside"),
    pytest.param("Ada\x07", id="control"),
    pytest.param("A\nda", id="line break"),
    pytest.param("\u202eadA", id="bidi override"),
    pytest.param("Ada\u2067", id="bidi isolate"),
    pytest.param("Ada\u200b", id="zero width space"),
    pytest.param("", id="empty"),
    pytest.param("   ", id="only spaces"),
    pytest.param(None, id="null"),
    pytest.param(7, id="a number"),
    pytest.param(["Ada"], id="a list"),
    pytest.param("\ufb2c" * 40, id="NFC makes 120 characters"),
]


@pytest.mark.parametrize("name", REFUSED_NAMES)
def test_a_name_join_refuses_is_refused_by_import_with_joins_messages(
    api: APIClient, name: Any
) -> None:
    document = waiting_history("Ada", name)
    body = refused_import(api, document, "invalid_name")
    assert body["sequence"] == 3 and not Seat.objects.exists()
    assert body["errors"] == {"events.2.data.name": join_errors(api, name)["name"]}


@pytest.mark.parametrize("name", [" Ada", "Ada ", "Zoe\u0301"])
def test_a_name_join_would_store_otherwise_is_refused(api: APIClient, name: str) -> None:
    """Join accepts these but stores "Ada", "Zoé": a log holds names as stored."""
    body = refused_import(api, waiting_history(name), "invalid_name")
    assert list(body["errors"]) == ["events.1.data.name"]


def test_names_join_would_store_import(api: APIClient) -> None:
    names = ("x" * 40, "Zo\u00e9", "Ada Lovelace", "\u5b6b\u609f\u7a7a")
    response = api.post(IMPORT, waiting_history(*names, seats=5), format="json")
    assert response.status_code == 201, response.content
    assert [token["name"] for token in response.json()["seat_tokens"]] == list(names)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(max_size=45) | st.text(st.characters(codec="utf-8"), max_size=45))
def test_import_accepts_exactly_the_names_join_stores(api: APIClient, name: str) -> None:
    """Whatever the name: imported iff join would accept it and store it unchanged."""
    stored_unchanged = is_valid_name(name) and normalized_name(name) == name
    response = api.post(IMPORT, waiting_history(name), format="json")
    assert response.status_code == (201 if stored_unchanged else 400), response.content
    if not stored_unchanged:
        assert response.json()["rule_code"] == "invalid_name"


# The document's `game` object: checked against the events


@pytest.fixture
def exported(api: APIClient) -> dict[str, Any]:
    game_id, _ = finished_game(api, 2, seed=3)
    document: dict[str, Any] = api.get(f"{GAMES}/{game_id}/history").json()
    return document


def test_an_export_imports_with_its_game_object_unchanged(
    api: APIClient, exported: dict[str, Any]
) -> None:
    assert api.post(IMPORT, exported, format="json").status_code == 201
    informational = {**exported["game"], "id": "not even a uuid", "seeded": False}
    changed = {**exported, "game": informational}
    assert api.post(IMPORT, changed, format="json").status_code == 201


def _players_renamed(game: dict[str, Any]) -> None:
    game["players"][0]["name"] = "Mallory"


def _player_missing(game: dict[str, Any]) -> None:
    game["players"].pop()


def _seats_changed(game: dict[str, Any]) -> None:
    game["seats"] = 3


def _seats_as_text(game: dict[str, Any]) -> None:
    game["seats"] = "2"


def _end_score_changed(game: dict[str, Any]) -> None:
    game["options"]["end_score"] = 2**64


def _penalty_as_a_number(game: dict[str, Any]) -> None:
    game["options"]["closer_penalty"] = 1


def _status_changed(game: dict[str, Any]) -> None:
    game["status"] = "playing"


def _version_changed(game: dict[str, Any]) -> None:
    game["version"] -= 1


def _winners_changed(game: dict[str, Any]) -> None:
    game["winners"] = [0, 1]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (_players_renamed, "players"),
        (_player_missing, "players"),
        (_seats_changed, "seats"),
        (_seats_as_text, "seats"),
        (_end_score_changed, "options"),
        (_penalty_as_a_number, "options"),
        (_status_changed, "status"),
        (_version_changed, "version"),
        (_winners_changed, "winners"),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_a_game_object_that_contradicts_the_events_is_refused(
    api: APIClient, exported: dict[str, Any], change: Any, field: str
) -> None:
    document = copy.deepcopy(exported)
    change(document["game"])
    body = refused_import(api, document, "game_mismatch")
    assert body["sequence"] is None
    assert list(body["errors"]) == [f"game.{field}"]
    assert body["detail"].startswith(f"game.{field}: The events say ")


@pytest.mark.parametrize(
    ("document_change", "field"),
    [
        ({"game": {"seed": 42}}, "game.seed"),  # a seed is not part of a history
        ({"game": {"seeded": "yes"}}, "game.seeded"),
        ({"game": {"owner": "Mallory"}}, "game.owner"),
        ({"seed": 42}, "seed"),
    ],
)
def test_keys_a_history_does_not_have_are_refused(
    api: APIClient, exported: dict[str, Any], document_change: dict[str, Any], field: str
) -> None:
    document = copy.deepcopy(exported)
    for key, value in document_change.items():
        if isinstance(value, dict):
            document[key].update(value)
        else:
            document[key] = value
    body = refused_import(api, document, "malformed_document")
    assert list(body["errors"]) == [field]


@pytest.mark.parametrize("game", [None, [], "finished", 2])
def test_a_game_object_that_is_not_an_object_is_refused(
    api: APIClient, exported: dict[str, Any], game: Any
) -> None:
    refused_import(api, {**exported, "game": game}, "malformed_document")


def test_an_event_with_a_key_events_do_not_have_is_refused(
    api: APIClient, exported: dict[str, Any]
) -> None:
    exported["events"][4]["seed"] = 42
    body = refused_import(api, exported, "malformed_event")
    assert body["sequence"] == 5 and list(body["errors"]) == ["events.4.seed"]


def test_a_game_object_of_an_unfinished_game_is_checked_too(api: APIClient) -> None:
    players = [{"seat": 0, "name": "Ada"}]
    agreeing = {"seats": 3, "options": DEFAULTS, "players": players, "status": "waiting"}
    agreeing |= {"version": 2, "winners": None}
    assert api.post(IMPORT, waiting_history("Ada", game=agreeing), format="json").status_code == 201
    claims_a_join = {**agreeing, "players": [*players, {"seat": 1, "name": "Bob"}]}
    refused_import(api, waiting_history("Ada", game=claims_a_join), "game_mismatch")
